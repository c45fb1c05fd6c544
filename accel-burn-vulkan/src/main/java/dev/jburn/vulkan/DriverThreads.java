package dev.jburn.vulkan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Waits, after the device and instance are destroyed, for the driver's own threads to end.
 *
 * <p>Why: on the H200, NVIDIA's driver keeps worker threads that end some time after
 * {@code vkDestroyInstance}, and the process died with SIGSEGV in {@code libEGL_nvidia.so.0}
 * around exit. Measured there: closing on the creating thread ({@link DeviceThread}), then
 * waiting for the threads to go, then exiting, ended cleanly every time; closing without the wait
 * was not measured separately, so the wait stays as a safeguard. {@link VulkanDevice#close} waits
 * until the process's thread count has fallen and then held still for a moment (at most
 * {@link #MAX_WAIT_MS}; about 0.25 s on the H200). Linux only ({@code /proc/self/task});
 * elsewhere it returns at once.
 */
final class DriverThreads {
    private DriverThreads() {}

    static final long MAX_WAIT_MS = 2000;
    private static final long QUIET_MS = 100;
    private static final long POLL_MS = 5;

    /** Threads of this process now, or -1 where that cannot be read. */
    static int count() {
        try (var s = Files.list(Path.of("/proc/self/task"))) {
            return (int) s.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Waits until fewer than {@code before} threads remain (some thread ended) and the count has
     * not changed for {@link #QUIET_MS}, or until {@link #MAX_WAIT_MS} passed. Returns the milliseconds waited.
     */
    static long awaitSettled(int before) {
        if (before < 0) return 0;
        long start = System.nanoTime();
        long deadline = start + MAX_WAIT_MS * 1_000_000L;
        int last = count();
        long lastChange = System.nanoTime();
        while (System.nanoTime() < deadline) {
            int now = count();
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (now < before && System.nanoTime() - lastChange >= QUIET_MS * 1_000_000L) {
                break;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return (System.nanoTime() - start) / 1_000_000L;
    }
}
