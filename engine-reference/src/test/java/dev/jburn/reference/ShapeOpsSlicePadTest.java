package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static dev.jburn.reference.ShapeTestSupport.assertValues;
import static dev.jburn.reference.ShapeTestSupport.iota;
import static dev.jburn.reference.ShapeTestSupport.shape;
import static org.junit.jupiter.api.Assertions.*;

/** slice, putSlice and pad with the NX-SEMANTICS §5 examples, clamping, crops and errors. */
class ShapeOpsSlicePadTest {
    private static int[] a(int... v) { return v; }

    @Test
    void sliceClampsStarts() {
        assertValues(iota(3, 3).slice(a(2, 2), a(2, 2)), DType.S32, shape(2, 2), 4, 5, 7, 8);
        assertValues(iota(3, 3).slice(a(-5, 1), a(1, 2)), DType.S32, shape(1, 2), 1, 2);
        assertValues(iota(5).slice(a(100), a(2)), DType.S32, shape(2), 3, 4);
    }

    @Test
    void sliceWithStrides() {
        assertValues(Tensor.of(1, 2, 3, 4, 5, 6).slice(a(0), a(6), a(2)), DType.S32, shape(3), 1, 3, 5);
        assertValues(iota(2, 15, 30).slice(a(0, 4, 11), a(2, 3, 9), a(2, 1, 3)), DType.S32, shape(1, 3, 3),
                131, 134, 137, 161, 164, 167, 191, 194, 197);
        assertValues(iota(7).slice(a(1), a(5), a(2)), DType.S32, shape(3), 1, 3, 5);
        assertValues(iota(7).slice(a(0), a(7), a(10)), DType.S32, shape(1), 0);
    }

    @Test
    void sliceWholeAndEmptyAndScalar() {
        Tensor t = iota(2, 3);
        assertValues(t.slice(a(0, 0), a(2, 3)), DType.S32, shape(2, 3), 0, 1, 2, 3, 4, 5);
        assertEquals(Shape.of(0, 2), Tensor.zeros(Shape.of(0, 3), DType.F32).slice(a(0, 1), a(0, 2)).shape());
        assertValues(Tensor.scalar(4).slice(a(), a()), DType.S32, shape(), 4);
    }

    @Test
    void sliceErrors() {
        JBurnException e = assertThrows(JBurnException.class, () -> iota(2).slice(a(0), a(3)));
        assertEquals("slice", e.op());
        assertTrue(e.reason().startsWith("length at axis 0 must be less than axis size of 2, got: 3"), e.reason());
        assertEquals("slice", assertThrows(JBurnException.class, () -> iota(2).slice(a(0), a(0))).op());
        assertEquals("slice", assertThrows(JBurnException.class, () -> iota(2, 2).slice(a(0), a(1))).op());
        assertEquals("slice", assertThrows(JBurnException.class, () -> iota(4).slice(a(0), a(2), a(0))).op());
    }

