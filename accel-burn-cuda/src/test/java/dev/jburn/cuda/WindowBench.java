package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The max pools of the small CNN at batch 1024 on the GPU, each window kernel beside the path it replaced, in one
 * run: the window max as one pass ({@link WindowExtremeKernels}, unpadded: walked by strides) and as {@link WindowPlan}'s
 * pad, gather and reduce; its gradient per window ({@link WindowScatterKernels#tiled}) and as the select-then-scatter
 * pair ({@link WindowScatterKernels}).
 * Each pair is also compared element for element (they must agree bit for bit). Channels-last shapes, 2×2 windows,
 * stride 2, as the CNN's train step runs them. Median µs per call of back-to-back calls, synchronized once per sample.
 *
 * <p>Usage on the GPU machine: {@code java ... dev.jburn.cuda.WindowBench}; {@code gpu/torch_pool.py} times torch's
 * max_pool2d forward and backward on the same shapes.
 */
public final class WindowBench {
    private WindowBench() {}

    public static void main(String[] args) {
        Engine gpu = Engine.select("cuda");
        CudaBackend b = (CudaBackend) gpu.backend();
        CudaWindows w = new CudaWindows(b);
        for (long[] dims : new long[][] {{1024, 26, 26, 32}, {1024, 11, 11, 64}}) {
            Shape shape = Shape.of(dims);
            WindowSpec spec = new WindowSpec(new int[] {1, 2, 2, 1}, new int[] {1, 2, 2, 1}, new int[4], new int[4], new int[] {1, 1, 1, 1});
            Shape pooled = Shape.of(dims[0], dims[1] / 2, dims[2] / 2, dims[3]);
            Operand x = random(b, shape, 1), source = random(b, pooled, 2);
            Operand init = new Operand(GpuTiming.upload(b, new float[] {0f}), DType.F32, Shape.of());
            String name = Arrays.toString(dims);
            Buffer e = w.extreme(WindowOp.WINDOW_MAX, x, spec), p = w.planned(WindowOp.WINDOW_MAX, x, spec);
            System.out.printf(Locale.ROOT, "windowMax %s: one-pass and plan agree: %s%n", name, same(b, e, p, pooled.size()));
            e.release();
            p.release();
            row("windowMax " + name + " one pass (unpadded)", b, () -> w.extreme(WindowOp.WINDOW_MAX, x, spec));
            row("windowMax " + name + " pad+gather+reduce", b, () -> w.planned(WindowOp.WINDOW_MAX, x, spec));
            Buffer d = w.scatter(WindowOp.WINDOW_SCATTER_MAX, x, source, init, spec, true);
            Buffer s = w.scatter(WindowOp.WINDOW_SCATTER_MAX, x, source, init, spec, false);
            System.out.printf(Locale.ROOT, "windowScatterMax %s: per-window and select+scatter agree: %s%n", name, same(b, d, s, shape.size()));
            d.release();
            s.release();
            row("windowScatterMax " + name + " per window", b, () -> w.scatter(WindowOp.WINDOW_SCATTER_MAX, x, source, init, spec, true));
            row("windowScatterMax " + name + " select+scatter", b, () -> w.scatter(WindowOp.WINDOW_SCATTER_MAX, x, source, init, spec, false));
            for (Operand o : new Operand[] {x, source, init}) o.buffer().release();
        }
        System.out.println("fallbacks: " + gpu.fallbackCounts());
    }

    private static void row(String work, CudaBackend b, Supplier<Buffer> call) {
        double[] t = GpuTiming.micros(b, call);
        System.out.printf(Locale.ROOT, "%-60s %9.1f us (min %.1f)%n", work, t[t.length / 2], t[0]);
    }

    private static Operand random(CudaBackend b, Shape shape, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[Math.toIntExact(shape.size())];
        // a few ties and NaN-free values, as activations after ReLU: many exact zeros
        for (int i = 0; i < v.length; i++) v[i] = r.nextInt(4) == 0 ? 0f : (float) r.nextDouble();
        return new Operand(GpuTiming.upload(b, v), DType.F32, shape);
    }

    private static boolean same(CudaBackend b, Buffer u, Buffer v, long n) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment x = a.allocate(4 * n), y = a.allocate(4 * n);
            b.download(u, 0, x);
            b.download(v, 0, y);
            return x.mismatch(y) == -1;
        }
    }
}
