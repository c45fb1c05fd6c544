package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** dot/2 and dot/6 (NX-SEMANTICS §6): values, shapes, types and error texts. */
class DotTest {
    private static final int[] NONE = {};
    private static final Tensor A = Tensor.of(new int[][] {{1, 2}, {3, 4}});
    private static final Tensor B = Tensor.of(new int[][] {{10, 20}, {30, 40}});

    private static int[] a(int... v) { return v; }

    @Test
    void dot6Examples() {
        assertValues(A.dot(a(0), NONE, B, a(0), NONE), DType.S32, shape(2, 2), 100, 140, 140, 200);
        assertValues(A.dot(a(1), NONE, B, a(1), NONE), DType.S32, shape(2, 2), 50, 110, 110, 250);
        Tensor outer = A.dot(NONE, NONE, B, NONE, NONE);
        assertEquals(Shape.of(2, 2, 2, 2), outer.shape());
        assertArrayEquals(new long[] {10, 20, 30, 40, 20, 40, 60, 80, 30, 60, 90, 120, 40, 80, 120, 160}, outer.toLongArray());
        assertValues(A.dot(a(0, 1), NONE, B, a(0, 1), NONE), DType.S32, shape(), 300);
        assertValues(A.dot(a(-1), NONE, B, a(-2), NONE), DType.S32, shape(2, 2), 70, 100, 150, 220);
    }

    @Test
    void batchedExamples() {
        Tensor u = Tensor.of(1, 1, 2, 2).reshape(2, 1, 2);
        Tensor v = Tensor.of(3, 3, 4, 4).reshape(2, 2, 1);
        assertValues(u.dot(a(2), a(0), v, a(1), a(0)), DType.S32, shape(2, 1, 1), 6, 16);
        Tensor t1 = Tensor.of(1, 2, 3, 4, 5, 6, 7, 8).reshape(2, 2, 2);
        Tensor t2 = Tensor.of(0, 2, 4, 6, 8, 10, 12, 14).reshape(2, 2, 2);
        assertValues(t1.dot(a(2), a(0), t2, a(1), a(0)), DType.S32, shape(2, 2, 2), 8, 14, 16, 30, 112, 134, 152, 182);
        // batch with several free axes on both sides: [2,3,4]·[2,4,5] -> [2,3,5]; and no contraction: [2,3]·[2,4] -> [2,3,4]
        assertEquals(Shape.of(2, 3, 5), iota(2, 3, 4).dot(a(2), a(0), iota(2, 4, 5), a(1), a(0)).shape());
        Tensor outerBatched = iota(2, 3).dot(NONE, a(0), iota(2, 4), NONE, a(0));
        assertEquals(Shape.of(2, 3, 4), outerBatched.shape());
        assertEquals(5 * 7, outerBatched.toLongArray()[2 * 12 - 1]);
    }

    @Test
    void dot2Rules() {
        // scalar multiplies
        assertValues(Tensor.scalar(3).dot(A), DType.S32, shape(2, 2), 3, 6, 9, 12);
        assertValues(A.dot(Tensor.scalar(2)), DType.S32, shape(2, 2), 2, 4, 6, 8);
        Tensor mixed = Tensor.scalar(2).dot(Tensor.scalar(2.0f));
        assertEquals(DType.F32, mixed.dtype());
        assertEquals(4.0, mixed.item());
        // vector · vector
        assertValues(Tensor.of(1, 2, 3).dot(Tensor.of(4, 5, 6)), DType.S32, shape(), 32);
        // matrix · vector, vector · matrix, matrix · matrix
        assertValues(A.dot(Tensor.of(1, 1)), DType.S32, shape(2), 3, 7);
        assertValues(Tensor.of(1, 1).dot(A), DType.S32, shape(2), 4, 6);
        assertValues(A.dot(B), DType.S32, shape(2, 2), 70, 100, 150, 220);
        // {k}·{..,k,m}: axis 0 of a with the second-to-last of b
        assertValues(Tensor.of(1, 2).dot(iota(3, 2, 2)), DType.S32, shape(3, 2), 4, 7, 16, 19, 28, 31);
        assertEquals(Shape.of(2, 3, 1, 3), iota(2, 3, 3).dot(iota(1, 3, 3)).shape());
    }

