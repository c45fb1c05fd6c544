package dev.jburn.cuda;

import dev.jburn.spi.Buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.function.Supplier;

/** What the GPU micro-benchmarks ({@link WindowBench}, {@link Col2imBench}) share: one timing loop, one upload. */
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

    /** {@code v} in a new device buffer. */
    static Buffer upload(CudaBackend b, float[] v) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(4L * Math.max(1, v.length));
            MemorySegment.copy(v, 0, m, ValueLayout.JAVA_FLOAT, 0, v.length);
            return b.upload(m.asSlice(0, 4L * v.length));
        }
    }
}
