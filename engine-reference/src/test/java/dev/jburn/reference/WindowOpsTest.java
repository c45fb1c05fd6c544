package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** Window reductions and scatters: the NX-SEMANTICS §7 examples, types, padding, empty axes and errors, on every engine. */
class WindowOpsTest {
    private static final List<Engine> ENGINES = List.of(Engine.defaultEngine(), ORACLE, PARALLEL);
    private static final WindowOptions DEF = WindowOptions.defaults();

    private static final int[][] SCATTER_T = {{7, 2, 5, 3, 10, 2}, {3, 8, 9, 3, 4, 2}, {1, 5, 7, 5, 6, 1}, {0, 6, 2, 7, 2, 8}};

    @Test
    void nxWindowSumExample() {
        for (Engine e : ENGINES) {
            Tensor t = Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}, {1, 2, 3}, {4, 5, 6}}).reshape(2, 2, 3).to(e);
            assertValues(t.windowSum(new int[] {1, 2, 1}), DType.S32, shape(2, 1, 3), 5, 7, 9, 5, 7, 9);
        }
    }

    @Test
    void nxWindowMaxDilationsAndSamePadding() {
        for (Engine e : ENGINES) {
            Tensor seven = Tensor.of(1, 2, 3, 4, 5, 6, 7).to(e);
            assertValues(seven.windowMax(new int[] {2}, DEF.withDilations(4)), DType.S32, shape(3), 5, 6, 7);
            Tensor three = Tensor.of(1, 2, 3).to(e);
            assertValues(three.windowMax(new int[] {2}, DEF.withPadding(Padding.SAME)), DType.S32, shape(3), 2, 3, 3);
            Tensor f = Tensor.of(1f, 2f, 3f).to(e);
            assertArrayEquals(new float[] {2, 3, 3}, f.windowMax(new int[] {2}, DEF.withPadding(Padding.SAME)).toFloatArray());
        }
    }

    @Test
    void nxWindowScatterMaxExample() {
        for (Engine e : ENGINES) {
            Tensor t = Tensor.of(SCATTER_T).to(e);
            Tensor source = Tensor.of(new int[][] {{2, 6}, {3, 1}}).to(e);
            Tensor out = t.windowScatterMax(source, 0, new int[] {2, 3}, DEF.withStrides(2, 3));
            assertValues(out, DType.S32, shape(4, 6),
                    0, 0, 0, 0, 6, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1);
        }
    }

    @Test
    void windowScatterMinTakesTheLastTie() {
        for (Engine e : ENGINES) {
            Tensor t = Tensor.of(SCATTER_T).to(e);
            Tensor source = Tensor.of(new int[][] {{2, 6}, {3, 1}}).to(e);
            Tensor out = t.windowScatterMin(source, 0, new int[] {2, 3}, DEF.withStrides(2, 3));
            // window [[3,10,2],[3,4,2]] has two 2s: the lower one (row-major last) gets the 6
            assertValues(out, DType.S32, shape(4, 6),
                    0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0);
        }
    }

    @Test
    void scatterTypesInitAndOverlap() {
        for (Engine e : ENGINES) {
            Tensor t = Tensor.of(1f, 3f, 2f, 5f, 4f).to(e);
            Tensor src = Tensor.of(1, 2, 4, 8).to(e);
            // overlapping windows of 2 with stride 1: maxima at 3, 3, 5, 5
            Tensor out = t.windowScatterMax(src, 0.5, new int[] {2}, DEF);
            assertEquals(DType.F32, out.dtype());
            assertArrayEquals(new float[] {0.5f, 3.5f, 0.5f, 12.5f, 0.5f}, out.toFloatArray());
            Tensor typed = t.windowScatterMax(src, Tensor.of(10L).reshape(Shape.scalar()).to(e), new int[] {2}, DEF);
            assertEquals(DType.S64, typed.dtype());
            assertArrayEquals(new long[] {10, 13, 10, 22, 10}, typed.toLongArray());
            // SAME padding (total 1: lo 0, hi 1): the padded end is never selected
            Tensor same = Tensor.of(-3f, -1f, -2f).to(e).windowScatterMax(Tensor.of(1f, 1f, 1f).to(e), 0,
                    new int[] {2}, DEF.withPadding(Padding.SAME));
            assertArrayEquals(new float[] {0, 2, 1}, same.toFloatArray());
        }
    }

    @Test
    void scatterNaNWinsAndAllPaddingWindowsDropTheirValue() {
        for (Engine e : ENGINES) {
            Tensor t = Tensor.of(1f, Float.NaN, 2f, 7f).to(e);
            Tensor out = t.windowScatterMax(Tensor.of(5f, 6f).to(e), 0, new int[] {2}, DEF.withStrides(2));
            assertArrayEquals(new float[] {0, 5, 0, 6}, out.toFloatArray());
            Tensor min = t.windowScatterMin(Tensor.of(5f, 6f).to(e), 0, new int[] {2}, DEF.withStrides(2));
            assertArrayEquals(new float[] {0, 5, 6, 0}, min.toFloatArray());
            // window 3, stride 3, padding {3, 3} on one element: the first window sees only padding
            Tensor lone = Tensor.of(4f).to(e).windowScatterMax(Tensor.of(1f, 2f).to(e), 0, new int[] {3},
                    DEF.withStrides(3).withPadding(Padding.explicit(new int[] {3, 3})));
            assertArrayEquals(new float[] {2}, lone.toFloatArray());
        }
    }

    @Test
    void paddingIdentitiesAndTypes() {
        for (Engine e : ENGINES) {
            WindowOptions pad = DEF.withPadding(Padding.explicit(new int[] {1, 1}));
            Tensor s8 = Tensor.of((byte) -5, (byte) 100, (byte) 100).to(e);
            assertValues(s8.windowSum(new int[] {2}, pad), DType.S8, shape(4), -5, 95, -56, 100);
            assertValues(s8.windowMax(new int[] {2}, pad), DType.S8, shape(4), -5, 100, 100, 100);
            assertValues(s8.windowMin(new int[] {2}, pad), DType.S8, shape(4), -5, -5, 100, 100);
            assertValues(s8.windowProduct(new int[] {2}, pad), DType.S8, shape(4), -5, 12, 16, 100);
            Tensor u64 = Tensor.of(-1L, 1L).asType(DType.U64).to(e);
            assertArrayEquals(new long[] {-1L}, u64.windowMax(new int[] {2}).toLongArray());
            assertArrayEquals(new long[] {1L}, u64.windowMin(new int[] {2}).toLongArray());
            Tensor pred = Tensor.of(true, false, true, true).to(e);
            assertValues(pred.windowSum(new int[] {2}), DType.U8, shape(3), 1, 1, 2);
            assertValues(pred.windowMax(new int[] {2}), DType.PRED, shape(3), 1, 1, 1);
            assertValues(pred.windowMin(new int[] {2}), DType.PRED, shape(3), 0, 0, 1);
            Tensor f = Tensor.of(1f, Float.NaN, -0f, 0f).to(e);
            assertArrayEquals(new float[] {Float.NaN, Float.NaN, 0f}, f.windowMax(new int[] {2}).toFloatArray());
            assertEquals(Float.floatToIntBits(-0f), Float.floatToIntBits(f.windowMin(new int[] {2}).toFloatArray()[2]));
            Tensor pads = Tensor.of(2.0).to(e).windowMax(new int[] {3}, DEF.withPadding(Padding.SAME));
            assertArrayEquals(new double[] {2.0}, pads.toDoubleArray());
            for (DType t : new DType[] {DType.F16, DType.BF16, DType.F64, DType.U8, DType.S64}) {
                Tensor x = Tensor.of(1, 2, 3, 4).asType(t).to(e);
                Tensor sum = x.windowSum(new int[] {2}, DEF.withStrides(2));
                assertEquals(t, sum.dtype());
                assertArrayEquals(new double[] {3, 7}, sum.toDoubleArray());
            }
        }
    }

    @Test
    void pooledShapes() {
        for (Engine e : ENGINES) {
            Tensor x = Tensor.iota(Shape.of(2, 3, 9, 8), DType.F32).to(e);
            WindowOptions s2 = DEF.withStrides(1, 1, 2, 2);
            assertEquals(Shape.of(2, 3, 4, 4), x.windowMax(new int[] {1, 1, 2, 2}, s2).shape());
            assertEquals(Shape.of(2, 3, 5, 4), x.windowMax(new int[] {1, 1, 3, 3}, s2.withPadding(Padding.SAME)).shape());
            assertEquals(Shape.of(2, 3, 4, 3), x.windowMax(new int[] {1, 1, 3, 3}, s2).shape());
            assertEquals(Shape.of(2, 3, 5, 4), x.windowSum(new int[] {1, 1, 3, 3}, s2.withDilations(1, 1, 2, 2)
                    .withPadding(Padding.SAME)).shape());
            // an empty axis pools to an empty axis
            Tensor empty = Tensor.iota(Shape.of(0, 3, 4), DType.F32).to(e);
            assertEquals(Shape.of(0, 3, 2), empty.windowSum(new int[] {1, 1, 2}, DEF.withStrides(1, 1, 2)).shape());
            Tensor emptyScatter = empty.windowScatterMax(Tensor.iota(Shape.of(0, 3, 2), DType.F32).to(e), 0, new int[] {1, 1, 2},
                    DEF.withStrides(1, 1, 2));
            assertEquals(Shape.of(0, 3, 4), emptyScatter.shape());
            // an empty axis with padding: windows over padding only
            assertArrayEquals(new float[] {0, 0}, Tensor.iota(Shape.of(0), DType.F32).to(e).windowSum(new int[] {1},
                    DEF.withPadding(Padding.symmetric(1))).toFloatArray());
            assertEquals(Shape.of(2), Tensor.of(1f, 2f, 3f, 4f).to(e).windowMax(new int[] {4},
                    DEF.withPadding(Padding.explicit(new int[] {1, 0}))).shape());
        }
    }

    @Test
    void averagePoolingIsWindowSumOverTheWindowSize() {
        Tensor x = Tensor.iota(Shape.of(1, 1, 4, 4), DType.F32);
        Tensor avg = x.windowSum(new int[] {1, 1, 2, 2}, DEF.withStrides(1, 1, 2, 2)).divide(4);
        assertArrayEquals(new float[] {2.5f, 4.5f, 10.5f, 12.5f}, avg.toFloatArray());
    }

    @Test
    void errors() {
        Tensor x = Tensor.iota(Shape.of(1, 2, 3), DType.F32);
        assertOp("windowSum", () -> x.windowSum(new int[] {2, 1}));
        JBurnException rank = assertThrows(JBurnException.class, () -> x.windowSum(new int[] {2, 1}));
        assertTrue(rank.getMessage().contains("rank of shape (3) does not match rank of window (2)"), rank.getMessage());
        JBurnException empty = assertThrows(JBurnException.class, () -> x.windowMax(new int[] {2, 1, 1}));
        assertEquals("windowMax", empty.op());
        assertTrue(empty.getMessage().contains("window dimensions would result in empty tensor"), empty.getMessage());
        assertOp("windowMin", () -> x.windowMin(new int[] {1, 0, 1}));
        assertOp("windowSum", () -> x.windowSum(new int[] {1, 1, 1}, DEF.withStrides(1, 1)));
        assertOp("windowSum", () -> x.windowSum(new int[] {1, 1, 1}, DEF.withPadding(Padding.explicit(new int[] {0, 0}))));
        assertOp("windowSum", () -> x.windowSum(new int[] {1, 1, 1}, DEF.withPadding(Padding.symmetric(0, 0, -1))));
        assertThrows(JBurnException.class, () -> DEF.withStrides(0));
        assertThrows(JBurnException.class, () -> DEF.withDilations(1, -1));
        Tensor source = Tensor.iota(Shape.of(1, 2, 2), DType.F32);
        JBurnException shape = assertThrows(JBurnException.class,
                () -> x.windowScatterMax(source, 0, new int[] {1, 1, 1}, DEF));
        assertEquals("windowScatterMax", shape.op());
        assertTrue(shape.getMessage().contains("source shape must match valid windows in input tensor"), shape.getMessage());
        assertOp("windowScatterMin", () -> x.windowScatterMin(source, 0, new int[] {1, 1, 2}, DEF.withDilations(2)));
        assertOp("windowScatterMax", () -> x.windowScatterMax(source, Tensor.of(1f, 2f), new int[] {1, 1, 2}, DEF));
        assertOp("windowScatterMax", () -> x.windowScatterMax(source.to(ORACLE), 0, new int[] {1, 1, 2}, DEF));
    }

    private static void assertOp(String op, org.junit.jupiter.api.function.Executable call) {
        assertEquals(op, assertThrows(JBurnException.class, call).op());
    }
}
