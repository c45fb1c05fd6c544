package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Threefry-2x32 known-answer vectors (JAX) and the Nx.Random doctest values. */
class RandomTest {
    private static long[] u32(Tensor t) { return t.toLongArray(); }

    @Test
    void threefryKnownAnswers() {
        // fold_in runs exactly one Threefry block with counter (d >> 32, d & 0xFFFFFFFF).
        assertArrayEquals(new long[] {0x6b200159L, 0x99ba4efeL}, u32(Prng.foldIn(Prng.key(0), 0)));
        assertArrayEquals(new long[] {0x1cb996fcL, 0xbb002be7L}, u32(Prng.foldIn(Prng.key(-1L), -1L)));
        assertArrayEquals(new long[] {0xc4923a9cL, 0x483df7a0L},
                u32(Prng.foldIn(Prng.key(0x13198a2e03707344L), 0x243f6a8885a308d3L)));
    }

    @Test
    void keysSplitsAndFolds() {
        assertArrayEquals(new long[] {0, 12}, u32(Prng.key(12)));
        assertArrayEquals(new long[] {232, 3567587327L}, u32(Prng.key(999999999999L)));
        assertArrayEquals(new long[] {56197195, 1801093307, 961309823, 1704866707}, u32(Prng.split(Prng.key(1701))));
        assertEquals(Shape.of(2, 2), Prng.split(Prng.key(1701)).shape());
        assertArrayEquals(new long[] {4000152724L, 2030591747}, u32(Prng.split(Prng.key(1701), 4)[0]));
        assertArrayEquals(new long[] {2015327502, 1351855566}, u32(Prng.foldIn(Prng.key(42), 99)));
        assertArrayEquals(new long[] {1356445167, 2917756949L}, u32(Prng.foldIn(Prng.key(42), 1234)));
    }

    @Test
    void randomBitsMatchJax() {
        assertArrayEquals(new long[] {56197195, 4200222568L, 961309823},
                u32(Prng.bits(Prng.key(1701), Shape.of(3), DType.U32)));
    }

    @Test
    void uniformMatchesNx() {
        assertEquals(0.7691127f, Prng.uniform(Prng.key(12), Shape.scalar(), DType.F32, 0, 1).values().toFloatArray()[0]);
        assertEquals(0.9728644f, Prng.uniform(Prng.key(1701), Shape.scalar(), DType.F32, 0, 1).values().toFloatArray()[0]);
        float[] many = Prng.uniformSplit(Prng.key(5), Shape.of(10000), DType.F32, -2, 3).toFloatArray();
        double mean = 0;
        for (float v : many) {
            assertTrue(v >= -2 && v < 3, "out of range: " + v);
            mean += v / many.length;
        }
        assertEquals(0.5, mean, 0.05);
    }

    @Test
    void randintMatchesNx() {
        assertEquals(91L, Prng.randint(Prng.key(1701), 1, 100, Shape.scalar(), DType.S32).values().item());
        Tensor r = Prng.randint(Prng.key(1701), 1, 100, Shape.of(3, 2), DType.U32).values();
        assertEquals(DType.U32, r.dtype());
        assertArrayEquals(new long[] {9, 20, 19, 6, 71, 15}, r.toLongArray());
    }

    @Test
    void normalMatchesNxWithinOneUlp() {
        float z = Prng.normal(Prng.key(42), Shape.scalar(), DType.F32, 0, 1).values().toFloatArray()[0];
        assertEquals(1.3694695f, z);
        double[] many = Prng.normalSplit(Prng.key(9), Shape.of(20000), DType.F64, 2, 3).toDoubleArray();
        double mean = 0, var = 0;
        for (double v : many) mean += v / many.length;
        for (double v : many) var += (v - mean) * (v - mean) / many.length;
        assertEquals(2, mean, 0.1);
        assertEquals(3, Math.sqrt(var), 0.1);
    }

    @Test
    void sameKeySameNumbersAndEveryFloatType() {
        Tensor k = Prng.key(77);
        assertArrayEquals(Prng.uniformSplit(k, Shape.of(50), DType.F32, 0, 1).toFloatArray(),
                Prng.uniformSplit(k, Shape.of(50), DType.F32, 0, 1).toFloatArray());
        for (DType t : new DType[] {DType.F16, DType.BF16, DType.F32, DType.F64}) {
            for (double v : Prng.uniformSplit(k, Shape.of(200), t, 0, 1).toDoubleArray()) assertTrue(v >= 0 && v < 1, t + " " + v);
            for (double v : Prng.normalSplit(k, Shape.of(200), t, 0, 1).toDoubleArray()) assertTrue(Double.isFinite(v), t + " " + v);
        }
        Prng.Sample s = Prng.uniform(k, Shape.of(2), DType.F32, 0, 1);
        assertFalse(java.util.Arrays.equals(u32(s.nextKey()), u32(k)));
    }

    @Test
    void badKeysAndTypesAreRefused() {
        assertThrows(JBurnException.class, () -> Prng.uniform(Tensor.of(1, 2), Shape.of(2), DType.F32, 0, 1));
        assertThrows(JBurnException.class, () -> Prng.uniformSplit(Prng.key(1), Shape.of(2), DType.S32, 0, 1));
        assertThrows(JBurnException.class, () -> Prng.randintSplit(Prng.key(1), 5, 5, Shape.of(2), DType.S32));
        assertThrows(JBurnException.class, () -> Prng.split(Prng.key(1), 0));
    }
}
