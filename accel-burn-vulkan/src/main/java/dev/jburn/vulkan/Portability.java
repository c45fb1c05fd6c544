package dev.jburn.vulkan;

import java.util.List;

import static org.lwjgl.vulkan.KHRPortabilityEnumeration.VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
import static org.lwjgl.vulkan.KHRPortabilityEnumeration.VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
import static org.lwjgl.vulkan.KHRPortabilitySubset.VK_KHR_PORTABILITY_SUBSET_EXTENSION_NAME;

/**
 * What a portability implementation (MoltenVK on macOS, over Metal) needs from the engine. The Vulkan
 * loader hides such drivers unless the instance enables {@code VK_KHR_portability_enumeration} and sets
 * {@code VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR}; a device that lists
 * {@code VK_KHR_portability_subset} must have it enabled. Both are enabled exactly when listed: LWJGL's
 * macOS natives load their bundled MoltenVK directly, without the loader, and then the instance
 * extension is not listed (nor needed); with the Vulkan SDK's loader it is. Untested on a Mac: on
 * Linux the loader lists the instance extension (so lavapipe runs with it on) and no device lists the subset.
 *
 * <pre>{@code
 * List<String> ext = Portability.instanceExtensions(VulkanExtensions.instance());
 * ci.flags(Portability.instanceFlags(ext)).ppEnabledExtensionNames(VulkanExtensions.pointers(ext, stack));
 * }</pre>
 */
final class Portability {
    /** The instance extension that lets the loader enumerate portability drivers. */
    static final String ENUMERATION = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
    /** The device extension a portability driver lists (and then requires enabled). */
    static final String SUBSET = VK_KHR_PORTABILITY_SUBSET_EXTENSION_NAME;

    private Portability() {}

    /** The instance extensions to enable, given what the loader {@code lists}. */
    static List<String> instanceExtensions(List<String> lists) {
        return lists.contains(ENUMERATION) ? List.of(ENUMERATION) : List.of();
    }

    /** {@code VkInstanceCreateInfo.flags} for an instance enabling {@code enabled}: the flag only with the extension (it is invalid without). */
    static int instanceFlags(List<String> enabled) {
        return enabled.contains(ENUMERATION) ? VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR : 0;
    }

    /** The device extensions to enable, given what the device {@code lists}. */
    static List<String> deviceExtensions(List<String> lists) {
        return lists.contains(SUBSET) ? List.of(SUBSET) : List.of();
    }
}
