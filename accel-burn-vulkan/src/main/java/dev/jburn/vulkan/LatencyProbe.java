package dev.jburn.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCalibratedTimestampInfoKHR;

import java.nio.LongBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.lwjgl.vulkan.KHRCalibratedTimestamps.VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;
import static org.lwjgl.vulkan.EXTCalibratedTimestamps.VK_TIME_DOMAIN_CLOCK_MONOTONIC_KHR;
import static org.lwjgl.vulkan.EXTCalibratedTimestamps.VK_TIME_DOMAIN_DEVICE_KHR;
import static org.lwjgl.vulkan.KHRCalibratedTimestamps.vkGetCalibratedTimestampsKHR;
import static org.lwjgl.vulkan.EXTCalibratedTimestamps.VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;
import static org.lwjgl.vulkan.EXTCalibratedTimestamps.vkGetCalibratedTimestampsEXT;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;

/**
 * Where the host time of a waited-for submission goes that the device does not spend running it: the launch latency
 * (from just before {@code vkQueueSubmit} to the submission's first timestamp on the device) and the completion
 * latency (from its last timestamp to the host returning from the wait), by relating device timestamps to
 * {@link System#nanoTime} ({@code CLOCK_MONOTONIC} on Linux) with calibrated timestamps
 * ({@code VK_KHR_calibrated_timestamps}, or the EXT). Only submissions timed by
 * {@link VulkanBackend#measureDeviceTime} count; a submission queued behind others counts its wait in the queue as
 * launch latency, so read it for calls waited for one at a time. Off unless {@code -Djburn.vulkan.latencyProbe=true}
 * and the device lists one of the extensions; a diagnostic for benchmarks, not a counter the engine relies on.
 */
final class LatencyProbe {
    /** The extension names, KHR first. */
    static final List<String> EXTENSIONS = List.of(VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);

    /** Whether the user asked for the probe ({@code -Djburn.vulkan.latencyProbe=true}). */
    static boolean wanted() { return Boolean.getBoolean("jburn.vulkan.latencyProbe"); }

    /** The extension to enable among those {@code listed}, or null. */
    static String choose(List<String> listed) {
        if (!wanted()) return null;
        for (String e : EXTENSIONS) if (listed.contains(e)) return e;
        return null;
    }

    private final VulkanDevice dev;
    private final boolean khr;
    final AtomicLong launchNanos = new AtomicLong();
    final AtomicLong completionNanos = new AtomicLong();
    final AtomicLong submissions = new AtomicLong();

    LatencyProbe(VulkanDevice dev) {
        this.dev = dev;
        this.khr = VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME.equals(dev.calibratedTimestamps);
    }

    /** The probe's counts at one moment; {@link #since} gives the averages of the submissions counted after an earlier mark. */
    record Totals(long launchNanos, long completionNanos, long submissions) {
        /** The submissions counted between {@code earlier} and this mark, with their total latencies. */
        Totals since(Totals earlier) {
            return new Totals(launchNanos - earlier.launchNanos, completionNanos - earlier.completionNanos, submissions - earlier.submissions);
        }

        /** Mean launch latency in µs (0 when none was counted). */
        double launchMicros() { return submissions == 0 ? 0 : launchNanos / 1e3 / submissions; }

        /** Mean completion latency in µs (0 when none was counted). */
        double completionMicros() { return submissions == 0 ? 0 : completionNanos / 1e3 / submissions; }
    }

    /** The counts now. */
    Totals totals() { return new Totals(launchNanos.get(), completionNanos.get(), submissions.get()); }

    /** Whether the device was opened with calibrated timestamps. */
    boolean enabled() { return dev.calibratedTimestamps != null; }

    /**
     * Counts one finished submission: host time just before its {@code vkQueueSubmit}, its first and last device
     * ticks, and the host time its wait returned. Calibrates now (a device tick and a host time read together), so the
     * clocks' drift between submissions does not matter.
     */
    void record(long submitHost, long firstTick, long lastTick, long observedHost) {
        if (!enabled()) return;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkCalibratedTimestampInfoKHR.Buffer info = VkCalibratedTimestampInfoKHR.calloc(2, stack);
            info.get(0).sType$Default().timeDomain(VK_TIME_DOMAIN_DEVICE_KHR);
            info.get(1).sType$Default().timeDomain(VK_TIME_DOMAIN_CLOCK_MONOTONIC_KHR);
            LongBuffer stamps = stack.mallocLong(2), deviation = stack.mallocLong(1);
            int res = khr ? vkGetCalibratedTimestampsKHR(dev.device, info, stamps, deviation)
                    : vkGetCalibratedTimestampsEXT(dev.device, info, stamps, deviation);
            if (res != VK_SUCCESS) return;
            double period = dev.timestampPeriod;
            long firstHost = stamps.get(1) + (long) ((firstTick - stamps.get(0)) * period);
            long lastHost = stamps.get(1) + (long) ((lastTick - stamps.get(0)) * period);
            launchNanos.addAndGet(firstHost - submitHost);
            completionNanos.addAndGet(observedHost - lastHost);
            submissions.incrementAndGet();
        }
    }
}
