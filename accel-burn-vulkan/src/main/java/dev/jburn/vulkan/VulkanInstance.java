package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VK;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkQueueFamilyProperties;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.VK_API_VERSION_1_1;
import static org.lwjgl.vulkan.VK12.VK_API_VERSION_1_2;

/**
 * The Vulkan loader and one {@code VkInstance}, with the physical devices it sees. Opening it never
 * crashes the JVM: a missing loader (libvulkan.so.1) is a {@link JBurnException} with the reason.
 */
final class VulkanInstance implements AutoCloseable {
    final VkInstance instance;
    final int apiVersion;
    /** Whether the instance enumerates portability drivers (MoltenVK through the loader): {@link Portability}. */
    final boolean portabilityEnumeration;

    private VulkanInstance(VkInstance instance, int apiVersion, boolean portabilityEnumeration) {
        this.instance = instance;
        this.apiVersion = apiVersion;
        this.portabilityEnumeration = portabilityEnumeration;
    }

    /**
     * Loads libvulkan and creates an instance for Vulkan 1.2 (or what the loader supports, at least 1.1),
     * enumerating portability drivers where the loader offers that ({@link Portability}).
     */
    static VulkanInstance open() {
        try {
            VK.getFunctionProvider(); // VK's static initializer loads libvulkan
        } catch (Throwable t) {
            throw new JBurnException("vulkan", "no Vulkan loader (" + loaderName() + "): " + rootMessage(t));
        }
        int loaderVersion = VK.getInstanceVersionSupported();
        if (loaderVersion < VK_API_VERSION_1_1) {
            throw new JBurnException("vulkan", "the Vulkan loader supports only Vulkan " + VulkanInstance.version(loaderVersion) + "; 1.2 is needed");
        }
        int api = Math.min(loaderVersion, VK_API_VERSION_1_2);
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkApplicationInfo app = VkApplicationInfo.calloc(stack).sType$Default()
                    .pApplicationName(stack.UTF8("jburn")).pEngineName(stack.UTF8("jburn")).apiVersion(api);
            List<String> extensions = Portability.instanceExtensions(VulkanExtensions.instance());
            VkInstanceCreateInfo ci = VkInstanceCreateInfo.calloc(stack).sType$Default().pApplicationInfo(app)
                    .flags(Portability.instanceFlags(extensions)).ppEnabledExtensionNames(VulkanExtensions.pointers(extensions, stack));
            PointerBuffer p = stack.mallocPointer(1);
            int result = vkCreateInstance(ci, null, p);
            if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
                throw new JBurnException("vulkan", VulkanDrivers.incompatibleDriverReason(VulkanInstance.version(api)));
            }
            VulkanErrors.check(result, "vulkan", "vkCreateInstance");
            return new VulkanInstance(new VkInstance(p.get(0), ci), api, extensions.contains(Portability.ENUMERATION));
        }
    }

    /** The library LWJGL loads: MoltenVK (bundled in LWJGL's macOS natives) or the SDK's loader on macOS, the loader elsewhere. */
    static String loaderName() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac")
                ? "libMoltenVK.dylib or libvulkan.1.dylib" : "libvulkan.so.1";
    }

    /** Every physical device, in the loader's order. */
    List<VkPhysicalDevice> physicalDevices() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            VulkanErrors.check(vkEnumeratePhysicalDevices(instance, n, null), "vulkan", "vkEnumeratePhysicalDevices");
            PointerBuffer p = stack.mallocPointer(n.get(0));
            VulkanErrors.check(vkEnumeratePhysicalDevices(instance, n, p), "vulkan", "vkEnumeratePhysicalDevices");
            List<VkPhysicalDevice> out = new ArrayList<>();
            for (int i = 0; i < n.get(0); i++) out.add(new VkPhysicalDevice(p.get(i), instance));
            return out;
        }
    }

    /** The device-choice view of every physical device. */
    List<DeviceChoice.Candidate> candidates() {
        List<VkPhysicalDevice> devs = physicalDevices();
        List<DeviceChoice.Candidate> out = new ArrayList<>();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPhysicalDeviceProperties props = VkPhysicalDeviceProperties.calloc(stack);
            for (int i = 0; i < devs.size(); i++) {
                vkGetPhysicalDeviceProperties(devs.get(i), props);
                DeviceChoice.Kind kind = switch (props.deviceType()) {
                    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> DeviceChoice.Kind.DISCRETE;
                    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> DeviceChoice.Kind.INTEGRATED;
                    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> DeviceChoice.Kind.VIRTUAL;
                    case VK_PHYSICAL_DEVICE_TYPE_CPU -> DeviceChoice.Kind.CPU;
                    default -> DeviceChoice.Kind.OTHER;
                };
                out.add(new DeviceChoice.Candidate(i, props.deviceNameString(), kind,
                        computeQueueFamily(devs.get(i)) >= 0, props.apiVersion() >= VK_API_VERSION_1_2 && apiVersion >= VK_API_VERSION_1_2));
            }
        }
        return out;
    }

    /** A queue family with compute, preferring one without graphics (a dedicated compute queue); -1 if none. */
    static int computeQueueFamily(VkPhysicalDevice d) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            vkGetPhysicalDeviceQueueFamilyProperties(d, n, null);
            VkQueueFamilyProperties.Buffer q = VkQueueFamilyProperties.calloc(n.get(0), stack);
            vkGetPhysicalDeviceQueueFamilyProperties(d, n, q);
            int any = -1;
            for (int i = 0; i < q.capacity(); i++) {
                int flags = q.get(i).queueFlags();
                if ((flags & VK_QUEUE_COMPUTE_BIT) == 0 || q.get(i).queueCount() == 0) continue;
                if ((flags & VK_QUEUE_GRAPHICS_BIT) == 0) return i;
                if (any < 0) any = i;
            }
            return any;
        }
    }

    /** The innermost message: class-initialization errors wrap the loader's real complaint. */
    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) c = c.getCause();
        return c.getMessage() != null ? c.getMessage() : c.toString();
    }

    static String version(int v) {
        return VK_VERSION_MAJOR(v) + "." + VK_VERSION_MINOR(v) + "." + VK_VERSION_PATCH(v);
    }

    @Override
    public void close() {
        vkDestroyInstance(instance, null);
    }
}
