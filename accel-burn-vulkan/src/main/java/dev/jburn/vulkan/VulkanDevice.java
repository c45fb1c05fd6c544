package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocatorCreateInfo;
import org.lwjgl.util.vma.VmaBudget;
import org.lwjgl.util.vma.VmaTotalStatistics;
import org.lwjgl.util.vma.VmaVulkanFunctions;
import org.lwjgl.vulkan.VK12;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkDeviceQueueCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDevice16BitStorageFeatures;
import org.lwjgl.vulkan.VkPhysicalDevice8BitStorageFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDeviceTimelineSemaphoreFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceFloatControlsProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceMaintenance3Properties;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties2;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderFloat16Int8Features;
import org.lwjgl.vulkan.VkQueue;

import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceFeatures2;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceProperties2;

/**
 * One logical Vulkan device: the chosen physical device with the optional features it has
 * enabled, one compute queue, and the VMA allocator all device memory comes from. Created once per
 * engine; {@link #close()} destroys everything in reverse order.
 */
final class VulkanDevice implements AutoCloseable {
    final VulkanInstance vk;
    final VkPhysicalDevice physical;
    final VkDevice device;
    final VkQueue queue;
    final int queueFamily;
    final long allocator;
    final VulkanFeatures features;
    /** {@code VK_KHR_cooperative_matrix}: enabled or not, and the configurations the driver lists. */
    final CoopMatrixSupport coopMatrix;
    /** Whether the device is a portability implementation (MoltenVK), with {@code VK_KHR_portability_subset} enabled. */
    final boolean portabilitySubset;
    final String name;
    final int deviceType;
    final int vendorId;
    final int deviceId;
    final int driverVersion;
    /** Nanoseconds per timestamp tick, and whether the compute queue writes timestamps at all. */
    final float timestampPeriod;
    final boolean timestamps;
    /** {@code maxComputeSharedMemorySize}: kernels that stage more in shared memory decline on this device (Vulkan promises 16 KB). */
    final int maxSharedBytes;
    /** The most buffers a pipeline may bind through push descriptors; 0 when the extension is off ({@link PushDescriptors}). */
    final int maxPushDescriptors;
    /** Whether timeline semaphores are enabled (Vulkan 1.2 and the driver has them): {@link CommandQueue} may wait on one. */
    final boolean timelineSemaphores;
    /** Whether pipelines keep the driver's statistics of their compiled code ({@link PipelineStatistics}, opt-in). */
    final boolean pipelineStatistics;
    /** The calibrated-timestamps extension enabled for {@link LatencyProbe} (opt-in), or null. */
    final String calibratedTimestamps;

    private VulkanDevice(VulkanInstance vk, VkPhysicalDevice physical, VkDevice device, VkQueue queue, int queueFamily,
                         long allocator, VulkanFeatures features, CoopMatrixSupport coopMatrix, boolean portabilitySubset,
                         VkPhysicalDeviceProperties props, int maxPushDescriptors, boolean timelineSemaphores,
                         boolean pipelineStatistics, String calibratedTimestamps) {
        this.vk = vk;
        this.physical = physical;
        this.device = device;
        this.queue = queue;
        this.queueFamily = queueFamily;
        this.allocator = allocator;
        this.features = features;
        this.coopMatrix = coopMatrix;
        this.portabilitySubset = portabilitySubset;
        this.name = props.deviceNameString();
        this.deviceType = props.deviceType();
        this.vendorId = props.vendorID();
        this.deviceId = props.deviceID();
        this.driverVersion = props.driverVersion();
        this.timestampPeriod = props.limits().timestampPeriod();
        this.maxSharedBytes = props.limits().maxComputeSharedMemorySize();
        this.timestamps = props.limits().timestampComputeAndGraphics() || timestampBits(physical, queueFamily) > 0;
        this.maxPushDescriptors = maxPushDescriptors;
        this.timelineSemaphores = timelineSemaphores;
        this.pipelineStatistics = pipelineStatistics;
        this.calibratedTimestamps = calibratedTimestamps;
    }

