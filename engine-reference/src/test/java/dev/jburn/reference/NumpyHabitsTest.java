package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** What a numpy user writes in the first hour works as they expect (issue 20), and hostile sizes fail cleanly. */
class NumpyHabitsTest {
    private static final Tensor M = Tensor.of(new float[][] {{1, 5, 3}, {4, 2, 6}});

    @Test
    void reductionsTakeAxesAsVarargs() {
        assertArrayEquals(new float[] {9, 12}, M.sum(1).toFloatArray());
        assertArrayEquals(new float[] {6}, M.max(0, 1).reshape(1).toFloatArray());
        assertArrayEquals(new float[] {3, 4}, M.mean(-1).toFloatArray());
        assertArrayEquals(new float[] {1, 2, 3}, M.min(0).toFloatArray());
        // element-wise forms are maximum/minimum
        assertArrayEquals(new float[] {3, 5, 3, 4, 3, 6}, M.maximum(3).flatten().toFloatArray());
        assertArrayEquals(new float[] {1, 2, 3, 2, 2, 2}, M.minimum(Tensor.of(3f, 2f, 9f)).minimum(2.5).maximum(1).flatten().toFloatArray(), 0.5f);
    }

    @Test
    void getReadsOneElement() {
        assertEquals(6.0, M.get(1, 2));
        assertEquals(5.0, M.get(0, -2));
        assertEquals(2.5, Tensor.scalar(2.5).get());
        assertEquals(3L, Tensor.of(1, 2, 3).get(2));
        assertEquals("get", assertThrows(JBurnException.class, () -> M.get(2, 0)).op());
        assertEquals("get", assertThrows(JBurnException.class, () -> M.get(0)).op());
    }

    @Test
    void likesFlattenWhereMatmul() {
        try (Tensor z = Tensor.zerosLike(M); Tensor o = Tensor.onesLike(Tensor.of(1, 2))) {
            assertEquals(Shape.of(2, 3), z.shape());
            assertEquals(DType.F32, z.dtype());
            assertArrayEquals(new int[] {1, 1}, o.toIntArray());
        }
        assertArrayEquals(new float[] {0, 5, 3, 4, 0, 6}, Tensor.where(M.greater(2), M, Tensor.zerosLike(M)).flatten().toFloatArray());
        assertEquals(Shape.of(1), Tensor.scalar(1f).flatten().shape());
        Tensor a = Tensor.iota(Shape.of(2, 3, 4), DType.F32);
        Tensor b = Tensor.iota(Shape.of(4, 5), DType.F32);
        Tensor c = a.matmul(b);
        assertEquals(Shape.of(2, 3, 5), c.shape());
        for (int i = 0; i < 2; i++) {
            Tensor ai = a.slice(new int[] {i, 0, 0}, new int[] {1, 3, 4}).reshape(3, 4);
            assertArrayEquals(ai.dot(b).toFloatArray(), c.slice(new int[] {i, 0, 0}, new int[] {1, 3, 5}).reshape(3, 5).toFloatArray());
        }
        assertArrayEquals(M.dot(Tensor.of(1f, 1f, 1f)).toFloatArray(), M.matmul(Tensor.of(1f, 1f, 1f)).toFloatArray());
        assertEquals("matmul", assertThrows(JBurnException.class, () -> a.matmul(Tensor.iota(Shape.of(2, 3, 4), DType.F32))).op());
    }

    @Test
    void emptyAndHugeTensorsPrintShortly() {
        assertTrue(Tensor.zeros(Shape.of(Integer.MAX_VALUE - 1, 0), DType.F32).toString().endsWith("\n[]"));
        assertTrue(Tensor.zeros(Shape.of(100000, 0), DType.F32).toString().length() < 100);
        assertTrue(Tensor.zeros(Shape.of(7, 7, 7, 7, 7, 7), DType.U8).toString().length() < 20_000);
    }

    @Test
    void faultsNameTheOpCalled() {
        Tensor closed = Tensor.of(1f, 2f);
        closed.close();
        assertEquals("exp", assertThrows(JBurnException.class, closed::exp).op());
        assertEquals("add", assertThrows(JBurnException.class, () -> M.add(closed)).op());
        JBurnException big = assertThrows(JBurnException.class, () -> Tensor.zeros(Shape.of(1 << 30, 1 << 30), DType.F64));
        assertEquals("zeros", big.op(), big.getMessage());
        assertEquals("randint", assertThrows(JBurnException.class,
                () -> Prng.randint(Prng.key(0), 0, 65536, Shape.of(2), DType.S16)).op());
        long[] all = Prng.randintSplit(Prng.key(1), 0, 256, Shape.of(64), DType.U8).toLongArray();
        for (long v : all) assertTrue(v >= 0 && v < 256);
        assertEquals("cholesky", assertThrows(JBurnException.class, () -> dev.jburn.LinAlg.cholesky(null)).op());
        assertEquals("conv", assertThrows(JBurnException.class, () -> dev.jburn.ConvOptions.defaults().withStrides((int[]) null)).op());
        assertEquals("window", assertThrows(JBurnException.class, () -> dev.jburn.WindowOptions.defaults().withPadding(null)).op());
    }
}
