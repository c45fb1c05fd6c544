package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.spi.EngineConfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The cuda engine's speed on the GPU machine, printed as one table (run by {@code gpu/run-h200.sh}
 * beside {@code gpu/torch_peer.py}): GEMM in F32, TF32 and BF16 at 4096 and 8192, a Jit-fused chain
 * of four element-wise ops on 64M F32 against a device-to-device copy measured in the same run, and
 * the eager dispatch cost of a small add. Each figure is the median of timed repetitions after
 * warm-up, timed on the wall clock around back-to-back runs followed by one stream synchronization.
 *
 * <p>Usage: {@code java ... dev.jburn.cuda.CudaBench [quick]} ({@code quick}: 4096 only, fewer repetitions).
 */
public final class CudaBench {
    private final List<String[]> rows = new ArrayList<>();
    private final boolean quick;

    private CudaBench(boolean quick) { this.quick = quick; }

    public static void main(String[] args) {
        boolean quick = args.length > 0 && args[0].equals("quick");
        System.out.println("cuda engine: " + CudaAvailability.get().reason());
        new CudaBench(quick).run();
    }

    private void run() {
        Engine gpu = Engine.select("cuda");
        CudaBackend b = (CudaBackend) gpu.backend();
        System.setProperty("jburn.cuda.tf32", "true");
        Engine tf32 = Engine.create(new CudaProvider(), EngineConfig.defaults());
        System.clearProperty("jburn.cuda.tf32");
        for (int n : quick ? new int[] {4096} : new int[] {4096, 8192}) {
            gemm("sgemm f32 " + n, gpu, n, DType.F32);
            gemm("tf32 " + n, tf32, n, DType.F32);
            gemm("bf16 gemm (f32 acc) " + n, gpu, n, DType.BF16);
        }
        fusedChain(gpu, b);
        dispatch(gpu, b);
        tf32.backend().close();
        System.out.println();
        System.out.printf(Locale.ROOT, "%-40s %14s  %s%n", "work (jburn cuda)", "median", "unit");
        for (String[] r : rows) System.out.printf(Locale.ROOT, "%-40s %14s  %s%n", r[0], r[1], r[2]);
        System.out.println("fallbacks: " + gpu.fallbackCounts());
    }

    private void row(String work, double value, String unit) {
        rows.add(new String[] {work, String.format(Locale.ROOT, "%.2f", value), unit});
        System.out.printf(Locale.ROOT, "  %s: %.2f %s%n", work, value, unit);
    }

    /**
     * Median seconds per run of {@code work}: after {@code warm} untimed runs, each of {@code reps}
     * samples runs it back to back enough times to fill about 20 ms, then synchronizes, so neither
     * the synchronization nor the launch latency of one call is counted per run.
     */
    private static double medianSeconds(int warm, int reps, CudaBackend b, Runnable work) {
        for (int i = 0; i < warm; i++) work.run();
        b.synchronize();
        long t0 = System.nanoTime();
        work.run();
        b.synchronize();
        double one = Math.max(1e-7, (System.nanoTime() - t0) * 1e-9);
        int inner = (int) Math.max(1, Math.min(1000, Math.ceil(0.02 / one)));
        double[] t = new double[reps];
        for (int i = 0; i < reps; i++) {
            long s0 = System.nanoTime();
            for (int k = 0; k < inner; k++) work.run();
            b.synchronize();
            t[i] = (System.nanoTime() - s0) * 1e-9 / inner;
        }
        Arrays.sort(t);
        return t[reps / 2];
    }

    private static Tensor random(Engine e, int rows, int cols, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[rows * cols];
        for (int i = 0; i < x.length; i++) x[i] = (float) (r.nextDouble() - 0.5);
        try (Tensor host = Tensor.of(x)) {
            return host.reshape(rows, cols).to(e);
        }
    }

    private void gemm(String name, Engine e, int n, DType t) {
        CudaBackend b = (CudaBackend) e.backend();
        Tensor a32 = random(e, n, n, 1), b32 = random(e, n, n, 2);
        Tensor x = t == DType.F32 ? a32 : a32.asType(t), y = t == DType.F32 ? b32 : b32.asType(t);
        double s = medianSeconds(quick ? 2 : 3, quick ? 5 : 10, b, () -> x.dot(y).close());
        row(name, 2.0 * n * n * (double) n / s * 1e-12, "TFLOP/s");
        if (x != a32) x.close();
        if (y != b32) y.close();
        a32.close();
        b32.close();
    }

    private void fusedChain(Engine gpu, CudaBackend b) {
        int n = 64 << 20;
        CompiledFunction f = Jit.compile(x -> x.multiply(0.5).add(1.0).exp().multiply(x));
        Tensor x = random(gpu, n / 4096, 4096, 3);
        double s = medianSeconds(3, quick ? 5 : 10, b, () -> f.apply(x).close());
        double bytes = 2.0 * n * 4;
        row("fused x*0.5+1 |> exp |> *x, 64M f32", bytes / s * 1e-9, "GB/s (read+write)");
        long before = b.launchCount();
        f.apply(x).close();
        row("  kernels per fused call", b.launchCount() - before, "launches");
        try (var _ = b.device().enter()) {
            CudaBuffer src = b.newBuffer(4L * n, "bench"), dst = b.newBuffer(4L * n, "bench");
            Supplier<Void> copy = () -> {
                b.device().driver.copyDeviceToDevice(dst.pointer(), src.pointer(), 4L * n, b.device().stream, "bench");
                return null;
            };
            double c = medianSeconds(3, quick ? 5 : 10, b, copy::get);
            row("device-to-device copy 256 MiB", bytes / c * 1e-9, "GB/s (read+write)");
            src.release();
            dst.release();
        }
        x.close();
    }

    private void dispatch(Engine gpu, CudaBackend b) {
        Tensor a = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}).to(gpu);
        int ops = quick ? 2000 : 20000;
        double s = medianSeconds(1, 5, b, () -> {
            for (int i = 0; i < ops; i++) a.add(a).close();
        });
        row("eager add of 8 f32 (dispatch)", s / ops * 1e6, "us/op");
        a.close();
    }
}
