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
}
