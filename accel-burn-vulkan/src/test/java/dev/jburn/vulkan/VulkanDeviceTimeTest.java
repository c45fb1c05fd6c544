package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Device time is summed only while asked for, and only from GPU timestamps. */
class VulkanDeviceTimeTest {
    private static VulkanBackend b;
    private static Engine vk;

    @BeforeAll
    static void requireDevice() {
        vk = TestDevice.engine();
        b = (VulkanBackend) vk.backend();
    }

    @Test
    void submissionsAreTimedOnlyWhileMeasuring() {
        assumeTrue(b.dev.timestamps, "the compute queue writes no timestamps");
        try (Tensor x = Tensor.of(new float[1 << 16]).to(vk)) {
            b.synchronize();
            long before = b.stats().deviceNanos();
            x.add(x).close();
            b.synchronize();
            assertEquals(before, b.stats().deviceNanos(), "off by default");
            b.measureDeviceTime(true);
            try {
                x.add(x).close();
                b.synchronize(); // the time is read when the submission has finished
            } finally {
                b.measureDeviceTime(false);
            }
            assertTrue(b.stats().deviceNanos() > before, "a dispatch takes some device time");
        }
    }

    /**
     * With {@code -Djburn.vulkan.dispatchTimes=true} each timed dispatch is charged by name, and a frame's charges add up to
     * its device time; without it nothing is charged.
     */
    @Test
    void dispatchTimesAddUpToTheDeviceTime() {
        assumeTrue(b.dev.timestamps, "the compute queue writes no timestamps");
        try (Tensor x = Tensor.of(new float[1 << 16]).to(vk)) {
            b.synchronize();
            java.util.Map<String, Long> names0 = b.dispatchTimes();
            long charged0 = names0.values().stream().mapToLong(Long::longValue).sum(), device0 = b.stats().deviceNanos();
            b.measureDeviceTime(true);
            try {
                for (int i = 0; i < 3; i++) x.add(x).multiply(x).close();
                b.synchronize();
            } finally {
                b.measureDeviceTime(false);
            }
            java.util.Map<String, Long> names = b.dispatchTimes();
            long charged = names.values().stream().mapToLong(Long::longValue).sum() - charged0, device = b.stats().deviceNanos() - device0;
            if (!CommandQueue.TIME_DISPATCHES) {
                assertEquals(names0, names, "nothing charged without -Djburn.vulkan.dispatchTimes=true");
                return;
            }
            assertTrue(names.keySet().stream().anyMatch(n -> n.startsWith("add x")) && names.keySet().stream().anyMatch(n -> n.startsWith("multiply x")),
                    names.toString());
            assertTrue(charged > 0 && charged <= device, "charged " + charged + " ns of " + device + " ns device time: " + names);
        }
    }
}
