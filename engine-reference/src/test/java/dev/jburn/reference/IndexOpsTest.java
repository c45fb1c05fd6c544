package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** take, takeAlongAxis, gather, indexedAdd and indexedPut (NX-SEMANTICS §5). */
class IndexOpsTest {
    private static Tensor m(int[][] rows) { return Tensor.of(rows); }

    @Test
    void takeAlongAxisZeroByDefault() {
        Tensor t = m(new int[][] {{1, 2}, {3, 4}});
        assertValues(t.take(Tensor.of(1, 0, 1)), DType.S32, shape(3, 2), 3, 4, 1, 2, 3, 4);
        assertValues(t.take(Tensor.of(1, 0, 1), 1), DType.S32, shape(2, 3), 2, 1, 2, 4, 3, 4);
        assertValues(t.take(Tensor.scalar(1)), DType.S32, shape(2), 3, 4);
        assertValues(t.take(m(new int[][] {{0, 1}, {1, 1}}), -1), DType.S32, shape(2, 2, 2), 1, 2, 2, 2, 3, 4, 4, 4);
        // t [2,3,4] taking [5] on axis 1 -> [2,5,4]
        Tensor x = iota(2, 3, 4);
        Tensor r = x.take(Tensor.of(2, 0, 1, 1, 2), 1);
        assertEquals(Shape.of(2, 5, 4), r.shape());
        long[] v = r.toLongArray();
        int[] idx = {2, 0, 1, 1, 2};
        for (int i = 0; i < 2; i++) for (int j = 0; j < 5; j++) for (int k = 0; k < 4; k++) {
            assertEquals(12 * i + 4 * idx[j] + k, v[i * 20 + j * 4 + k]);
        }
        assertEquals(Shape.of(0, 2), t.take(Tensor.of(new int[0])).shape());
    }

    @Test
    void takeErrors() {
        Tensor t = m(new int[][] {{1, 2}, {3, 4}});
        JBurnException e = assertThrows(JBurnException.class, () -> t.take(Tensor.of(2)));
        assertEquals("take", e.op());
        assertEquals("index 2 is out of bounds for axis 0 in shape [2, 2]", e.reason());
        e = assertThrows(JBurnException.class, () -> t.take(Tensor.of(-1)));
        assertEquals("take", e.op());
        e = assertThrows(JBurnException.class, () -> t.take(Tensor.of(1.0f)));
        assertEquals("indices must be an integer tensor, got f32", e.reason());
        assertEquals("take", assertThrows(JBurnException.class, () -> t.take(Tensor.of(0), 2)).op());
    }

    @Test
    void takeAlongAxisExample() {
        Tensor t = m(new int[][] {{1, 2, 3}, {4, 5, 6}});
        Tensor idx = m(new int[][] {{0, 0, 2, 2, 1, 1}, {2, 2, 1, 1, 0, 0}});
        assertValues(t.takeAlongAxis(idx, 1), DType.S32, shape(2, 6), 1, 1, 3, 3, 2, 2, 6, 6, 5, 5, 4, 4);
        assertValues(t.takeAlongAxis(m(new int[][] {{1, 0, 1}}), 0), DType.S32, shape(1, 3), 4, 2, 6);
        assertValues(Tensor.of(5, 6, 7).takeAlongAxis(Tensor.of(2, 2).asType(DType.U8), 0), DType.S32, shape(2), 7, 7);
        JBurnException e = assertThrows(JBurnException.class, () -> t.takeAlongAxis(m(new int[][] {{3}, {0}}), 1));
        assertEquals("takeAlongAxis", e.op());
        assertEquals("index 3 is out of bounds for axis 1 in shape [2, 3]", e.reason());
        assertEquals("takeAlongAxis", assertThrows(JBurnException.class, () -> t.takeAlongAxis(Tensor.of(0), 1)).op());
        assertEquals("takeAlongAxis", assertThrows(JBurnException.class, () -> t.takeAlongAxis(m(new int[][] {{0}}), 1)).op());
    }

