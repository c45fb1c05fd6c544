package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.op.ReduceOp;
import dev.jburn.kernels.ReductionKernel;
import dev.jburn.kernels.ReductionPlan;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The batch-norm statistics of the small CNN's training step (a channels-last {@code [N, H, W, C]} summed to
 * {@code [C]}: {@link ReductionPlan.Form#COLUMNS}) with several part counts on the same input in one run, against the
 * host's f64 sum: median µs per call of back-to-back calls and the input's GB/s. The synced node profile of the cuda
 * step at batch 1024 gave these sums ~70 µs of device time on an H100 for 89 MB, a third of the memory rate.
 *
 * <p>Usage on the GPU machine: {@code java ... dev.jburn.cuda.ColumnSumBench}.
 */
public final class ColumnSumBench {
    private ColumnSumBench() {}

    public static void main(String[] args) {
        Engine gpu = Engine.select("cuda");
        CudaBackend b = (CudaBackend) gpu.backend();
        for (long[] dims : new long[][] {{1024, 26, 26, 32}, {1024, 11, 11, 64}, {128, 26, 26, 32}, {128, 11, 11, 64}}) {
            long c = dims[3], rows = dims[0] * dims[1] * dims[2];
            float[] v = new float[Math.toIntExact(rows * c)];
            SplittableRandom r = new SplittableRandom(7);
            for (int i = 0; i < v.length; i++) v[i] = (float) (r.nextDouble() * 2 - 1);
            double[] exact = new double[(int) c];
            for (int i = 0; i < v.length; i++) exact[(int) (i % c)] += v[i];
            Operand x = new Operand(GpuTiming.upload(b, v), DType.F32, Shape.of(rows, c));
            ReductionKernel k = ReductionKernel.of(ReduceOp.SUM, DType.F32, Shape.of(rows, c), new int[] {0}, DType.F32);
            int chosen = ReductionPlan.of(k, Dialect.CUDA, DeviceFeatures.ALL).parts();
            System.out.printf(Locale.ROOT, "sum %s -> [%d] (%.1f MB), the shape's choice: %s, %d parts%n", Arrays.toString(dims), c,
                    v.length * 4e-6, ReductionPlan.form(k), chosen);
            for (int parts = chosen; parts <= 16 * chosen && parts <= rows / 8; parts *= 2) {
                ReductionPlan plan = ReductionPlan.columns(k, Dialect.CUDA, DeviceFeatures.ALL, parts);
                Buffer once = b.generated().reduce(plan, x, c, DType.F32);
                double err = maxRelative(b, once, exact);
                once.release();
                double[] t = GpuTiming.micros(b, () -> b.generated().reduce(plan, x, c, DType.F32));
                double med = t[t.length / 2];
                System.out.printf(Locale.ROOT, "  %6d parts (%7d threads, %5d rows each): %8.1f us (%.1f-%.1f), %6.0f GB/s, max error %.1e of the largest sum%n",
                        parts, parts * c, (rows + parts - 1) / parts, med, t[0], t[t.length - 1], v.length * 4e-3 / med, err);
            }
            x.buffer().release();
        }
        System.out.println("fallbacks: " + gpu.fallbackCounts());
    }

    /** The largest difference between {@code got} and {@code exact}, relative to the largest |exact|. */
    private static double maxRelative(CudaBackend b, Buffer got, double[] exact) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(4L * exact.length);
            b.download(got, 0, m);
            double worst = 0, scale = 0;
            for (int i = 0; i < exact.length; i++) {
                worst = Math.max(worst, Math.abs(m.getAtIndex(ValueLayout.JAVA_FLOAT, i) - exact[i]));
                scale = Math.max(scale, Math.abs(exact[i]));
            }
            return worst / scale;
        }
    }
}
