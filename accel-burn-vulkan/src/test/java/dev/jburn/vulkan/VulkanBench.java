package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * A small benchmark of the Vulkan engine: GEMM ({@code n×n·n×n}, f32 and optionally f16/bf16, each
 * line naming the kernel that ran) and a Jit-compiled fused {@code a*b+c} over {@code m} f32 elements;
 * median of several runs after warm-up. Every op waits for its fence, so a timed call includes the
 * whole kernel. {@code --check} first compares each GEMM dtype with the cpu engine ({@link GemmCheck}).
 * Not a test: run it as a main class.
 *
 * <pre>
 * java ... dev.jburn.vulkan.VulkanBench [--gemm 4096] [--gemm-dtypes f32,f16,bf16] [--check] [--gemm-only] [--fused 16777216] [--runs 7] [--warmup 2]
 * java ... dev.jburn.vulkan.VulkanBench --dispatch-only [--dispatch-seconds 20]
 * </pre>
 * {@code --dispatch-only} times just the host cost of small calls (eager add, eager sum, Jit), for a
 * profiler: it repeats them for about {@code --dispatch-seconds} after the warm-up.
 */
public final class VulkanBench {
    private VulkanBench() {}

    /** Selected once: {@code Engine.select} probes the providers again, which a timed loop should not count. */
    private static final java.util.concurrent.atomic.AtomicReference<Engine> ENGINE = new java.util.concurrent.atomic.AtomicReference<>();

    private static Engine vulkan() {
        if (ENGINE.get() == null) ENGINE.compareAndSet(null, Engine.select("vulkan"));
        return ENGINE.get();
    }