    @Test
    void gatherExamples() {
        Tensor t = m(new int[][] {{1, 2}, {3, 4}});
        assertValues(t.gather(m(new int[][] {{1, 1}, {0, 1}, {1, 0}})), DType.S32, shape(3), 4, 2, 3);
        Tensor u = m(new int[][] {{1, 2, 3}, {4, 5, 6}});
        assertValues(u.gather(m(new int[][] {{1}, {0}, {2}, {1}}), new int[] {1}), DType.S32, shape(4, 2), 2, 5, 1, 4, 3, 6, 2, 5);
        // Partial index: rows of a 3-D tensor, indices [2,1,1] -> [2,1,3,4] slices of [3,4]
        Tensor x = iota(2, 3, 4);
        Tensor g = x.gather(Tensor.fromArray(new long[][][] {{{1}}, {{0}}}));
        assertEquals(Shape.of(2, 1, 3, 4), g.shape());
        long[] v = g.toLongArray();
        assertEquals(12, v[0]);
        assertEquals(0, v[12]);
        assertValues(x.gather(Tensor.of(1, 2, 3)), DType.S32, shape(), 23);
        assertValues(x.gather(Tensor.of(1, 3), new int[] {0, 2}), DType.S32, shape(3), 15, 19, 23);
        assertEquals(Shape.of(0, 4), x.gather(Tensor.zeros(Shape.of(0, 2), DType.S64)).shape());
    }

    @Test
    void gatherErrors() {
        Tensor t = m(new int[][] {{1, 2}, {3, 4}});
        JBurnException e = assertThrows(JBurnException.class, () -> Tensor.of(1, 2).gather(m(new int[][] {{2}})));
        assertEquals("gather", e.op());
        assertEquals("index 2 is out of bounds for axis 0 in shape [2]", e.reason());
        e = assertThrows(JBurnException.class, () -> t.gather(Tensor.scalar(0)));
        assertEquals("expected indices rank to be at least 1, got: 0", e.reason());
        e = assertThrows(JBurnException.class, () -> t.gather(Tensor.of(0.0)));
        assertEquals("indices must be an integer tensor, got f64", e.reason());
        assertEquals("gather", assertThrows(JBurnException.class, () -> t.gather(Tensor.of(0, 0, 0))).op());
        assertEquals("gather", assertThrows(JBurnException.class, () -> t.gather(Tensor.of(0), new int[] {0, 1})).op());
        // U64 indices above 2^63 are out of range, printed unsigned
        e = assertThrows(JBurnException.class, () -> t.gather(Tensor.scalar(-1L, DType.U64).reshape(1)));
        assertEquals("index 18446744073709551615 is out of bounds for axis 0 in shape [2, 2]", e.reason());
    }

    @Test
    void indexedAddExamples() {
        Tensor t = iota(1, 2, 3);
        Tensor idx = m(new int[][] {{0, 0, 0}, {0, 1, 1}, {0, 0, 0}, {0, 0, 2}, {0, 1, 2}});
        assertValues(t.indexedAdd(idx, Tensor.of(1, 3, 1, -2, 5)), DType.S32, shape(1, 2, 3), 2, 1, 0, 3, 7, 10);
        assertValues(Tensor.of(1).indexedAdd(m(new int[][] {{0}, {0}}), Tensor.of(1L, 1L)), DType.S64, shape(1), 3);
        // Slices: add rows into a matrix
        Tensor z = Tensor.zeros(Shape.of(3, 2), DType.F32);
        Tensor r = z.indexedAdd(m(new int[][] {{2}, {0}, {2}}), Tensor.of(new float[][] {{1, 2}, {3, 4}, {5, 6}}));
        assertArrayEquals(new double[] {3, 4, 0, 0, 6, 8}, r.toDoubleArray());
        // Axes: columns
        Tensor c = Tensor.zeros(Shape.of(2, 3), DType.S32).indexedAdd(m(new int[][] {{1}, {1}}), m(new int[][] {{1, 2}, {10, 20}}), new int[] {1});
        assertValues(c, DType.S32, shape(2, 3), 0, 11, 0, 0, 22, 0);
        // Rank-1 index with a scalar update
        assertValues(iota(2, 2).indexedAdd(Tensor.of(1, 0), Tensor.scalar(10)), DType.S32, shape(2, 2), 0, 1, 12, 3);
    }

    @Test
    void indexedAddAccumulatesInTargetType() {
        assertValues(Tensor.of(250).asType(DType.U8).indexedAdd(m(new int[][] {{0}, {0}}), Tensor.of(5, 5).asType(DType.U8)),
                DType.U8, shape(1), 4);
        assertValues(Tensor.of(1, 2).indexedAdd(m(new int[][] {{0}}), Tensor.of(0.5f)), DType.F32, shape(2), 1, 2);
        assertArrayEquals(new double[] {1.5, 2}, Tensor.of(1, 2).indexedAdd(m(new int[][] {{0}}), Tensor.of(0.5f)).toDoubleArray());
        Tensor h = Tensor.of(1f, 2f).asType(DType.F16).indexedAdd(m(new int[][] {{1}, {1}}), Tensor.of(0.25f, 0.25f).asType(DType.F16));
        assertEquals(DType.F16, h.dtype());
        assertArrayEquals(new double[] {1, 2.5}, h.toDoubleArray());
        Tensor n = Tensor.of(1.0, 2.0).indexedAdd(m(new int[][] {{0}}), Tensor.of(Double.NaN));
        assertTrue(Double.isNaN(n.toDoubleArray()[0]));
    }

