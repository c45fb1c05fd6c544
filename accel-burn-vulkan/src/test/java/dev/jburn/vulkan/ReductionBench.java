package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;

import java.util.function.Supplier;

/**
 * Times the reductions that made batch norm the Vulkan CNN step's largest cost: the eager per-channel sum
 * of a channels-last {@code [128, 26, 26, 32]} activation over {@code [0, 1, 2]}, and the Jit-compiled
 * {@code sum(x * x)} of the same (the variance's sum of squares); median of several runs after warm-up,
 * each waited for, then the device's busy time per call. Not a test: run it as a main class.
 *
 * <pre>
 * java ... dev.jburn.vulkan.ReductionBench [--runs 7] [--warmup 2]
 * </pre>
 */
public final class ReductionBench {
    private ReductionBench() {}

    public static void main(String[] args) {
        int runs = 7, warmup = 2;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Engine vk = Engine.select("vulkan");
        VulkanBackend b = (VulkanBackend) vk.backend();
        System.out.println("device: " + b.deviceDescription());
        CompiledFunction sumOfSquares = Jit.compile((Tensor x) -> x.multiply(x).sum(0, 1, 2));
        try (Tensor flat = VulkanBench.random(vk, 128L * 26 * 26 * 32, 7); Tensor x = flat.reshape(128, 26, 26, 32)) {
            time(b, "eager sum f32[128,26,26,32] axes [0,1,2]", warmup, runs, () -> x.sum(0, 1, 2));
            time(b, "eager max f32[128,26,26,32] axes [0,1,2]", warmup, runs, () -> x.max(0, 1, 2));
            time(b, "Jit sum(x*x) f32[128,26,26,32] axes [0,1,2]", warmup, runs, () -> sumOfSquares.apply(x));
            time(b, "eager sum f32[128,26,26,32] axes [3]", warmup, runs, () -> x.sum(3));
            time(b, "eager sum f32[2768896] (all)", warmup, runs, flat::sum);
        }
        System.out.println("fallbacks: " + vk.fallbackCounts());
    }

    private static void time(VulkanBackend b, String label, int warmup, int runs, Supplier<Tensor> op) {
        long before = b.stats().dispatches();
        op.get().close();
        long dispatches = b.stats().dispatches() - before;
        double s = VulkanBench.median(warmup, runs, op);
        System.out.printf("%s: median %.3f ms, %d dispatch(es) per call%n", label, s * 1e3, dispatches);
        VulkanBench.breakdown(b, runs, op);
    }
}