    public static void main(String[] args) {
        int n = 4096;
        long m = 1L << 24;
        int runs = 7, warmup = 2;
        List<DType> gemmTypes = List.of(DType.F32);
        boolean check = false, gemmOnly = false, dispatchOnly = false;
        double dispatchSeconds = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--gemm" -> n = Integer.parseInt(args[++i]);
                case "--fused" -> m = Long.parseLong(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--gemm-dtypes" -> gemmTypes = Arrays.stream(args[++i].split(",")).map(VulkanBench::dtype).toList();
                case "--check" -> check = true;
                case "--gemm-only" -> gemmOnly = true;
                case "--dispatch-only" -> dispatchOnly = true;
                case "--dispatch-seconds" -> dispatchSeconds = Double.parseDouble(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Engine vk = vulkan();
        VulkanBackend b = (VulkanBackend) vk.backend();
        System.out.println("device: " + b.deviceDescription() + (vk.backend().capabilities().flushesF32Subnormals() ? ", flushes f32 subnormals" : ""));
        System.out.println("cooperative matrices: " + b.dev.coopMatrix.describe());
        if (check) {
            boolean ok = true;
            for (DType t : gemmTypes) ok &= GemmCheck.run(vk, t, n);
            System.out.println("GEMM CHECK " + (ok ? "PASSED" : "FAILED"));
        }

        // The JVM compiles the dispatch path after thousands of calls; time what a long-running program sees.
        CompiledFunction fma = Jit.compileList(in -> List.of(in.get(0).multiply(in.get(1)).add(in.get(2))));
        try (Tensor small = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}).to(vk)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 20_000; i++) {
                small.add(small).close();
                fma.apply(List.of(small, small, small)).getFirst().close();
            }
            b.synchronize();
            System.out.printf("warm-up: 20000 eager adds and Jit calls on f32[8] in %.2f s%n", (System.nanoTime() - t0) / 1e9);
        }
        // The dot path too (planning, the GEMM's dispatch): a product issued from interpreted code cost ~0.4 ms of host
        // time on the H100's host, which a waited-for call adds to its wall time.
        try (Tensor flat = random(vk, 64 * 64, 3); Tensor sq = flat.reshape(64, 64)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 3_000; i++) sq.dot(sq).close();
            b.synchronize();
            System.out.printf("warm-up: 3000 f32[64,64] products in %.2f s%n", (System.nanoTime() - t0) / 1e9);
        }
        if (dispatchOnly) {
            long until = System.nanoTime() + (long) (dispatchSeconds * 1e9);
            do smallCalls(vk, fma);
            while (System.nanoTime() < until);
            System.out.println("stats: " + b.stats());
            return;
        }

        for (DType t : gemmTypes) {
            try (Tensor a0 = random(vk, n * (long) n, 1); Tensor c0 = random(vk, n * (long) n, 2);
                 Tensor a = a0.reshape(n, n).asType(t); Tensor c = c0.reshape(n, n).asType(t)) {
                if (!b.dots.supports(t)) {
                    System.out.printf("gemm %s: no kernel on this device (it would time the cpu engine); skipped%n", t.shortName());
                    continue;
                }
                String path = b.dots.gemm(t, n, n).name();
                double s = median(warmup, runs, () -> a.dot(c));
                double flops = 2.0 * n * n * n;
                System.out.printf("gemm %s %dx%d·%dx%d [%s]: median %.3f ms, %.1f GFLOP/s%n", t.shortName(), n, n, n, n, path, s * 1e3, flops / s / 1e9);
                double dev = breakdown(b, runs, () -> a.dot(c));
                System.out.printf("  device time per call (GPU timestamps): %.3f ms, %.1f GFLOP/s%n", dev * 1e3, flops / dev / 1e9);
            }
        }

        if (gemmOnly) {
            System.out.println("fallbacks: " + vk.fallbackCounts());
            return;
        }
        try (Tensor x = random(vk, m, 3); Tensor y = random(vk, m, 4); Tensor z = random(vk, m, 5)) {
            long before = b.stats().dispatches();
            try (Tensor r = fma.apply(List.of(x, y, z)).getFirst()) {
                System.out.println("fused a*b+c -> " + r.dtype().shortName() + r.shape() + ": "
                        + (b.stats().dispatches() - before) + " dispatch(es) per call");
            }
            double s = median(warmup, runs, () -> fma.apply(List.of(x, y, z)).getFirst());
            double bytes = 4.0 * 4 * m;
            System.out.printf("fused a*b+c f32[%d] (Jit): median %.3f ms, %.1f GB/s%n", m, s * 1e3, bytes / s / 1e9);
            double dev = breakdown(b, runs, () -> fma.apply(List.of(x, y, z)).getFirst());
            System.out.printf("  device time per call (GPU timestamps): %.3f ms, %.1f GB/s%n", dev * 1e3, bytes / dev / 1e9);
            double e = median(warmup, runs, () -> {
                try (Tensor t = x.multiply(y)) {
                    return t.add(z);
                }
            });
            System.out.printf("eager a*b+c f32[%d]: median %.3f ms, %.1f GB/s (counting only the 4 tensors)%n", m, e * 1e3, bytes / e / 1e9);
        }
        smallCalls(vk, fma);
        System.out.println("fallbacks: " + vk.fallbackCounts());
        System.out.println("stats: " + b.stats());
        System.out.println("memory: " + b.memoryStats());
    }

    /**
     * Host cost per small call: eager add, eager sum over an axis (a transpose and a row reduction), eager GEMM, and the
     * Jit-compiled {@code fma}, each on a few f32. Besides wall time it prints the calling thread's CPU time
     * per call: on a CPU driver (lavapipe) the driver's own threads do the device's work and the wall time is
     * theirs, while the caller's CPU time is the engine's host work (fence waits block, they do not spin there).
     */
    private static void smallCalls(Engine vk, CompiledFunction fma) {
        try (Tensor small = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}).to(vk); Tensor rows = small.reshape(2, 4);
             Tensor cols = small.reshape(4, 2)) {
            perCall("eager dispatch (add f32[8]", "op", () -> small.add(small));
            perCall("eager sum (f32[2,4] axis 0", "op", () -> rows.sum(0));
            perCall("eager dot (f32[2,4]·f32[4,2]", "op", () -> rows.dot(cols));
            perCall("Jit dispatch (fused a*b+c on f32[8]", "call", () -> fma.apply(List.of(small, small, small)).getFirst());
            // The fixed cost of a call the host waits for: submission, the device's start, the fence seen signalled.
            double sync = median(20, 201, () -> fma.apply(List.of(small, small, small)).getFirst());
            System.out.printf("Jit call on f32[8] waited for (synchronize after each): median %.2f us wall%n", sync * 1e6);
        }
    }

    private static void perCall(String label, String unit, Supplier<Tensor> op) {
        int ops = 2000;
        double cpu0 = threadCpuNanos();
        double s = median(1, 9, () -> {
            for (int i = 0; i < ops - 1; i++) op.get().close();
            return op.get();
        });
        double cpu = (threadCpuNanos() - cpu0) / 1e9 / (10.0 * ops);
        System.out.printf("%s, %d in a row, then synchronize): %.2f us/%s wall, %.2f us/%s caller CPU%n",
                label, ops, s / ops * 1e6, unit, cpu * 1e6, unit);
    }

    /** The calling thread's CPU time (Linux's schedstat; this module does not read java.management); NaN elsewhere. */
    static double threadCpuNanos() {
        try {
            return Long.parseLong(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/schedstat")).split(" ")[0]);
        } catch (java.io.IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static DType dtype(String name) {
        return Arrays.stream(DType.values()).filter(d -> d.shortName().equalsIgnoreCase(name.trim())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown dtype " + name));
    }

    /** A device tensor of {@code size} pseudo-random f32 values in [-1, 1). */
    static Tensor random(Engine vk, long size, int seed) {
        Tensor t = Tensor.of(GemmCheck.values(Math.toIntExact(size), seed));
        if (t.engine() == vk) return t;
        try (t) {
            return t.to(vk);
        }
    }

    /**
     * Runs {@code op} {@code runs} times with device timing on, prints a call's wall time, the part
     * of it spent in {@code vkQueueSubmit} and fence waits, and the device's busy time (which, with
     * submissions not waited for, overlaps the host's work), and returns the device seconds per call.
     */
    static double breakdown(VulkanBackend b, int runs, Supplier<Tensor> op) {
        b.measureDeviceTime(true);
        b.synchronize();
        long d0 = b.stats().deviceNanos(), w0 = b.stats().submitWaitNanos(), t0 = System.nanoTime();
        double cpu0 = threadCpuNanos();
        for (int i = 0; i < runs; i++) op.get().close();
        b.synchronize();
        double wall = (System.nanoTime() - t0) / 1e9 / runs;
        double cpu = (threadCpuNanos() - cpu0) / 1e9 / runs;
        double dev = (b.stats().deviceNanos() - d0) / 1e9 / runs;
        double wait = (b.stats().submitWaitNanos() - w0) / 1e9 / runs;
        b.measureDeviceTime(false);
        System.out.printf("  per call: wall %.3f ms, of which %.3f ms in submit and fence waits; device busy %.3f ms; caller CPU %.3f ms%n",
                wall * 1e3, wait * 1e3, dev * 1e3, cpu * 1e3);
        return dev;
    }

    /**
     * Seconds per call, median over {@code runs} after {@code warmup} untimed calls; each call is
     * timed until the device has finished it ({@code synchronize}); each result is closed.
     */
    static double median(int warmup, int runs, Supplier<Tensor> op) {
        return median((VulkanBackend) vulkan().backend(), warmup, runs, op);
    }

    /** {@link #median(int, int, Supplier)} on {@code b}'s engine. */
    static double median(VulkanBackend b, int warmup, int runs, Supplier<Tensor> op) {
        for (int i = 0; i < warmup; i++) op.get().close();
        b.synchronize();
        // With -Djburn.vulkan.latencyProbe=true the waited-for calls are timed on the device too, and the line says
        // where their time outside the device went (LatencyProbe).
        LatencyProbe probe = b.queue.latency;
        if (probe.enabled()) b.measureDeviceTime(true);
        LatencyProbe.Totals before = probe.totals();
        long d0 = b.stats().deviceNanos();
        double[] t = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Tensor r = op.get();
            b.synchronize();
            t[i] = (System.nanoTime() - t0) / 1e9;
            r.close();
        }
        if (probe.enabled()) {
            b.measureDeviceTime(false);
            LatencyProbe.Totals probed = probe.totals().since(before);
            System.out.printf("  waited-for calls: device %.1f us, launch %.1f us, completion %.1f us a submission (%d submissions, %d calls)%n",
                    (b.stats().deviceNanos() - d0) / 1e3 / Math.max(1, probed.submissions()), probed.launchMicros(), probed.completionMicros(),
                    probed.submissions(), runs);
        }
        Arrays.sort(t);
        return t[runs / 2];
    }
}