    @Test
    void indexedPutLastWriteWins() {
        assertValues(Tensor.zeros(Shape.of(3), DType.S8).indexedPut(m(new int[][] {{1}, {1}, {2}}), Tensor.of(7, 8, 9).asType(DType.S8)),
                DType.S8, shape(3), 0, 8, 9);
        Tensor p = iota(2, 2).indexedPut(m(new int[][] {{0, 1}}), Tensor.of(2.5));
        assertEquals(DType.F64, p.dtype());
        assertArrayEquals(new double[] {0, 2.5, 2, 3}, p.toDoubleArray());
        assertValues(iota(2, 2).indexedPut(Tensor.zeros(Shape.of(0, 2), DType.S32), Tensor.zeros(Shape.of(0), DType.S32)),
                DType.S32, shape(2, 2), 0, 1, 2, 3);
    }

    @Test
    void indexedErrors() {
        Tensor t = iota(2, 2);
        JBurnException e = assertThrows(JBurnException.class, () -> t.indexedAdd(m(new int[][] {{2, 0}}), Tensor.of(1)));
        assertEquals("indexedAdd", e.op());
        assertEquals("index 2 is out of bounds for axis 0 in shape [2, 2]", e.reason());
        e = assertThrows(JBurnException.class, () -> t.indexedPut(m(new int[][] {{0, -1}}), Tensor.of(1)));
        assertEquals("indexedPut", e.op());
        e = assertThrows(JBurnException.class, () -> t.indexedAdd(iota(1, 1, 2), Tensor.of(1)));
        assertEquals("indices must be a rank 1 or 2 tensor, got: 3 (shape [1, 1, 2])", e.reason());
        e = assertThrows(JBurnException.class, () -> t.indexedAdd(m(new int[][] {{0, 0}}), Tensor.of(1, 2)));
        assertEquals("expected the leading axis of indices [1, 2] and leading axis of updates [2] to match", e.reason());
        e = assertThrows(JBurnException.class, () -> t.indexedAdd(m(new int[][] {{0, 0}}), Tensor.of(1.0f).reshape(1, 1)));
        assertEquals("indexedAdd", e.op());
        e = assertThrows(JBurnException.class, () -> t.indexedAdd(Tensor.of(0.0f, 0.0f).reshape(1, 2), Tensor.of(1)));
        assertEquals("indices must be an integer tensor, got f32", e.reason());
        assertEquals("indexedAdd", assertThrows(JBurnException.class, () -> t.indexedAdd(m(new int[][] {{0, 0, 0}}), Tensor.of(1))).op());
    }

    @Test
    void everyWidthAndPathsAgree() {
        Random rnd = new Random(7);
        for (DType type : DType.values()) {
            Tensor x = random(rnd, type, 5, 7, 3);
            long[] idx = new long[40 * 2];
            for (int i = 0; i < idx.length; i += 2) {
                idx[i] = rnd.nextInt(5);
                idx[i + 1] = rnd.nextInt(3);
            }
            Tensor indices = Tensor.of(idx).reshape(40, 2);
            Tensor upd = random(rnd, type, 40, 7);
            for (var e : java.util.List.of(ORACLE, PARALLEL)) {
                Tensor xe = x.to(e), ie = indices.to(e), ue = upd.to(e);
                Tensor g = xe.gather(ie, new int[] {0, 2});
                assertSameBits(x.gather(indices, new int[] {0, 2}), g);
                assertSameBits(x.indexedAdd(indices, upd, new int[] {0, 2}), xe.indexedAdd(ie, ue, new int[] {0, 2}));
                assertSameBits(x.indexedPut(indices, upd, new int[] {0, 2}), xe.indexedPut(ie, ue, new int[] {0, 2}));
                assertSameBits(x.take(Tensor.of(4, 0, 4), 2 - 1), xe.take(Tensor.of(4, 0, 4).to(e), 1));
            }
            // a gathered element equals the source element
            long[] xv = x.toLongArray(), gv = x.gather(indices, new int[] {0, 2}).toLongArray();
            for (int r = 0; r < 40; r++) for (int j = 0; j < 7; j++) {
                assertEquals(xv[(int) (idx[2 * r] * 21 + j * 3 + idx[2 * r + 1])], gv[r * 7 + j], type.toString());
            }
        }
    }
}