    private static int timestampBits(VkPhysicalDevice d, int family) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            java.nio.IntBuffer n = stack.mallocInt(1);
            vkGetPhysicalDeviceQueueFamilyProperties(d, n, null);
            org.lwjgl.vulkan.VkQueueFamilyProperties.Buffer q = org.lwjgl.vulkan.VkQueueFamilyProperties.calloc(n.get(0), stack);
            vkGetPhysicalDeviceQueueFamilyProperties(d, n, q);
            return q.get(family).timestampValidBits();
        }
    }

    /** Opens the device the configuration selects; a {@link JBurnException} with the reason when there is none. */
    static VulkanDevice open(VulkanConfig config) {
        // Loaded now: close() may run in a shutdown hook, when a test runner's class loader is already closed.
        DriverThreads.count();
        VulkanInstance vk = VulkanInstance.open();
        try {
            DeviceChoice.Result choice = DeviceChoice.choose(vk.candidates(), config.device());
            if (choice.device().isEmpty()) throw new JBurnException("vulkan", choice.reason());
            VkPhysicalDevice pd = vk.physicalDevices().get(choice.device().get().index());
            return create(vk, pd, config.coopMatrix(), config.pushDescriptors());
        } catch (RuntimeException e) {
            vk.close();
            throw e;
        }
    }

    /** The smallest of the limits on storage buffers per pipeline (unsigned in Vulkan: a huge value reads as negative). */
    static int storageBufferLimit(int perStage, int perSet, int perStageResources) {
        long limit = Math.min(Integer.toUnsignedLong(perStage), Math.min(Integer.toUnsignedLong(perSet), Integer.toUnsignedLong(perStageResources)));
        return (int) Math.min(limit, Integer.MAX_VALUE);
    }

    private static VulkanDevice create(VulkanInstance vk, VkPhysicalDevice pd, boolean coopMatrixWanted, boolean pushDescriptorsWanted) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPhysicalDevice16BitStorageFeatures q16 = VkPhysicalDevice16BitStorageFeatures.calloc(stack).sType$Default();
            VkPhysicalDevice8BitStorageFeatures q8 = VkPhysicalDevice8BitStorageFeatures.calloc(stack).sType$Default();
            VkPhysicalDeviceShaderFloat16Int8Features qf16 = VkPhysicalDeviceShaderFloat16Int8Features.calloc(stack).sType$Default();
            VkPhysicalDeviceFeatures2 query = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(q16).pNext(q8).pNext(qf16);
            // Timeline semaphores are core in 1.2; their feature struct is chained only where both sides speak 1.2.
            VkPhysicalDeviceProperties basic = VkPhysicalDeviceProperties.calloc(stack);
            vkGetPhysicalDeviceProperties(pd, basic);
            boolean v12 = vk.apiVersion >= VK12.VK_API_VERSION_1_2 && basic.apiVersion() >= VK12.VK_API_VERSION_1_2;
            VkPhysicalDeviceTimelineSemaphoreFeatures qtl = VkPhysicalDeviceTimelineSemaphoreFeatures.calloc(stack).sType$Default();
            if (v12) query.pNext(qtl);
            vkGetPhysicalDeviceFeatures2(pd, query);
            boolean timeline = v12 && qtl.timelineSemaphore();
            VkPhysicalDeviceMaintenance3Properties m3 = VkPhysicalDeviceMaintenance3Properties.calloc(stack).sType$Default();
            VkPhysicalDeviceFloatControlsProperties fc = VkPhysicalDeviceFloatControlsProperties.calloc(stack).sType$Default();
            VkPhysicalDeviceProperties2 props2 = VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(m3).pNext(fc);
            vkGetPhysicalDeviceProperties2(pd, props2);
            VkPhysicalDeviceProperties props = props2.properties();
            VkPhysicalDeviceMemoryProperties mp = VkPhysicalDeviceMemoryProperties.calloc(stack);
            vkGetPhysicalDeviceMemoryProperties(pd, mp);
            long largestHeap = 0;
            for (int h = 0; h < mp.memoryHeapCount(); h++) largestHeap = Math.max(largestHeap, mp.memoryHeaps(h).size());
            VulkanFeatures f = new VulkanFeatures(
                    query.features().shaderFloat64(), query.features().shaderInt64(), query.features().shaderInt16(),
                    qf16.shaderFloat16(), qf16.shaderInt8(), q8.storageBuffer8BitAccess(), q16.storageBuffer16BitAccess(),
                    Integer.toUnsignedLong(props.limits().maxStorageBufferRange()),
                    storageBufferLimit(props.limits().maxPerStageDescriptorStorageBuffers(), props.limits().maxDescriptorSetStorageBuffers(),
                            props.limits().maxPerStageResources()),
                    props.limits().maxComputeWorkGroupCount(0), props.limits().maxComputeWorkGroupCount(2),
                    props.limits().minStorageBufferOffsetAlignment(),
                    Math.min(m3.maxMemoryAllocationSize(), largestHeap),
                    fc.shaderDenormPreserveFloat32(), fc.shaderDenormPreserveFloat64(), fc.shaderSignedZeroInfNanPreserveFloat32());

            // Enable exactly what is present.
            VkPhysicalDevice16BitStorageFeatures e16 = VkPhysicalDevice16BitStorageFeatures.calloc(stack).sType$Default()
                    .storageBuffer16BitAccess(f.storage16());
            VkPhysicalDevice8BitStorageFeatures e8 = VkPhysicalDevice8BitStorageFeatures.calloc(stack).sType$Default()
                    .storageBuffer8BitAccess(f.storage8());
            VkPhysicalDeviceShaderFloat16Int8Features ef16 = VkPhysicalDeviceShaderFloat16Int8Features.calloc(stack).sType$Default()
                    .shaderFloat16(f.float16()).shaderInt8(f.int8());
            VkPhysicalDeviceFeatures2 enable = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(e16).pNext(e8).pNext(ef16);
            enable.features().shaderFloat64(f.float64()).shaderInt64(f.int64()).shaderInt16(f.int16());
            // f16 matrices also need the f16 type and 16-bit buffers; without them the GEMM never picks coopmat, so leave it off.
            CoopMatrixSupport coop = f.float16() && f.storage16() ? CoopMatrixQuery.query(pd, coopMatrixWanted) : CoopMatrixSupport.NONE;
            CoopMatrixQuery.enable(enable, coop, stack);
            if (timeline) enable.pNext(VkPhysicalDeviceTimelineSemaphoreFeatures.calloc(stack).sType$Default().timelineSemaphore(true));

            int family = VulkanInstance.computeQueueFamily(pd);
            VkDeviceQueueCreateInfo.Buffer qci = VkDeviceQueueCreateInfo.calloc(1, stack).sType$Default()
                    .queueFamilyIndex(family).pQueuePriorities(stack.floats(1f));
            List<String> extensions = new ArrayList<>(CoopMatrixQuery.extensionNames(coop));
            List<String> listed = VulkanExtensions.device(pd);
            extensions.addAll(Portability.deviceExtensions(listed));
            int maxPush = PushDescriptors.maxBindings(pd, listed, pushDescriptorsWanted);
            if (maxPush > 0) extensions.add(PushDescriptors.EXTENSION);
            boolean statistics = PipelineStatistics.wanted() && listed.contains(PipelineStatistics.EXTENSION);
            if (statistics) {
                extensions.add(PipelineStatistics.EXTENSION);
                enable.pNext(PipelineStatistics.feature(stack));
            }
            String calibrated = LatencyProbe.choose(listed);
            if (calibrated != null) extensions.add(calibrated);
            VkDeviceCreateInfo dci = VkDeviceCreateInfo.calloc(stack).sType$Default().pQueueCreateInfos(qci)
                    .ppEnabledExtensionNames(VulkanExtensions.pointers(extensions, stack));
            dci.pNext(enable.address());
            PointerBuffer p = stack.mallocPointer(1);
            VulkanErrors.check(vkCreateDevice(pd, dci, null, p), "vulkan", "vkCreateDevice");
            VkDevice device = new VkDevice(p.get(0), pd, dci, vk.apiVersion);
            vkGetDeviceQueue(device, family, 0, p);
            VkQueue queue = new VkQueue(p.get(0), device);

            VmaVulkanFunctions fns = VmaVulkanFunctions.calloc(stack).set(vk.instance, device);
            VmaAllocatorCreateInfo aci = VmaAllocatorCreateInfo.calloc(stack)
                    .physicalDevice(pd).device(device).instance(vk.instance).pVulkanFunctions(fns).vulkanApiVersion(vk.apiVersion);
            int r = vmaCreateAllocator(aci, p);
            if (r != VK_SUCCESS) {
                vkDestroyDevice(device, null);
                throw VulkanErrors.error(r, "vulkan", "vmaCreateAllocator", "");
            }
            return new VulkanDevice(vk, pd, device, queue, family, p.get(0), f, coop, extensions.contains(Portability.SUBSET), props, maxPush, timeline, statistics, calibrated);
        }
    }

    /** Whether this is a CPU implementation (lavapipe, SwiftShader). */
    boolean isCpu() { return deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }

    /** Device-local heap bytes still free according to VMA's budget (for out-of-memory messages). */
    long freeDeviceBytes() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPhysicalDeviceMemoryProperties mp = VkPhysicalDeviceMemoryProperties.calloc(stack);
            vkGetPhysicalDeviceMemoryProperties(physical, mp);
            VmaBudget.Buffer budgets = VmaBudget.calloc(VK_MAX_MEMORY_HEAPS, stack);
            vmaGetHeapBudgets(allocator, budgets);
            long free = 0;
            for (int h = 0; h < mp.memoryHeapCount(); h++) {
                if ((mp.memoryHeaps(h).flags() & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) == 0) continue;
                free += Math.max(0, budgets.get(h).budget() - budgets.get(h).usage());
            }
            return free;
        }
    }

    /** VMA's totals: live allocations and their bytes, and the device memory blocks behind them. */
    MemoryStats memoryStats(long cachedBytes, long cacheReuses) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VmaTotalStatistics s = VmaTotalStatistics.calloc(stack);
            vmaCalculateStatistics(allocator, s);
            var t = s.total().statistics();
            return new MemoryStats(t.allocationCount(), t.allocationBytes(), t.blockCount(), t.blockBytes(), cachedBytes, cacheReuses);
        }
    }

    /** A line describing the device, for availability and logs. */
    String describe() {
        String type = switch (deviceType) {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> "discrete GPU";
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> "integrated GPU";
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> "virtual GPU";
            case VK_PHYSICAL_DEVICE_TYPE_CPU -> "CPU";
            default -> "device";
        };
        return name + " (" + type + ", Vulkan" + (portabilitySubset ? " portability subset (never tested on a Mac)" : "") + ", features: " + features.describe() + ")";
    }

    @Override
    public void close() {
        int threads = DriverThreads.count();
        vkDeviceWaitIdle(device);
        vmaDestroyAllocator(allocator);
        vkDestroyDevice(device, null);
        vk.close();
        // Only GPU drivers were seen to need it; a CPU driver (lavapipe) has no threads left once the destroy calls return.
        if (!isCpu()) DriverThreads.awaitSettled(threads);
    }

    /** Lists device names without opening a device (for diagnostics). */
    static List<String> deviceNames() {
        try (VulkanInstance vk = VulkanInstance.open()) {
            return vk.candidates().stream().map(DeviceChoice.Candidate::name).toList();
        }
    }
}
