package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/** take, skip, rows, map, oneHot and the key-driven shuffle. */
class TensorDatasetTest {
    /** x row i is {i, 10 i}; y is i. */
    static TensorDataset counting(int n) {
        float[][] x = new float[n][];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = new float[] {i, 10 * i};
            y[i] = i;
        }
        return TensorDataset.of(Tensor.of(x), Tensor.of(y));
    }

    @Test
    void takeAndSkip() {
        TensorDataset d = counting(5);
        assertArrayEquals(new int[] {0, 1}, d.take(2).y().toIntArray());
        assertArrayEquals(new int[] {2, 3, 4}, d.skip(2).y().toIntArray());
        assertEquals(0, d.take(0).size());
        assertEquals(Shape.of(0, 2), d.skip(5).x().shape());
        assertEquals(5, d.skip(0).size());
        assertThrows(JBurnException.class, () -> d.take(6));
        assertThrows(JBurnException.class, () -> d.skip(-1));
    }

    @Test
    void rowsAndMap() {
        TensorDataset d = counting(4);
        TensorDataset r = d.rows(new int[] {3, 0, 3});
        assertArrayEquals(new int[] {3, 0, 3}, r.y().toIntArray());
        assertArrayEquals(new float[] {3, 30, 0, 0, 3, 30}, r.x().toFloatArray());
        assertThrows(JBurnException.class, () -> d.rows(new int[] {4}));
        TensorDataset m = d.map(x -> x.multiply(2.0));
        assertArrayEquals(new float[] {0, 0, 2, 20, 4, 40, 6, 60}, m.x().toFloatArray());
        assertSame(d.y(), m.y());
        assertEquals(DType.F32, d.mapLabels(y -> y.asType(DType.F32)).y().dtype());
    }

    @Test
    void oneHot() {
        TensorDataset d = TensorDataset.of(Tensor.of(new float[] {1, 2, 3}), Tensor.of(new int[] {2, 0, 1}));
        TensorDataset h = d.oneHot(3);
        assertEquals(DType.F32, h.y().dtype());
        assertEquals(Shape.of(3, 3), h.y().shape());
        assertArrayEquals(new float[] {0, 0, 1, 1, 0, 0, 0, 1, 0}, h.y().toFloatArray());
        JBurnException e = assertThrows(JBurnException.class, () -> d.oneHot(2));
        assertTrue(e.getMessage().contains("label 0 is 2, outside [0, 2)"), e.getMessage());
        assertThrows(JBurnException.class, () -> TensorDataset.of(Tensor.of(1f), Tensor.of(1f)).oneHot(2));
        assertThrows(JBurnException.class, () -> TensorDataset.of(Tensor.of(1f), Tensor.of(-1)).oneHot(2));
    }

    @Test
    void shuffleIsAPermutationFixedByTheKey() {
        TensorDataset d = counting(50);
        int[] a = d.shuffled(Prng.key(3)).y().toIntArray();
        assertArrayEquals(a, d.shuffled(Prng.key(3)).y().toIntArray());
        assertFalse(Arrays.equals(a, d.shuffled(Prng.key(4)).y().toIntArray()));
        int[] sorted = a.clone();
        Arrays.sort(sorted);
        assertArrayEquals(d.y().toIntArray(), sorted);
        assertArrayEquals(TensorDataset.permutation(Prng.key(3), 50), a);
        float[] x = d.shuffled(Prng.key(3)).x().toFloatArray();
        for (int i = 0; i < 50; i++) assertEquals(10f * a[i], x[2 * i + 1], "rows move together");
    }

    /** A key on another engine (a GPU's) gives the same permutation: it is drawn and sorted on the cpu engine. */
    @Test
    void thePermutationDoesNotDependOnTheKeysEngine() {
        dev.jburn.Engine other = dev.jburn.Engine.create(new dev.jburn.reference.ReferenceProvider(), dev.jburn.spi.EngineConfig.defaults());
        try (dev.jburn.Tensor key = Prng.key(3).to(other)) {
            assertArrayEquals(TensorDataset.permutation(Prng.key(3), 5000), TensorDataset.permutation(key, 5000));
        }
    }
}
