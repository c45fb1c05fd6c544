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
 * [--tilings 16x16/8x8/k16,16x16/8x8/k16/p,w128x128/k16/64x64/n4/8x4,...] [--ir-dir DIR]}: a form starting with
 * {@code w} is a warp-tiled layout ({@link GemmShaderWarpTiled}). With {@code -Djburn.vulkan.pipelineStatistics=true}
 * each kernel's line is followed by the driver's statistics of its compiled code (registers, spills, where given); with
 * {@code -Djburn.vulkan.latencyProbe=true}, by where a waited-for call's time outside the device went ({@link LatencyProbe}).
 */
public final class GemmTilingBench {
    private GemmTilingBench() {}

    /** The classic tiling (the engine's kernel) and the warp-tiled layouts ({@link GemmShaderWarpTiled}) the twenty-third session searched. */
    static final String DEFAULT_TILINGS = String.join(",", "16x16/8x8/k16",
            "w128x128/k16/64x64/n4/8x4", "w128x128/k16/64x64/n4/8x4/p", "w128x128/k8/64x64/n4/8x4", "w128x128/k8/64x64/n4/8x4/p",
            "w128x128/k16/64x32/n2/8x4", "w128x128/k16/64x32/n2/8x4/p", "w128x128/k8/64x32/n2/8x4/p", "w128x128/k16/32x64/n4/4x4",
            "w128x128/k16/64x64/n2/8x8", "w128x128/k16/64x64/n1/8x8", "w128x256/k8/64x64/n4/8x4", "w64x128/k16/32x64/n1/8x8",
            "w128x64/k16/64x32/n2/8x4/p", "w128x128/k32/64x64/n4/8x4", "w128x128/k16/32x32/n2/4x4", "w128x128/k8/64x64/n4/8x4/d",
            "w128x128/k16/64x64/n4/8x4/d", "w128x128/k8/64x32/n2/8x4/d", "w128x128/k16/64x32/n2/8x4/d", "w128x256/k8/64x64/n4/8x4/d");

