package dev.jburn.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR;
import org.lwjgl.vulkan.VkPipelineExecutableInfoKHR;
import org.lwjgl.vulkan.VkPipelineExecutableInternalRepresentationKHR;
import org.lwjgl.vulkan.VkPipelineExecutablePropertiesKHR;
import org.lwjgl.vulkan.VkPipelineExecutableStatisticKHR;
import org.lwjgl.vulkan.VkPipelineInfoKHR;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.*;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;

/**
 * What the driver says it compiled a pipeline into ({@code VK_KHR_pipeline_executable_properties}): per executable its
 * statistics (on NVIDIA, by its name, registers and shared memory; on Mesa, instruction and spill counts) and, where the
 * driver gives them, its internal representations (intermediate or machine code as text). For tuning kernels on a
 * device one cannot profile here: a tiling that spills or drops to one work group per multiprocessor shows it in these
 * numbers. Off unless {@code -Djburn.vulkan.pipelineStatistics=true} and the device lists the extension, because it
 * asks the driver to keep this for every pipeline it builds.
 *
 * <pre>{@code
 * // java -Djburn.vulkan.pipelineStatistics=true ...
 * for (PipelineStatistics.Executable e : PipelineStatistics.of(dev, pipeline.pipeline())) System.out.println(e);
 * }</pre>
 */
final class PipelineStatistics {
    private PipelineStatistics() {}

    static final String EXTENSION = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;

    /** Whether the user asked for statistics ({@code -Djburn.vulkan.pipelineStatistics=true}). */
    static boolean wanted() { return Boolean.getBoolean("jburn.vulkan.pipelineStatistics"); }

    /** One executable (a shader stage's compiled form) of a pipeline: its name, its statistics, its representations' names and texts. */
    record Executable(String name, String description, Map<String, String> statistics, Map<String, String> representations) {
        @Override
        public String toString() {
            return name + " (" + description + "): " + statistics + (representations.isEmpty() ? "" : ", representations " + representations.keySet());
        }
    }

    /** The feature struct that turns the extension on, to chain into device creation. */
    static VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR feature(MemoryStack stack) {
        return VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR.calloc(stack).sType$Default().pipelineExecutableInfo(true);
    }

    /** The pipeline creation flags that ask the driver to keep statistics and representations. */
    static int createFlags() {
        return VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR | VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;
    }

    /** The executables of {@code pipeline}; empty when the device was opened without the extension or the driver fails a query. */
    static List<Executable> of(VulkanDevice dev, long pipeline) {
        if (!dev.pipelineStatistics) return List.of();
        List<Executable> out = new ArrayList<>();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPipelineInfoKHR info = VkPipelineInfoKHR.calloc(stack).sType$Default().pipeline(pipeline);
            IntBuffer n = stack.mallocInt(1);
            if (vkGetPipelineExecutablePropertiesKHR(dev.device, info, n, null) != VK_SUCCESS) return List.of();
            VkPipelineExecutablePropertiesKHR.Buffer props = VkPipelineExecutablePropertiesKHR.calloc(n.get(0), stack);
            for (int i = 0; i < n.get(0); i++) props.get(i).sType$Default();
            if (vkGetPipelineExecutablePropertiesKHR(dev.device, info, n, props) != VK_SUCCESS) return List.of();
            for (int i = 0; i < n.get(0); i++) {
                VkPipelineExecutableInfoKHR ei = VkPipelineExecutableInfoKHR.calloc(stack).sType$Default().pipeline(pipeline).executableIndex(i);
                out.add(new Executable(props.get(i).nameString(), props.get(i).descriptionString(), statistics(dev, ei), representations(dev, ei)));
            }
        }
        return out;
    }

    private static Map<String, String> statistics(VulkanDevice dev, VkPipelineExecutableInfoKHR ei) {
        Map<String, String> out = new LinkedHashMap<>();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            if (vkGetPipelineExecutableStatisticsKHR(dev.device, ei, n, null) != VK_SUCCESS) return out;
            VkPipelineExecutableStatisticKHR.Buffer s = VkPipelineExecutableStatisticKHR.malloc(n.get(0));
            try {
                for (int i = 0; i < n.get(0); i++) s.get(i).sType$Default().pNext(0);
                if (vkGetPipelineExecutableStatisticsKHR(dev.device, ei, n, s) != VK_SUCCESS) return out;
                for (int i = 0; i < n.get(0); i++) {
                    VkPipelineExecutableStatisticKHR st = s.get(i);
                    String v = switch (st.format()) {
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR -> Boolean.toString(st.value().b32());
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR -> Long.toString(st.value().i64());
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR -> Long.toUnsignedString(st.value().u64());
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR -> Double.toString(st.value().f64());
                        default -> "?";
                    };
                    out.put(st.nameString(), v);
                }
            } finally {
                s.free();
            }
        }
        return out;
    }

    /** Text representations by name (binary ones by their byte count); texts are cut at 4 MiB. */
    private static Map<String, String> representations(VulkanDevice dev, VkPipelineExecutableInfoKHR ei) {
        Map<String, String> out = new LinkedHashMap<>();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            if (vkGetPipelineExecutableInternalRepresentationsKHR(dev.device, ei, n, null) != VK_SUCCESS || n.get(0) == 0) return out;
            VkPipelineExecutableInternalRepresentationKHR.Buffer r = VkPipelineExecutableInternalRepresentationKHR.calloc(n.get(0));
            List<ByteBuffer> data = new ArrayList<>();
            try {
                for (int i = 0; i < n.get(0); i++) r.get(i).sType$Default();
                // First call: sizes; second: the data into buffers of those sizes.
                if (vkGetPipelineExecutableInternalRepresentationsKHR(dev.device, ei, n, r) < 0) return out;
                for (int i = 0; i < n.get(0); i++) {
                    long size = Math.min(r.get(i).dataSize(), 4L << 20);
                    ByteBuffer b = MemoryUtil.memAlloc((int) Math.max(1, size));
                    data.add(b);
                    // A returned-only struct in LWJGL (no setters): write dataSize and pData at their offsets.
                    long at = r.get(i).address();
                    MemoryUtil.memPutAddress(at + VkPipelineExecutableInternalRepresentationKHR.DATASIZE, size);
                    MemoryUtil.memPutAddress(at + VkPipelineExecutableInternalRepresentationKHR.PDATA, MemoryUtil.memAddress(b));
                }
                if (vkGetPipelineExecutableInternalRepresentationsKHR(dev.device, ei, n, r) < 0) return out;
                for (int i = 0; i < n.get(0); i++) {
                    var rep = r.get(i);
                    int len = (int) rep.dataSize();
                    String text;
                    if (rep.isText()) {
                        byte[] bytes = new byte[len];
                        data.get(i).get(0, bytes);
                        int end = 0;
                        while (end < len && bytes[end] != 0) end++;
                        text = new String(bytes, 0, end, java.nio.charset.StandardCharsets.UTF_8);
                    } else {
                        text = "(binary, " + len + " bytes)";
                    }
                    out.put(rep.nameString(), text);
                }
            } finally {
                for (ByteBuffer b : data) MemoryUtil.memFree(b);
                r.free();
            }
        }
        return out;
    }
}