    @Test
    void putSliceClampsAndMergesTypes() {
        Tensor t = Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}});
        Tensor r = t.putSlice(a(1, 1), Tensor.of(new int[][] {{7, 8}, {9, 10}}));
        assertValues(r, DType.S32, shape(2, 3), 1, 7, 8, 4, 9, 10);
        Tensor f = t.putSlice(a(0, 5), Tensor.of(new float[][] {{0.5f}}));
        assertEquals(DType.F32, f.dtype());
        assertArrayEquals(new double[] {1, 2, 0.5, 4, 5, 6}, f.toDoubleArray());
        assertValues(t.putSlice(a(0, 0), Tensor.zeros(Shape.of(0, 0), DType.S32)), DType.S32, shape(2, 3), 1, 2, 3, 4, 5, 6);
        assertValues(Tensor.of(1, 2, 3).asType(DType.U8).putSlice(a(-3), Tensor.of(-1).asType(DType.S8)),
                DType.S16, shape(3), -1, 2, 3);
        assertValues(Tensor.scalar(1).putSlice(a(), Tensor.scalar(2)), DType.S32, shape(), 2);
        JBurnException e = assertThrows(JBurnException.class, () -> t.putSlice(a(0, 0), iota(3, 1)));
        assertEquals("putSlice", e.op());
        assertEquals("putSlice", assertThrows(JBurnException.class, () -> t.putSlice(a(0), iota(1, 1))).op());
        assertEquals("putSlice", assertThrows(JBurnException.class, () -> t.putSlice(a(0, 0), iota(1))).op());
    }

    @Test
    void padExamples() {
        assertValues(Tensor.of(1, 2, 3).pad(0, new int[][] {{1, 1, 0}}), DType.S32, shape(5), 0, 1, 2, 3, 0);
        assertValues(Tensor.of(0, 1, 2, 3, 0).pad(0, new int[][] {{-1, -1, 0}}), DType.S32, shape(3), 1, 2, 3);
        assertValues(Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}}).pad(0, new int[][] {{0, 0, 1}, {0, 0, 1}}),
                DType.S32, shape(3, 5), 1, 0, 2, 0, 3, 0, 0, 0, 0, 0, 4, 0, 5, 0, 6);
        // The moduledoc sketch prints 11 elements; the formula lo + hi + n + (n-1)*interior gives 12.
        assertValues(Tensor.of(10, 20, 30).pad(0, new int[][] {{2, 1, 3}}), DType.S32, shape(12),
                0, 0, 10, 0, 0, 0, 20, 0, 0, 0, 30, 0);
    }

    @Test
    void padNegativeCropsAfterInterior() {
        // interior first: [1,9,2,9,3]; then lo -2 and hi -1 crop it to [2,9]
        assertValues(Tensor.of(1, 2, 3).pad(9, new int[][] {{-2, -1, 1}}), DType.S32, shape(2), 2, 9);
        assertValues(Tensor.of(1, 2, 3).pad(9, new int[][] {{-1, 0, 1}}), DType.S32, shape(4), 9, 2, 9, 3);
        assertValues(Tensor.of(1, 2, 3).pad(9, new int[][] {{-3, 1, 0}}), DType.S32, shape(1), 9);
        assertValues(Tensor.of(1, 2, 3).pad(9, new int[][] {{-3, 0, 0}}), DType.S32, shape(0));
        assertValues(Tensor.of(new int[][] {{1, 2}, {3, 4}}).pad(7, new int[][] {{1, -1, 0}, {-1, 2, 1}}), DType.S32, shape(2, 4),
                7, 7, 7, 7, 7, 2, 7, 7);
    }

    @Test
    void padTypesFollowWeakScalars() {
        Tensor u8 = Tensor.of(1, 2).asType(DType.U8);
        assertEquals(DType.U8, u8.pad(0, new int[][] {{1, 0, 0}}).dtype());
        assertValues(u8.pad(256, new int[][] {{1, 0, 0}}), DType.U16, shape(3), 256, 1, 2);
        assertValues(u8.pad(-1, new int[][] {{0, 1, 0}}), DType.S16, shape(3), 1, 2, -1);
        Tensor f = Tensor.of(1, 2).pad(1.5, new int[][] {{1, 0, 0}});
        assertEquals(DType.F32, f.dtype());
        assertArrayEquals(new double[] {1.5, 1, 2}, f.toDoubleArray());
        Tensor nan = Tensor.of(1.0, 2.0).pad(Double.NaN, new int[][] {{0, 1, 0}});
        assertEquals(DType.F64, nan.dtype());
        assertTrue(Double.isNaN(nan.toDoubleArray()[2]));
        Tensor strong = Tensor.of(1, 2).asType(DType.U8).pad(Tensor.scalar(-1), new int[][] {{1, 0, 0}});
        assertValues(strong, DType.S32, shape(3), -1, 1, 2);
        Tensor bf = Tensor.of(1.0f, 2.0f).asType(DType.BF16).pad(3, new int[][] {{0, 0, 2}});
        assertEquals(DType.BF16, bf.dtype());
        assertArrayEquals(new double[] {1, 3, 3, 2}, bf.toDoubleArray());
    }

    @Test
    void padEmptyAndScalar() {
        assertValues(Tensor.of(new int[0]).pad(5, new int[][] {{2, 1, 3}}), DType.S32, shape(3), 5, 5, 5);
        assertValues(Tensor.scalar(4).pad(0, new int[0][]), DType.S32, shape(), 4);
        assertEquals(Shape.of(4, 0), Tensor.zeros(Shape.of(2, 0), DType.F32).pad(0, new int[][] {{1, 1, 0}, {0, 0, 0}}).shape());
    }

    @Test
    void padErrors() {
        JBurnException e = assertThrows(JBurnException.class, () -> Tensor.of(1, 2).pad(0, new int[][] {{1, 1, 0}, {0, 0, 0}}));
        assertEquals("pad", e.op());
        assertTrue(e.reason().startsWith("invalid padding configuration, rank of padding configuration and shape must match"));
        e = assertThrows(JBurnException.class, () -> Tensor.of(1, 2).pad(0, new int[][] {{0, 0, -1}}));
        assertTrue(e.reason().startsWith("invalid padding configuration, interior padding must be non-negative"));
        assertEquals("pad", assertThrows(JBurnException.class, () -> Tensor.of(1, 2).pad(0, new int[][] {{-2, -1, 0}})).op());
        assertEquals("pad", assertThrows(JBurnException.class, () -> Tensor.of(1, 2).pad(0, new int[][] {{0, 0}})).op());
        assertEquals("pad", assertThrows(JBurnException.class, () -> Tensor.of(1, 2).pad(Tensor.of(1, 2), new int[][] {{0, 0, 0}})).op());
    }
}
