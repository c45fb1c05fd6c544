package dev.jburn.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties2;
import org.lwjgl.vulkan.VkPhysicalDevicePushDescriptorPropertiesKHR;

import java.util.List;

import static org.lwjgl.vulkan.KHRPushDescriptor.VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceProperties2;

/**
 * Whether dispatches bind their buffers with {@code VK_KHR_push_descriptor}: one {@code vkCmdPushDescriptorSetKHR}
 * recorded into the command buffer, instead of allocating a descriptor set from the frame's pool, writing it with
 * {@code vkUpdateDescriptorSets} and binding it (three calls, and the driver's bookkeeping of a set per dispatch).
 * NVIDIA's driver and lavapipe offer the extension; a device without it, or a pipeline binding more buffers than
 * the device pushes ({@code maxPushDescriptors}, 32 on both), keeps descriptor sets.
 */
final class PushDescriptors {
    private PushDescriptors() {}

    /** The extension to enable at device creation when {@link #maxBindings} is positive. */
    static final String EXTENSION = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;

    /**
     * The most buffers one push may bind on {@code pd}: its {@code maxPushDescriptors} when it lists the extension
     * and {@code wanted} ({@link VulkanConfig#pushDescriptors()}), else 0 (descriptor sets for every pipeline).
     */
    static int maxBindings(VkPhysicalDevice pd, List<String> deviceExtensions, boolean wanted) {
        if (!wanted || !deviceExtensions.contains(EXTENSION)) return 0;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPhysicalDevicePushDescriptorPropertiesKHR push = VkPhysicalDevicePushDescriptorPropertiesKHR.calloc(stack).sType$Default();
            vkGetPhysicalDeviceProperties2(pd, VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(push));
            return Math.max(0, push.maxPushDescriptors());
        }
    }
}
