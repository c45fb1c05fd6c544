package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The opt-in diagnostics: {@link LatencyProbe} counts each timed, waited-for submission with latencies on the host's
 * clock (lavapipe lists calibrated timestamps, so CI runs it), counts nothing when off, and {@link PipelineStatistics}
 * answers an empty list on a device opened without it.
 */
class LatencyProbeTest {
    @Test
    void aProbedEngineCountsEachWaitedForSubmission() {
        TestDevice.require();
        System.setProperty("jburn.vulkan.latencyProbe", "true");
        Engine e;
        try {
            e = VulkanHostPathTest.privateEngine(c -> c);
        } finally {
            System.clearProperty("jburn.vulkan.latencyProbe");
        }
        VulkanBackend b = (VulkanBackend) e.backend();
        try {
            LatencyProbe probe = b.queue.latency;
            assumeTrue(probe.enabled(), "the device lists no calibrated timestamps");
            try (Tensor x = Tensor.of(1f, 2f, 3f, 4f).to(e)) {
                b.measureDeviceTime(true);
                for (int i = 0; i < 5; i++) {
                    x.add(x).close();
                    b.synchronize();
                }
                b.measureDeviceTime(false);
            }
            LatencyProbe.Totals counted = probe.totals();
            long n = counted.submissions();
            assertTrue(n >= 5, "submissions counted: " + n);
            double launch = counted.launchMicros(), completion = counted.completionMicros();
            // Calibration error may make a latency slightly negative; a wrong clock domain or unit would be far off.
            assertTrue(launch > -1_000 && launch < 1_000_000, "launch " + launch + " us");
            assertTrue(completion > -1_000 && completion < 1_000_000, "completion " + completion + " us");
            assertTrue(PipelineStatistics.of(b.dev, 0).isEmpty() || b.dev.pipelineStatistics, "statistics only when asked for");
        } finally {
            b.close();
        }
    }

    @Test
    void theSharedEngineProbesNothing() {
        VulkanBackend b = (VulkanBackend) TestDevice.engine().backend();
        assertFalse(b.queue.latency.enabled(), "off unless -Djburn.vulkan.latencyProbe=true");
        long before = b.queue.latency.totals().submissions();
        try (Tensor x = Tensor.of(1f, 2f).to(TestDevice.engine())) {
            b.measureDeviceTime(true);
            x.add(x).close();
            b.synchronize();
            b.measureDeviceTime(false);
        }
        assertEquals(before, b.queue.latency.totals().submissions());
        assertFalse(b.dev.pipelineStatistics);
        assertTrue(PipelineStatistics.of(b.dev, 0).isEmpty());
    }
}
