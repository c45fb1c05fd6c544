package dev.jburn.vulkan;

import dev.jburn.Engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Times f32 GEMM tilings ({@link GemmShaderTiled}) on the device at hand against the engine's current
 * kernel, all on the same operands in one JVM: for each, the median wall time of a synchronized call, the
 * device time from GPU timestamps, and the largest difference from the current kernel's result relative to
 * the result's largest magnitude (a wrong tiling shows here before it is timed; the test checks them against an
 * oracle). A search over tilings for a device, not a test.
 *
 * <p>Usage: {@code java ... dev.jburn.vulkan.GemmTilingBench [--n 4096] [--runs 9] [--warmup 3]
 * [--tilings 16x16/8x8/k16,16x16/8x8/k16/p,...]}
 */
public final class GemmTilingBench {
    private GemmTilingBench() {}

    static final String DEFAULT_TILINGS = String.join(",", "16x16/8x8/k16", "16x16/8x8/k16/w", "16x16/8x8/k16/g8", "16x16/8x8/k16/w/g8",
            "16x16/8x8/k16/w/g4", "16x16/8x8/k16/w/g16", "16x16/8x8/k8/p/w", "16x16/8x8/k8/p/w/g8", "8x16/8x16/k16/p", "8x16/8x16/k16/p/w",
            "8x16/8x16/k16/p/w/g8", "16x8/8x16/k16/w/g8", "16x16/8x8/k16/p/w/g8", "32x8/8x8/k16/w/g8", "8x32/8x8/k16/w/g8");

    public static void main(String[] args) {
        int n = 4096, runs = 9, warmup = 3;
        String tilings = DEFAULT_TILINGS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n" -> n = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--tilings" -> tilings = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Engine vk = Engine.select("vulkan");
        VulkanBackend b = (VulkanBackend) vk.backend();
        System.out.println("device: " + b.deviceDescription());
        DeviceBuffer da = GemmRuns.upload(b, GemmRuns.random(n * n, 1)), db = GemmRuns.upload(b, GemmRuns.random(n * n, 2));
        List<DotKernels.Gemm> kernels = new ArrayList<>();
        kernels.add(b.dots.gemm(dev.jburn.DType.F32, n, n));
        kernels.add(new DotKernels.Gemm("gemm-f32-wide", List.of("gemm", false, true), () -> GemmShader.source(false, true), 128, 128));
        kernels.add(new DotKernels.Gemm("gemm-f32-db8-wide", List.of("gemm-f32-db8", true), () -> GemmShaderDoubleBuffered.source(true), 128, 128));
        for (GemmShaderTiled.Tiling t : GemmShaderTiled.Tiling.parseAll(tilings)) kernels.add(DotKernels.tiled(t));
        float[] reference = null;
        double flops = 2.0 * n * n * (double) n;
        System.out.printf(Locale.ROOT, "%-40s %10s %10s %10s %10s %12s%n", "kernel", "wall ms", "TFLOP/s", "device ms", "TFLOP/s", "max rel diff");
        for (DotKernels.Gemm g : kernels) {
            try {
                DeviceBuffer c = b.dots.run(g, da, db, 1, n, n, n, Float.BYTES);
                float[] got = GemmRuns.download(b, c, n * n);
                c.release();
                if (reference == null) reference = got;
                double diff = maxRelativeDiff(reference, got);
                for (int i = 0; i < warmup; i++) b.dots.run(g, da, db, 1, n, n, n, Float.BYTES).release();
                b.synchronize();
                double[] t = new double[runs];
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    DeviceBuffer r = b.dots.run(g, da, db, 1, n, n, n, Float.BYTES);
                    b.synchronize();
                    t[i] = (System.nanoTime() - t0) / 1e9;
                    r.release();
                }
                Arrays.sort(t);
                b.measureDeviceTime(true);
                long d0 = b.stats().deviceNanos();
                for (int i = 0; i < runs; i++) b.dots.run(g, da, db, 1, n, n, n, Float.BYTES).release();
                b.synchronize();
                double dev = (b.stats().deviceNanos() - d0) / 1e9 / runs;
                b.measureDeviceTime(false);
                double wall = t[runs / 2];
                System.out.printf(Locale.ROOT, "%-40s %10.3f %10.1f %10.3f %10.1f %12.2e%n", g.name(), wall * 1e3, flops / wall / 1e12,
                        dev * 1e3, flops / dev / 1e12, diff);
            } catch (RuntimeException e) {
                System.out.printf(Locale.ROOT, "%-40s failed: %s%n", g.name(), e);
            }
        }
        da.release();
        db.release();
        System.out.println("fallbacks: " + vk.fallbackCounts());
    }

    static double maxRelativeDiff(float[] want, float[] got) {
        double scale = 0, diff = 0;
        for (float w : want) scale = Math.max(scale, Math.abs(w));
        for (int i = 0; i < want.length; i++) diff = Math.max(diff, Math.abs((double) want[i] - got[i]));
        return scale == 0 ? diff : diff / scale;
    }
}
