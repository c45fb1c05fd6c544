package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Fences against timeline-semaphore waits ({@link VulkanConfig#timelineWaits()}), alternating in one JVM so that a
 * noisy machine cannot favour one: each round times, on an engine of each setting, the median of calls the host waits
 * for (a Jit {@code a*b+c} on f32[8], then on 16M f32) and prints them with the device time of the large one.
 *
 * <p>Usage: {@code java ... dev.jburn.vulkan.SyncLatencyBench [--rounds 5] [--fused 16777216]}
 */
public final class SyncLatencyBench {
    private SyncLatencyBench() {}

    public static void main(String[] args) {
        int rounds = 5;
        long m = 1 << 24;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--fused" -> m = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Engine fences = VulkanHostPathTest.privateEngine(c -> c.withTimelineWaits(false));
        Engine timeline = VulkanHostPathTest.privateEngine(c -> c.withTimelineWaits(true));
        System.out.println("device: " + ((VulkanBackend) fences.backend()).deviceDescription()
                + "; timeline semaphores: " + ((VulkanBackend) timeline.backend()).queue.timelineWaits());
        CompiledFunction fma = Jit.compileList(in -> List.of(in.get(0).multiply(in.get(1)).add(in.get(2))));
        for (int r = 1; r <= rounds; r++) {
            for (Engine e : List.of(fences, timeline)) {
                VulkanBackend b = (VulkanBackend) e.backend();
                try (Tensor small = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}).to(e);
                     Tensor x = VulkanBench.random(e, m, 3); Tensor y = VulkanBench.random(e, m, 4); Tensor z = VulkanBench.random(e, m, 5)) {
                    double s = VulkanBench.median(b, 50, 301, () -> fma.apply(List.of(small, small, small)).getFirst());
                    double f = VulkanBench.median(b, 5, 51, () -> fma.apply(List.of(x, y, z)).getFirst());
                    double issue = issueMedian(b, 51, () -> fma.apply(List.of(x, y, z)).getFirst());
                    b.measureDeviceTime(true);
                    long d0 = b.stats().deviceNanos();
                    for (int i = 0; i < 21; i++) {
                        fma.apply(List.of(x, y, z)).getFirst().close();
                        b.synchronize();
                    }
                    double dev = (b.stats().deviceNanos() - d0) / 1e9 / 21;
                    b.measureDeviceTime(false);
                    System.out.printf(Locale.ROOT, "round %d %-8s: small call waited for %.2f us; a*b+c f32[%d] waited for %.3f ms"
                                    + " (the call returned after %.1f us), device %.3f ms (%.2fx)%n",
                            r, b.queue.timelineWaits() ? "timeline" : "fences", s * 1e6, m, f * 1e3, issue * 1e6, dev * 1e3, f / dev);
                }
            }
        }
        timeline.backend().close();
        fences.backend().close();
    }

    /**
     * Median time for {@code op} to return (the host's recording and submission, not the device's work), each call
     * waited for after its timing so that calls never queue behind each other.
     */
    private static double issueMedian(VulkanBackend b, int runs, Supplier<Tensor> op) {
        double[] t = new double[runs];
        for (int i = 0; i < runs; i++) {
            b.synchronize();
            long t0 = System.nanoTime();
            Tensor r = op.get();
            t[i] = (System.nanoTime() - t0) / 1e9;
            b.synchronize();
            r.close();
        }
        Arrays.sort(t);
        return t[runs / 2];
    }
}