    public static void main(String[] args) {
        int n = 4096, runs = 9, warmup = 3;
        String tilings = DEFAULT_TILINGS;
        java.nio.file.Path irDir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n" -> n = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--tilings" -> tilings = args[++i];
                case "--ir-dir" -> irDir = java.nio.file.Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Engine vk = Engine.select("vulkan");
        VulkanBackend b = (VulkanBackend) vk.backend();
        System.out.println("device: " + b.deviceDescription());
        System.out.println("pipeline statistics: " + (b.dev.pipelineStatistics ? "on" : "off") + " (" + PipelineStatistics.EXTENSION
                + (VulkanExtensions.device(b.dev.physical).contains(PipelineStatistics.EXTENSION) ? " listed" : " not listed") + ")");
        DeviceBuffer da = GemmRuns.upload(b, GemmRuns.random(n * n, 1)), db = GemmRuns.upload(b, GemmRuns.random(n * n, 2));
        List<DotKernels.Gemm> kernels = new ArrayList<>();
        kernels.add(b.dots.gemm(dev.jburn.DType.F32, n, n));
        kernels.add(new DotKernels.Gemm("gemm-f32-wide", List.of("gemm", false, true), () -> GemmShader.source(false, true), 128, 128));
        kernels.add(new DotKernels.Gemm("gemm-f32-db8-wide", List.of("gemm-f32-db8", true), () -> GemmShaderDoubleBuffered.source(true), 128, 128));
        for (String form : tilings.split(",")) {
            if (form.isBlank()) continue;
            kernels.add(DotKernels.byForm(form));
        }
        // Issuing a product from interpreted code costs ~0.4 ms of host time, which a waited-for call adds to its wall
        // time: time what a long-running program sees.
        System.out.printf(Locale.ROOT, "warm-up: %d f32[64,64] products in %.2f s%n", WARM_CALLS, warm(b));
        float[] reference = null;
        double flops = 2.0 * n * n * (double) n;
        System.out.printf(Locale.ROOT, "%-44s %10s %10s %10s %10s %10s %12s%n", "kernel", "wall ms", "TFLOP/s", "dev waited", "dev queued",
                "TFLOP/s", "max rel diff");
        for (DotKernels.Gemm g : kernels) {
            try {
                DeviceBuffer c = b.dots.run(g, da, db, 1, n, n, n, Float.BYTES);
                float[] got = GemmRuns.download(b, c, n * n);
                c.release();
                if (reference == null) reference = got;
                double diff = maxRelativeDiff(reference, got);
                for (int i = 0; i < warmup; i++) b.dots.run(g, da, db, 1, n, n, n, Float.BYTES).release();
                b.synchronize();
                // Waited for, one at a time (what a caller who reads the result sees), with the device time of each
                // call; then queued back to back (the kernel's own throughput: a call may overlap its neighbours' tails).
                double[] t = new double[runs], issue = new double[runs];
                b.measureDeviceTime(true);
                long w0 = b.stats().deviceNanos();
                LatencyProbe.Totals before = b.queue.latency.totals();
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    DeviceBuffer r = b.dots.run(g, da, db, 1, n, n, n, Float.BYTES);
                    issue[i] = (System.nanoTime() - t0) / 1e9;
                    b.synchronize();
                    t[i] = (System.nanoTime() - t0) / 1e9;
                    r.release();
                }
                double waitedDev = (b.stats().deviceNanos() - w0) / 1e9 / runs;
                LatencyProbe.Totals probed = b.queue.latency.totals().since(before);
                Arrays.sort(t);
                Arrays.sort(issue);
                String latencies = probed.submissions() == 0 ? "" : String.format(Locale.ROOT,
                        "  waited-for call: issuing it %.1f us (median), launch %.1f us, completion %.1f us (calibrated timestamps, %d calls)",
                        issue[runs / 2] * 1e6, probed.launchMicros(), probed.completionMicros(), probed.submissions());
                long d0 = b.stats().deviceNanos();
                for (int i = 0; i < runs; i++) b.dots.run(g, da, db, 1, n, n, n, Float.BYTES).release();
                b.synchronize();
                double dev = (b.stats().deviceNanos() - d0) / 1e9 / runs;
                b.measureDeviceTime(false);
                double wall = t[runs / 2];
                System.out.printf(Locale.ROOT, "%-44s %10.3f %10.1f %10.3f %10.3f %10.1f %12.2e%n", g.name(), wall * 1e3, flops / wall / 1e12,
                        waitedDev * 1e3, dev * 1e3, flops / dev / 1e12, diff);
                if (!latencies.isEmpty()) System.out.println(latencies);
                printStatistics(b, g, irDir);
            } catch (RuntimeException e) {
                System.out.printf(Locale.ROOT, "%-44s failed: %s%n", g.name(), e);
            }
        }
        da.release();
        db.release();
        System.out.println("fallbacks: " + vk.fallbackCounts());
    }

    /**
     * The driver's statistics of {@code g}'s pipeline (with {@code -Djburn.vulkan.pipelineStatistics=true}, where the
     * device has {@code VK_KHR_pipeline_executable_properties}), and its internal representations written to
     * {@code irDir} when given.
     */
    static void printStatistics(VulkanBackend b, DotKernels.Gemm g, java.nio.file.Path irDir) {
        Pipelines.Pipeline p = b.pipelines.get("dot", g.name(), g.key(), g.source(), 4, true);
        int i = 0;
        for (PipelineStatistics.Executable e : PipelineStatistics.of(b.dev, p.pipeline())) {
            System.out.println("    " + e);
            if (irDir == null) continue;
            for (var r : e.representations().entrySet()) {
                String file = g.name() + "." + (i++) + "." + r.getKey().replaceAll("[^A-Za-z0-9_-]", "_") + ".txt";
                try {
                    java.nio.file.Files.createDirectories(irDir);
                    java.nio.file.Files.writeString(irDir.resolve(file), r.getValue());
                } catch (java.io.IOException ex) {
                    System.out.println("    could not write " + file + ": " + ex);
                }
            }
        }
    }

    static final int WARM_CALLS = 3_000;

    /** Runs {@link #WARM_CALLS} small products through {@link DotKernels#run} so the JVM has compiled the issuing path; seconds taken. */
    static double warm(VulkanBackend b) {
        DeviceBuffer x = GemmRuns.upload(b, GemmRuns.random(64 * 64, 3));
        long t0 = System.nanoTime();
        try {
            DotKernels.Gemm g = DotKernels.wideF32Default();
            for (int i = 0; i < WARM_CALLS; i++) b.dots.run(g, x, x, 1, 64, 64, 64, Float.BYTES).release();
            b.synchronize();
        } finally {
            x.release();
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    static double maxRelativeDiff(float[] want, float[] got) {
        double scale = 0, diff = 0;
        for (float w : want) scale = Math.max(scale, Math.abs(w));
        for (int i = 0; i < want.length; i++) diff = Math.max(diff, Math.abs((double) want[i] - got[i]));
        return scale == 0 ? diff : diff / scale;
    }
}
