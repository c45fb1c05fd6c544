package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The im2col plan run on host arrays — pad, strided gather, per-group GEMM, output view, the same
 * index arithmetic the GPU kernels use — against the cpu engine's convolution.
 */
class ConvPlanTest {
    private static final Backend CPU = Engine.select("cpu").backend();

    private static double[] random(long n, Random r) {
        double[] x = new double[(int) n];
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(7) - 3;
        return x;
    }

    private static double[] viaPlan(double[] x, Shape xs, double[] w, ConvPlan p) {
        // pad (the scatter kernel's arithmetic)
        double[] padded = new double[(int) p.padded().size()];
        long[] ps = StridedView.rowMajorStrides(p.padded());
        long[] dst = new long[xs.rank()];
        long base = 0;
        for (int i = 0; i < xs.rank(); i++) {
            dst[i] = ps[i] * (p.interior()[i] + 1L);
            base += p.padLo()[i] * ps[i];
        }
        StridedView scatter = new StridedView(base, longs(xs), dst);
        for (int i = 0; i < x.length; i++) padded[(int) scatter.source(i)] = x[i];
        // im2col (the copy kernel's arithmetic)
        double[] cols = new double[(int) p.cols().size()];
        for (int i = 0; i < cols.length; i++) cols[i] = padded[(int) p.cols().source(i)];
        // per-group GEMM: cols [G, m, k] · w[G, n, k]ᵀ
        double[] res = new double[(int) (p.groups() * p.m() * p.n())];
        for (int g = 0; g < p.groups(); g++)
            for (int i = 0; i < p.m(); i++)
                for (int j = 0; j < p.n(); j++) {
                    double s = 0;
                    for (int l = 0; l < p.k(); l++) {
                        s += cols[(int) ((g * p.m() + i) * p.k() + l)] * w[(int) ((g * p.n() + j) * p.k() + l)];
                    }
                    res[(int) ((g * p.m() + i) * p.n() + j)] = s;
                }
        double[] out = new double[(int) p.outShape().size()];
        assertEquals(out.length, p.toOutput().size());
        for (int i = 0; i < out.length; i++) out[i] = res[(int) p.toOutput().source(i)];
        return out;
    }

    private static long[] longs(Shape s) {
        long[] d = new long[s.rank()];
        for (int i = 0; i < d.length; i++) d[i] = s.dim(i);
        return d;
    }

    private static double[] viaCpu(double[] x, Shape xs, double[] w, Shape ws, ConvSpec spec) {
        Buffer bx = CPU.upload(MemorySegment.ofArray(x)), bw = CPU.upload(MemorySegment.ofArray(w));
        Buffer r = CPU.conv(new Operand(bx, DType.F64, xs), new Operand(bw, DType.F64, ws), spec, DType.F64);
        double[] out = new double[(int) (r.byteSize() / 8)];
        CPU.download(r, 0, MemorySegment.ofArray(out));
        bx.release();
        bw.release();
        r.release();
        return out;
    }

    private static void check(Shape xs, Shape ws, ConvSpec spec, Random rnd) {
        double[] x = random(xs.size(), rnd), w = random(ws.size(), rnd);
        ConvPlan p = ConvPlan.of(xs, ws, spec);
        assertNotNull(p, spec.toString());
        assertArrayEquals(viaCpu(x, xs, w, ws, spec), viaPlan(x, xs, w, p), 1e-9,
                xs + " * " + ws + " strides " + java.util.Arrays.toString(spec.strides()));
    }

    @Test
    void im2colPlanMatchesTheCpuConvolution() {
        Random rnd = new Random(3);
        check(Shape.of(2, 3, 7), Shape.of(4, 3, 3), new ConvSpec(new int[] {1}, new int[] {0}, new int[] {0}, new int[] {1}, new int[] {1}, 1, 1), rnd);
        check(Shape.of(1, 2, 6, 5), Shape.of(3, 2, 2, 3), new ConvSpec(new int[] {2, 1}, new int[] {1, 0}, new int[] {1, 2}, new int[] {1, 1}, new int[] {1, 2}, 1, 1), rnd);
        // feature groups, input dilation (transposed-conv style), kernel dilation
        check(Shape.of(2, 4, 5, 5), Shape.of(6, 2, 2, 2), new ConvSpec(new int[] {1, 2}, new int[] {1, 1}, new int[] {0, 1}, new int[] {2, 1}, new int[] {1, 2}, 2, 1), rnd);
        check(Shape.of(3, 4, 9), Shape.of(4, 1, 3), new ConvSpec(new int[] {3}, new int[] {2}, new int[] {2}, new int[] {2}, new int[] {2}, 4, 1), rnd);
    }

    @Test
    void outsideThePathGivesNull() {
        ConvSpec crop = new ConvSpec(new int[] {1}, new int[] {-1}, new int[] {0}, new int[] {1}, new int[] {1}, 1, 1);
        assertNull(ConvPlan.of(Shape.of(1, 1, 5), Shape.of(1, 1, 2), crop));
        ConvSpec batchGroups = new ConvSpec(new int[] {1}, new int[] {0}, new int[] {0}, new int[] {1}, new int[] {1}, 1, 2);
        assertNull(ConvPlan.of(Shape.of(2, 1, 5), Shape.of(2, 1, 2), batchGroups));
        ConvSpec three = new ConvSpec(new int[] {1, 1, 1}, new int[] {0, 0, 0}, new int[] {0, 0, 0}, new int[] {1, 1, 1}, new int[] {1, 1, 1}, 1, 1);
        assertNull(ConvPlan.of(Shape.of(1, 1, 3, 3, 3), Shape.of(1, 1, 2, 2, 2), three));
    }
}
