package dev.jburn.vulkan;

import dev.jburn.JBurnException;

import static org.lwjgl.vulkan.VK10.*;

/** Maps Vulkan result codes to {@link JBurnException}s that name the JBurn op and the Vulkan call. */
final class VulkanErrors {
    private VulkanErrors() {}

    /** Throws unless {@code result} is {@code VK_SUCCESS}. */
    static void check(int result, String op, String call) {
        if (result != VK_SUCCESS) throw error(result, op, call, "");
    }

    /** The exception for a failed call; {@code detail} adds sizes or names. */
    static JBurnException error(int result, String op, String call, String detail) {
        String what = switch (result) {
            case VK_ERROR_OUT_OF_DEVICE_MEMORY -> "out of device memory";
            case VK_ERROR_OUT_OF_HOST_MEMORY -> "out of host memory";
            case VK_ERROR_DEVICE_LOST -> "Vulkan device lost (a kernel faulted or the driver reset the GPU)";
            case VK_ERROR_INITIALIZATION_FAILED -> "Vulkan initialization failed";
            case VK_ERROR_INCOMPATIBLE_DRIVER -> "incompatible Vulkan driver";
            case VK_ERROR_FEATURE_NOT_PRESENT -> "a requested device feature is not present";
            case VK_ERROR_EXTENSION_NOT_PRESENT -> "a requested extension is not present";
            case VK_ERROR_TOO_MANY_OBJECTS -> "too many Vulkan objects";
            case VK_TIMEOUT -> "timed out waiting for the GPU";
            default -> "Vulkan error " + result;
        };
        return new JBurnException(op, what + " in " + call + (detail.isEmpty() ? "" : ": " + detail));
    }
}
