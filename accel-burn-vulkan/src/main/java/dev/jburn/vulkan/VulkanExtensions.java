package dev.jburn.vulkan;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkPhysicalDevice;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.vulkan.VK10.VK_SUCCESS;
import static org.lwjgl.vulkan.VK10.vkEnumerateDeviceExtensionProperties;
import static org.lwjgl.vulkan.VK10.vkEnumerateInstanceExtensionProperties;

/**
 * The extension names the loader and a device list, and the string arrays {@code ppEnabledExtensionNames}
 * wants. A failed enumeration reads as "none listed": an optional extension is then left off, never fatal. The lists
 * are read into heap memory, not LWJGL's 64 KB thread stack: NVIDIA's driver lists ~200 device extensions (~52 KB),
 * and a caller may already hold part of the stack (on the H200 that overflowed it: "Out of stack space").
 */
final class VulkanExtensions {
    private VulkanExtensions() {}

    /** The instance extensions the loader (and its implicit layers and drivers) lists. */
    static List<String> instance() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            if (vkEnumerateInstanceExtensionProperties((String) null, n, null) != VK_SUCCESS) return List.of();
            VkExtensionProperties.Buffer props = VkExtensionProperties.malloc(n.get(0));
            try {
                if (vkEnumerateInstanceExtensionProperties((String) null, n, props) != VK_SUCCESS) return List.of();
                return names(props, n.get(0));
            } finally {
                props.free();
            }
        }
    }

    /** The device extensions {@code pd} lists. */
    static List<String> device(VkPhysicalDevice pd) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            if (vkEnumerateDeviceExtensionProperties(pd, (String) null, n, null) != VK_SUCCESS) return List.of();
            VkExtensionProperties.Buffer props = VkExtensionProperties.malloc(n.get(0));
            try {
                if (vkEnumerateDeviceExtensionProperties(pd, (String) null, n, props) != VK_SUCCESS) return List.of();
                return names(props, n.get(0));
            } finally {
                props.free();
            }
        }
    }

    private static List<String> names(VkExtensionProperties.Buffer props, int n) {
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) names.add(props.get(i).extensionNameString());
        return List.copyOf(names);
    }

    /** {@code names} as the null-terminated strings {@code ppEnabledExtensionNames} wants, or {@code null} for none. */
    static PointerBuffer pointers(List<String> names, MemoryStack stack) {
        if (names.isEmpty()) return null;
        PointerBuffer p = stack.mallocPointer(names.size());
        for (String n : names) p.put(stack.UTF8(n));
        return p.flip();
    }
}
