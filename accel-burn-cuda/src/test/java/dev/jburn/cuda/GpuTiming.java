package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * What the GPU micro-benchmarks ({@link WindowBench}, {@link Col2imBench}, {@link DirectConvBench}) share: one timing
 * loop, uploads, one comparison.
 */
final class GpuTiming {
    private GpuTiming() {}

    /**
     * µs per call of {@code call} (its result released at once), sorted: 15 samples of 20 back-to-back calls after 5
     * warm-up calls, synchronized once per sample, so launches queue as in a training step.
     */
    static double[] micros(CudaBackend b, Supplier<Buffer> call) {
        Runnable run = () -> call.get().release();
        for (int i = 0; i < 5; i++) run.run();
        double[] t = new double[15];
        for (int i = 0; i < t.length; i++) {
            b.synchronize();
            long t0 = System.nanoTime();
            for (int k = 0; k < 20; k++) run.run();
            b.synchronize();
            t[i] = (System.nanoTime() - t0) / 20e3;
        }
        Arrays.sort(t);
        return t;
    }

    /** The median of {@link #micros}. */
    static double median(CudaBackend b, Supplier<Buffer> call) {
        double[] t = micros(b, call);
        return t[t.length / 2];
    }

    /** {@code v} in a new device buffer. */
    static Buffer upload(CudaBackend b, float[] v) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(4L * Math.max(1, v.length));
            MemorySegment.copy(v, 0, m, ValueLayout.JAVA_FLOAT, 0, v.length);
            return b.upload(m.asSlice(0, 4L * v.length));
        }
    }

    /** A new F32 operand of {@code shape} with values uniform in [-1, 1) from {@code seed}. */
    static Operand random(CudaBackend b, Shape shape, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[Math.toIntExact(shape.size())];
        for (int i = 0; i < v.length; i++) v[i] = (float) (r.nextDouble() * 2 - 1);
        return new Operand(upload(b, v), DType.F32, shape);
    }

    /** {max |u − v|, max |u|} over {@code n} floats (infinite where one is NaN and the other not). */
    static double[] difference(CudaBackend b, Buffer u, Buffer v, long n) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment x = a.allocate(4 * n), y = a.allocate(4 * n);
            b.download(u, 0, x);
            b.download(v, 0, y);
            double diff = 0, max = 0;
            for (long i = 0; i < n; i++) {
                float p = x.getAtIndex(ValueLayout.JAVA_FLOAT, i), q = y.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                diff = Math.max(diff, Math.abs((double) p - q));
                max = Math.max(max, Math.abs(p));
                if (Float.isNaN(p) != Float.isNaN(q)) diff = Double.POSITIVE_INFINITY;
            }
            return new double[] {diff, max};
        }
    }
}
