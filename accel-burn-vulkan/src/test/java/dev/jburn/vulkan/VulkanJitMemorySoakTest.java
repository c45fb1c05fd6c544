package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.conformance.JitMemorySoak;
import dev.jburn.graph.TensorType;
import dev.jburn.spi.HostMemory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compiled functions on the Vulkan engine free what they make ({@link JitMemorySoak}, a few
 * seconds): after every round the engine's live device bytes, VMA's bytes in use (cached buffers
 * aside: this covers staging buffers and anything else made through VMA), the host budget's live
 * bytes (what runs on the cpu as a fallback) and the numbers of pipelines built and live are back at their start,
 * with no collection needed. Skipped without a Vulkan device.
 */
class VulkanJitMemorySoakTest {
    /** Bytes a round may add while its results are alive (measured on lavapipe: a few tens of KiB). */
    static final long BOUND = 1L << 20;

    @Test
    void compiledFunctionsAndTheirResultsFreeEverythingTheyMadeOnTheDevice() {
        Engine vk = TestDevice.engine();
        VulkanBackend b = (VulkanBackend) vk.backend();
        Map<String, LongSupplier> counters = new LinkedHashMap<>();
        counters.put("device bytes", () -> b.stats().liveBytes());
        counters.put("vma bytes in use", () -> {
            MemoryStats m = b.memoryStats(); // waits for the queue: buffers released meanwhile are cached by then
            return m.allocationBytes() - m.cachedBytes();
        });
        counters.put("host bytes", HostMemory::live);
        counters.put("pipelines built", () -> b.stats().pipelinesCreated());
        counters.put("live pipelines", () -> b.stats().livePipelines());
        // Two signatures, not the kit's six: lavapipe compiles each new shape-specific shader in about half a second.
        List<TensorType> signatures = List.of(new TensorType(DType.F32, Shape.of(16, 24)), new TensorType(DType.F64, Shape.of(3, 5, 8)));
        JitMemorySoak.Report r = JitMemorySoak.run(vk, signatures, counters, Duration.ofSeconds(4), BOUND, 400);
        System.out.println("vulkan jit soak: " + r);
        assertTrue(r.compilations() >= (long) r.rounds() * JitMemorySoak.FUNCTIONS_PER_ROUND, r::toString);
    }
}