    @Test
    void typesMergeWithoutWidening() {
        Tensor s8 = Tensor.of(100, 100).asType(DType.S8);
        assertValues(s8.dot(s8), DType.S8, shape(), (byte) 20000);
        assertValues(Tensor.of(200, 1).asType(DType.U8).dot(Tensor.of(1, -1).asType(DType.S8)), DType.S16, shape(), 199);
        Tensor f = Tensor.of(1, 2).dot(Tensor.of(0.5f, 0.25f));
        assertEquals(DType.F32, f.dtype());
        assertEquals(1.0, f.item());
        Tensor h = Tensor.of(1f, 2f).asType(DType.F16).dot(Tensor.of(3f, 4f).asType(DType.BF16));
        assertEquals(DType.F32, h.dtype());
        assertEquals(11.0, h.item());
        Tensor u64 = Tensor.scalar(-1L, DType.U64).reshape(1).dot(Tensor.scalar(2L, DType.U64).reshape(1));
        assertValues(u64, DType.U64, shape(), -2);
        Tensor p = Tensor.of(true, false).dot(Tensor.of(true, true));
        assertValues(p, DType.PRED, shape(), 1);
    }

    @Test
    void floatSpecialsPropagate() {
        Tensor x = Tensor.of(1.0f, Float.POSITIVE_INFINITY);
        assertTrue(Double.isNaN(x.dot(Tensor.of(1.0f, 0.0f)).toDoubleArray()[0]));
        assertEquals(Double.NEGATIVE_INFINITY, x.dot(Tensor.of(1.0f, -2.0f)).toDoubleArray()[0]);
        assertTrue(Double.isNaN(Tensor.of(Double.NaN, 1).dot(Tensor.of(0.0, 1)).toDoubleArray()[0]));
        // -0 * 1 accumulates onto +0
        assertEquals(0L, Double.doubleToLongBits(Tensor.of(-0.0).dot(Tensor.of(1.0)).toDoubleArray()[0]));
    }

    @Test
    void emptyDims() {
        Tensor z = Tensor.zeros(Shape.of(3, 0), DType.F32).dot(Tensor.zeros(Shape.of(0, 4), DType.F32));
        assertEquals(Shape.of(3, 4), z.shape());
        assertArrayEquals(new double[12], z.toDoubleArray());
        Tensor ints = Tensor.zeros(Shape.of(2, 0), DType.S64).dot(Tensor.zeros(Shape.of(0), DType.S64));
        assertValues(ints, DType.S64, shape(2), 0, 0);
        assertEquals(Shape.of(0, 4), Tensor.zeros(Shape.of(0, 2), DType.F64).dot(Tensor.zeros(Shape.of(2, 4), DType.F64)).shape());
        for (DType t : DType.values()) {
            Tensor e = Tensor.zeros(Shape.of(2, 0), t).dot(Tensor.zeros(Shape.of(0, 3), t));
            assertEquals(t, e.dtype());
            assertArrayEquals(new long[6], e.toLongArray(), t.toString());
        }
    }

    @Test
    void errors() {
        JBurnException e = assertThrows(JBurnException.class, () -> iota(3).dot(iota(2)));
        assertEquals("dot", e.op());
        assertTrue(e.reason().startsWith("dot/zip expects shapes to be compatible, dimension 0 of left-side (3) does not equal dimension 0 of right-side (2)"), e.reason());
        e = assertThrows(JBurnException.class, () -> iota(2, 2).dot(a(1), a(0), iota(2, 2), a(1), NONE));
        assertEquals("right tensor must be batched if left tensor is batched", e.reason());
        e = assertThrows(JBurnException.class, () -> iota(2, 2).dot(a(1), NONE, iota(2, 2), a(1), a(0)));
        assertEquals("left tensor must be batched if right tensor is batched", e.reason());
        e = assertThrows(JBurnException.class, () -> iota(2, 2).dot(a(0), a(1), iota(2, 2), a(1), a(0)));
        assertEquals("invalid dot batch axis for the left tensor, batch axes must be successive dimensions starting from 0, got [1]", e.reason());
        e = assertThrows(JBurnException.class, () -> iota(2, 2).dot(a(0), a(0), iota(2, 2), a(1), a(0)));
        assertEquals("dot", e.op());
        e = assertThrows(JBurnException.class, () -> iota(2, 2).dot(a(1), a(0), iota(3, 2), a(1), a(0)));
        assertEquals("dot", e.op());
        e = assertThrows(JBurnException.class, () -> iota(2, 2).dot(a(0, 1), NONE, iota(2, 2), a(0), NONE));
        assertEquals("dot", e.op());
        e = assertThrows(JBurnException.class, () -> iota(2, 2).dot(a(2), NONE, iota(2, 2), a(0), NONE));
        assertEquals("dot", e.op());
        e = assertThrows(JBurnException.class, () -> iota(2).dot(iota(2).to(ORACLE)));
        assertEquals("dot", e.op());
    }
}
