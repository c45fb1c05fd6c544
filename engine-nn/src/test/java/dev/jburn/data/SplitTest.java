package dev.jburn.data;

import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** Random and stratified train/validation/test splits. */
class SplitTest {
    @Test
    void randomSplitCoversEveryRowOnce() {
        TensorDataset d = TensorDatasetTest.counting(100);
        Split s = Split.random(d, Prng.key(1), 0.7, 0.2);
        assertEquals(70, s.train().size());
        assertEquals(20, s.validation().size());
        assertEquals(10, s.test().size());
        Set<Integer> seen = new HashSet<>();
        for (TensorDataset part : new TensorDataset[] {s.train(), s.validation(), s.test()}) {
            for (int y : part.y().toIntArray()) assertTrue(seen.add(y), "row " + y + " twice");
        }
        assertEquals(100, seen.size());
        assertArrayEquals(s.train().y().toIntArray(), Split.random(d, Prng.key(1), 0.7, 0.2).train().y().toIntArray(), "same key, same split");
        assertFalse(java.util.Arrays.equals(s.train().y().toIntArray(), Split.random(d, Prng.key(2), 0.7, 0.2).train().y().toIntArray()));
    }

    @Test
    void emptyValidationAndTest() {
        Split s = Split.random(TensorDatasetTest.counting(10), Prng.key(0), 1.0, 0.0);
        assertEquals(10, s.train().size());
        assertEquals(0, s.validation().size());
        assertEquals(0, s.test().size());
    }

    @Test
    void stratifiedKeepsLabelProportions() {
        // 80 examples of label 0, 20 of label 1, in blocks.
        int[] y = new int[100];
        for (int i = 80; i < 100; i++) y[i] = 1;
        TensorDataset d = TensorDataset.of(Tensor.iota(dev.jburn.Shape.of(100, 1), dev.jburn.DType.F32), Tensor.of(y));
        Split s = Split.stratified(d, Prng.key(5), 0.5, 0.25);
        assertCounts(s.train(), 40, 10);
        assertCounts(s.validation(), 20, 5);
        assertCounts(s.test(), 20, 5);
        int[] rows = s.train().x().toIntArray();
        int[] labels = s.train().y().toIntArray();
        for (int i = 0; i < rows.length; i++) assertEquals(rows[i] >= 80 ? 1 : 0, labels[i], "rows keep their labels");
        boolean mixed = false;
        for (int i = 1; i < labels.length; i++) mixed |= labels[i] != labels[i - 1] && i < 40;
        assertTrue(mixed, "each part is shuffled, not grouped by label");
    }

    @Test
    void badFractionsAndLabels() {
        TensorDataset d = TensorDatasetTest.counting(10);
        assertThrows(JBurnException.class, () -> Split.random(d, Prng.key(0), 0.8, 0.3));
        assertThrows(JBurnException.class, () -> Split.random(d, Prng.key(0), 0, 0.5));
        assertThrows(JBurnException.class, () -> Split.random(d, Prng.key(0), 0.01, 0.5), "an empty training part");
        assertThrows(JBurnException.class, () -> Split.stratified(d.oneHot(10), Prng.key(0), 0.5, 0.5));
    }

    private static void assertCounts(TensorDataset part, int zeros, int ones) {
        int[] c = new int[2];
        for (int l : part.y().toIntArray()) c[l]++;
        assertArrayEquals(new int[] {zeros, ones}, c);
    }
}
