package dev.jburn.vulkan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.lwjgl.vulkan.KHRPortabilityEnumeration.VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;

/**
 * The MoltenVK path ({@link Portability}): the portability extensions enabled exactly when listed, the
 * instance flag only with its extension; and on this machine's driver (lavapipe in CI) the engine runs
 * with whatever the loader lists enabled. No Mac has run it: LWJGL's macOS natives would load MoltenVK there.
 */
class PortabilityTest {
    @Test
    void aLoaderThatListsPortabilityEnumerationGetsItWithItsFlag() {
        List<String> ext = Portability.instanceExtensions(List.of("VK_KHR_surface", "VK_KHR_portability_enumeration", "VK_EXT_debug_utils"));
        assertEquals(List.of("VK_KHR_portability_enumeration"), ext);
        assertEquals(VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR, Portability.instanceFlags(ext));
        assertEquals(1, VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR, "the bit the Vulkan headers define");
    }

    @Test
    void moltenVkLoadedDirectlyListsNoEnumerationAndGetsNoFlag() {
        List<String> ext = Portability.instanceExtensions(List.of("VK_KHR_surface", "VK_EXT_metal_surface"));
        assertEquals(List.of(), ext);
        assertEquals(0, Portability.instanceFlags(ext), "the flag without its extension is invalid");
    }

    @Test
    void aDeviceListingThePortabilitySubsetMustHaveItEnabled() {
        assertEquals(List.of("VK_KHR_portability_subset"), Portability.deviceExtensions(List.of("VK_KHR_16bit_storage", "VK_KHR_portability_subset")));
        assertEquals(List.of(), Portability.deviceExtensions(List.of("VK_KHR_16bit_storage", "VK_KHR_cooperative_matrix")));
    }

    /** The engine on this machine's device: the instance enables enumeration exactly when the loader lists it, the device the subset when it lists it. */
    @Test
    void theEngineHereEnablesWhatItsLoaderAndDeviceList() {
        VulkanBackend b = (VulkanBackend) TestDevice.engine().backend();
        boolean listed = VulkanExtensions.instance().contains(Portability.ENUMERATION);
        assertEquals(listed, b.dev.vk.portabilityEnumeration);
        assertEquals(VulkanExtensions.device(b.dev.physical).contains(Portability.SUBSET), b.dev.portabilitySubset);
        System.out.println("Vulkan here: the loader " + (listed ? "lists" : "does not list") + " " + Portability.ENUMERATION
                + "; " + b.dev.describe());
    }
}
