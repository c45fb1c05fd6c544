package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The window plan run on host arrays (identity padding, strided gather, fold of the window axes) against the cpu engine. */
class WindowPlanTest {
    private static final Backend CPU = Engine.select("cpu").backend();

    private static double[] viaPlan(WindowOp op, double[] x, Shape xs, WindowPlan p) {
        double identity = switch (op) {
            case WINDOW_SUM -> 0;
            case WINDOW_PRODUCT -> 1;
            case WINDOW_MAX -> Double.NEGATIVE_INFINITY;
            default -> Double.POSITIVE_INFINITY;
        };
        assertEquals(Double.doubleToRawLongBits(identity), WindowPlan.identityBits(op, DType.F64));
        double[] padded = new double[(int) p.padded().size()];
        java.util.Arrays.fill(padded, identity);
        long[] ps = StridedView.rowMajorStrides(p.padded());
        long base = 0;
        for (int i = 0; i < xs.rank(); i++) base += p.padLo()[i] * ps[i];
        long[] dims = new long[xs.rank()];
        for (int i = 0; i < dims.length; i++) dims[i] = xs.dim(i);
        StridedView scatter = new StridedView(base, dims, ps);
        for (int i = 0; i < x.length; i++) padded[(int) scatter.source(i)] = x[i];
        int outs = (int) p.outShape().size();
        long per = p.windows().size() / Math.max(1, outs);
        double[] out = new double[outs];
        for (int o = 0; o < outs; o++) {
            double acc = identity;
            for (long w = 0; w < per; w++) {
                double v = padded[(int) p.windows().source(o * per + w)];
                acc = switch (op) {
                    case WINDOW_SUM -> acc + v;
                    case WINDOW_PRODUCT -> acc * v;
                    case WINDOW_MAX -> Math.max(acc, v);
                    default -> Math.min(acc, v);
                };
            }
            out[o] = acc;
        }
        return out;
    }

    private static double[] viaCpu(WindowOp op, double[] x, Shape xs, WindowSpec spec) {
        Buffer b = CPU.upload(MemorySegment.ofArray(x));
        Buffer r = CPU.windowReduce(op, new Operand(b, DType.F64, xs), spec);
        double[] out = new double[(int) (r.byteSize() / 8)];
        CPU.download(r, 0, MemorySegment.ofArray(out));
        b.release();
        r.release();
        return out;
    }

    @Test
    void windowPlanMatchesTheCpuEngine() {
        Random rnd = new Random(5);
        Shape xs = Shape.of(2, 3, 7, 6);
        double[] x = new double[(int) xs.size()];
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextInt(9) - 4;
        WindowSpec[] specs = {
            new WindowSpec(new int[] {1, 1, 2, 2}, new int[] {1, 1, 2, 2}, new int[4], new int[4], new int[] {1, 1, 1, 1}),
            new WindowSpec(new int[] {1, 2, 3, 2}, new int[] {1, 1, 2, 1}, new int[] {0, 1, 1, 0}, new int[] {0, 0, 2, 1}, new int[] {1, 1, 2, 1}),
        };
        for (WindowSpec spec : specs) {
            WindowPlan p = WindowPlan.of(xs, spec);
            for (WindowOp op : new WindowOp[] {WindowOp.WINDOW_SUM, WindowOp.WINDOW_MAX, WindowOp.WINDOW_MIN, WindowOp.WINDOW_PRODUCT}) {
                assertArrayEquals(viaCpu(op, x, xs, spec), viaPlan(op, x, xs, p), 1e-9, op + " " + java.util.Arrays.toString(spec.dims()));
            }
        }
    }

    @Test
    void identitiesAndCoverage() {
        assertEquals(0x80, WindowPlan.identityBits(WindowOp.WINDOW_MAX, DType.S8) & 0xff);
        assertEquals(0x7f, WindowPlan.identityBits(WindowOp.WINDOW_MIN, DType.S8));
        // PRED holds 0 or 1: min over nothing is true (1), not 0xFF (found on the H200 by the kit's empty-reduction case)
        assertEquals(1, WindowPlan.identityBits(dev.jburn.op.ReduceOp.REDUCE_MIN, DType.PRED));
        assertEquals(0, WindowPlan.identityBits(dev.jburn.op.ReduceOp.REDUCE_MAX, DType.PRED));
        assertEquals(Long.MIN_VALUE, WindowPlan.identityBits(WindowOp.WINDOW_MAX, DType.S64));
        assertEquals(0xffff, WindowPlan.identityBits(WindowOp.WINDOW_MIN, DType.U16) & 0xffff);
        assertEquals(0xfc00, WindowPlan.identityBits(WindowOp.WINDOW_MAX, DType.F16));
        assertEquals(Float.floatToRawIntBits(Float.NEGATIVE_INFINITY) & 0xffffffffL, WindowPlan.identityBits(WindowOp.WINDOW_MAX, DType.F32));
        assertTrue(WindowPlan.covers(WindowOp.WINDOW_MAX, DType.BF16));
        assertFalse(WindowPlan.covers(WindowOp.WINDOW_SUM, DType.BF16));
        assertTrue(WindowPlan.covers(WindowOp.WINDOW_SCATTER_MAX, DType.F32));
        assertFalse(WindowPlan.covers(WindowOp.WINDOW_SCATTER_MIN, DType.BF16), "bf16 scatters would round twice");
        assertEquals(null, WindowPlan.of(Shape.of(1, 1, 1, 1, 1), new WindowSpec(new int[5], new int[5], new int[5], new int[5], new int[5])));
    }
}
