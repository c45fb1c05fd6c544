package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.jburn.reference.ShapeTestSupport.assertValues;
import static dev.jburn.reference.ShapeTestSupport.iota;
import static dev.jburn.reference.ShapeTestSupport.shape;
import static org.junit.jupiter.api.Assertions.*;

/** transpose, broadcast, squeeze, newAxis, reverse, tile, concatenate and stack (NX-SEMANTICS §5). */
class ShapeOpsTest {
    private static Tensor m23() { return Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}}); }

    @Test
    void transposeReversesAxesByDefault() {
        Tensor t = iota(2, 3, 4);
        Tensor r = t.transpose();
        assertEquals(Shape.of(4, 3, 2), r.shape());
        long[] v = r.toLongArray();
        // r[i][j][k] = t[k][j][i] = 12k + 4j + i
        for (int i = 0; i < 4; i++) for (int j = 0; j < 3; j++) for (int k = 0; k < 2; k++) {
            assertEquals(12 * k + 4 * j + i, v[i * 6 + j * 2 + k]);
        }
        assertValues(m23().transpose(), DType.S32, shape(3, 2), 1, 4, 2, 5, 3, 6);
    }

    @Test
    void transposeWithPermutationAndNegativeAxes() {
        Tensor t = iota(2, 3, 4);
        Tensor r = t.transpose(1, -1, 0);
        assertEquals(Shape.of(3, 4, 2), r.shape());
        long[] v = r.toLongArray();
        for (int j = 0; j < 3; j++) for (int k = 0; k < 4; k++) for (int i = 0; i < 2; i++) {
            assertEquals(12 * i + 4 * j + k, v[j * 8 + k * 2 + i]);
        }
        assertValues(t.transpose(0, 1, 2), DType.S32, shape(2, 3, 4), t.toLongArray());
        assertEquals(Shape.scalar(), Tensor.scalar(5).transpose().shape());
        assertEquals(Shape.of(3, 0), Tensor.zeros(Shape.of(0, 3), DType.F32).transpose().shape());
    }

    @Test
    void transposeErrors() {
        JBurnException e = assertThrows(JBurnException.class, () -> iota(2, 3, 4, 5).transpose(0, 1, 2));
        assertEquals("transpose", e.op());
        assertTrue(e.reason().contains("expected length of permutation (3) to match rank of shape (4)"), e.reason());
        e = assertThrows(JBurnException.class, () -> iota(2, 3).transpose(1, 1));
        assertEquals("transpose", e.op());
        e = assertThrows(JBurnException.class, () -> iota(2, 3).transpose(0, 2));
        assertEquals("transpose", e.op());
    }

    @Test
    void broadcastRightAligned() {
        Tensor b = Tensor.of(1, 2, 3).broadcast(Shape.of(2, 3));
        assertValues(b, DType.S32, shape(2, 3), 1, 2, 3, 1, 2, 3);
        assertValues(Tensor.scalar(7).broadcast(Shape.of(2, 2)), DType.S32, shape(2, 2), 7, 7, 7, 7);
        assertValues(Tensor.of(new int[][] {{1}, {2}}).broadcast(Shape.of(2, 3)), DType.S32, shape(2, 3), 1, 1, 1, 2, 2, 2);
        assertEquals(Shape.of(0, 3), Tensor.of(1, 2, 3).broadcast(Shape.of(0, 3)).shape());
        JBurnException e = assertThrows(JBurnException.class, () -> iota(4, 2, 5).broadcast(Shape.of(3, 2, 5)));
        assertEquals("broadcast", e.op());
        assertEquals("cannot broadcast tensor of dimensions [4, 2, 5] to [3, 2, 5]", e.reason());
    }

    @Test
    void broadcastWithExplicitAxes() {
        Tensor b = Tensor.of(1, 2).broadcast(Shape.of(2, 3), new int[] {0});
        assertValues(b, DType.S32, shape(2, 3), 1, 1, 1, 2, 2, 2);
        Tensor c = Tensor.of(new int[][] {{1, 2}}).broadcast(Shape.of(3, 4, 2), new int[] {1, 2});
        assertEquals(Shape.of(3, 4, 2), c.shape());
        assertArrayEquals(new long[] {1, 2, 1, 2}, c.slice(new int[] {2, 0, 0}, new int[] {1, 2, 2}).toLongArray());
        assertEquals("broadcast", assertThrows(JBurnException.class, () -> Tensor.of(1, 2).broadcast(Shape.of(2, 3), new int[] {1})).op());
        assertEquals("broadcast", assertThrows(JBurnException.class, () -> iota(2, 3).broadcast(Shape.of(3, 2, 3), new int[] {2, 1})).op());
        assertEquals("broadcast", assertThrows(JBurnException.class, () -> iota(2, 3).broadcast(Shape.of(2, 3), new int[] {0})).op());
    }

    @Test
    void squeezeAndNewAxis() {
        Tensor t = iota(1, 3, 1, 2);
        assertEquals(Shape.of(3, 2), t.squeeze().shape());
        assertEquals(Shape.of(3, 1, 2), t.squeeze(0).shape());
        assertEquals(Shape.of(1, 3, 2), t.squeeze(-2).shape());
        JBurnException e = assertThrows(JBurnException.class, () -> t.squeeze(1));
        assertEquals("squeeze", e.op());
        assertTrue(e.reason().startsWith("cannot squeeze dimensions whose sizes are not 1, got 3 for dimension 1"), e.reason());
        assertEquals(Shape.scalar(), Tensor.of(5).squeeze().shape());

        assertEquals(Shape.of(2, 3, 1), m23().newAxis(-1).shape());
        assertEquals(Shape.of(1, 2, 3), m23().newAxis(0).shape());
        assertEquals(Shape.of(2, 1, 3), m23().newAxis(1).shape());
        assertEquals(Shape.of(2, 3, 1), m23().newAxis(2).shape());
        assertEquals(Shape.of(1, 2, 3), m23().newAxis(-3).shape());
        assertEquals(Shape.of(1), Tensor.scalar(1).newAxis(0).shape());
        assertEquals("newAxis", assertThrows(JBurnException.class, () -> m23().newAxis(3)).op());
        assertEquals("newAxis", assertThrows(JBurnException.class, () -> m23().newAxis(-4)).op());
    }

    @Test
    void reverseAllOrSomeAxes() {
        assertValues(m23().reverse(), DType.S32, shape(2, 3), 6, 5, 4, 3, 2, 1);
        assertValues(m23().reverse(0), DType.S32, shape(2, 3), 4, 5, 6, 1, 2, 3);
        assertValues(m23().reverse(-1), DType.S32, shape(2, 3), 3, 2, 1, 6, 5, 4);
        assertValues(Tensor.scalar(3).reverse(), DType.S32, shape(), 3);
        assertEquals(Shape.of(0, 2), Tensor.zeros(Shape.of(0, 2), DType.U8).reverse().shape());
        assertEquals("reverse", assertThrows(JBurnException.class, () -> m23().reverse(2)).op());
    }

    @Test
    void tileFollowsNx() {
        Tensor t = Tensor.of(new int[][] {{1, 2}, {3, 4}});
        assertValues(t.tile(2), DType.S32, shape(2, 4), 1, 2, 1, 2, 3, 4, 3, 4);
        Tensor v = Tensor.of(1, 2, 3, 4).tile(4, 1);
        assertValues(v, DType.S32, shape(4, 4), 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4);
        assertValues(t.tile(2, 1), DType.S32, shape(4, 2), 1, 2, 3, 4, 1, 2, 3, 4);
        assertValues(Tensor.scalar(9).tile(3), DType.S32, shape(3), 9, 9, 9);
        assertValues(t.tile(), DType.S32, shape(2, 2), 1, 2, 3, 4);
        assertEquals(Shape.of(2, 0), t.tile(1, 0).shape());
        assertEquals("tile", assertThrows(JBurnException.class, () -> t.tile(-1)).op());
    }

    @Test
    void concatenateMergesTypesAndChecksShapes() {
        Tensor a = Tensor.of(new int[][] {{1, 2}, {3, 4}});
        Tensor b = Tensor.of(new int[][] {{5, 6}});
        assertValues(Tensor.concatenate(List.of(a, b), 0), DType.S32, shape(3, 2), 1, 2, 3, 4, 5, 6);
        assertValues(Tensor.concatenate(1, a, a), DType.S32, shape(2, 4), 1, 2, 1, 2, 3, 4, 3, 4);
        Tensor mixed = Tensor.concatenate(0, Tensor.of(1, 2).asType(DType.U8), Tensor.of(3, -4).asType(DType.S8), Tensor.of(5.5f));
        assertEquals(DType.F32, mixed.dtype());
        assertArrayEquals(new double[] {1, 2, 3, -4, 5.5}, mixed.toDoubleArray());
        Tensor us = Tensor.concatenate(0, Tensor.of(200).asType(DType.U8), Tensor.of(-1).asType(DType.S8));
        assertValues(us, DType.S16, shape(2), 200, -1);
        assertValues(Tensor.concatenate(0, Tensor.of(new int[0]), Tensor.of(7)), DType.S32, shape(1), 7);
        assertSame(DType.S32, Tensor.concatenate(List.of(a), 0).dtype());

        JBurnException e = assertThrows(JBurnException.class, () -> Tensor.concatenate(List.of(), 0));
        assertEquals("concatenate", e.op());
        assertEquals("no tensors were given to concatenate", e.reason());
        e = assertThrows(JBurnException.class, () -> Tensor.concatenate(0, iota(4, 3, 2), iota(4, 2, 2)));
        assertEquals("expected all shapes to match [*, 3, 2], got unmatching shape: [4, 2, 2]", e.reason());
        e = assertThrows(JBurnException.class, () -> Tensor.concatenate(0, Tensor.scalar(1), Tensor.scalar(2)));
        assertEquals("concatenate", e.op());
        e = assertThrows(JBurnException.class, () -> Tensor.concatenate(0, Tensor.of(1), Tensor.of(1).to(ShapeTestSupport.ORACLE)));
        assertEquals("concatenate", e.op());
    }

    @Test
    void stackInsertsAnAxis() {
        Tensor a = Tensor.of(1, 2, 3), b = Tensor.of(4, 5, 6);
        assertValues(Tensor.stack(0, a, b), DType.S32, shape(2, 3), 1, 2, 3, 4, 5, 6);
        assertValues(Tensor.stack(List.of(a, b), 1), DType.S32, shape(3, 2), 1, 4, 2, 5, 3, 6);
        assertValues(Tensor.stack(-1, a, b), DType.S32, shape(3, 2), 1, 4, 2, 5, 3, 6);
        assertValues(Tensor.stack(0, a), DType.S32, shape(1, 3), 1, 2, 3);
        assertValues(Tensor.stack(0, Tensor.scalar(1), Tensor.scalar(2)), DType.S32, shape(2), 1, 2);
        JBurnException e = assertThrows(JBurnException.class, () -> Tensor.stack(0, a, Tensor.of(1, 2)));
        assertEquals("stack", e.op());
        assertTrue(e.reason().startsWith("can only stack tensors of the same shape, got distinct shapes: "), e.reason());
        assertEquals("stack", assertThrows(JBurnException.class, () -> Tensor.stack(2, a, b)).op());
    }

    @Test
    void everyWidthMoves() {
        for (DType t : DType.values()) {
            Tensor x = iota(2, 3).asType(t);
            long[] v = x.toLongArray();
            assertEquals(t, x.transpose().dtype());
            assertArrayEquals(new long[] {v[0], v[3], v[1], v[4], v[2], v[5]}, x.transpose().toLongArray(), t.toString());
            assertArrayEquals(new long[] {v[2], v[1], v[0], v[5], v[4], v[3]}, x.reverse(1).toLongArray(), t.toString());
            assertArrayEquals(new long[] {v[0], v[1], v[2], v[3], v[4], v[5], v[0], v[1]},
                    Tensor.concatenate(0, x.reshape(6), x.reshape(6).slice(new int[] {0}, new int[] {2})).toLongArray(), t.toString());
            assertArrayEquals(new long[] {v[1], v[2], v[1], v[2]}, x.slice(new int[] {0, 1}, new int[] {1, 2}).tile(2).toLongArray());
        }
    }
}
