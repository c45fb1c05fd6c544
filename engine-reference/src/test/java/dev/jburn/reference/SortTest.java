package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.*;

/** sort / argsort: Nx examples, NaN and signed zeros, stability both ways, axes, every dtype, unsigned, large inputs. */
class SortTest {
    private static final float NAN = Float.NaN, INF = Float.POSITIVE_INFINITY;

    @Test
    void nxExamplesWithNaN() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = Tensor.of(NAN, -INF, 0f, INF).to(e);
            assertArrayEquals(new float[] {-INF, 0f, INF, NAN}, x.sort().toFloatArray());
            assertArrayEquals(new float[] {NAN, INF, 0f, -INF}, x.sort(0, true).toFloatArray());
            Tensor y = Tensor.of(NAN, -INF, INF, 0f).to(e);
            Tensor idx = y.argsort();
            assertEquals(DType.S32, idx.dtype());
            assertArrayEquals(new int[] {1, 3, 2, 0}, idx.toIntArray());
            assertArrayEquals(new int[] {0, 2, 3, 1}, y.argsort(0, true).toIntArray());
        }
    }

    @Test
    void stableInBothDirections() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = Tensor.of(3, 1, 2, 1, 3).to(e);
            assertArrayEquals(new int[] {1, 3, 2, 0, 4}, x.argsort().toIntArray());
            assertArrayEquals(new int[] {0, 4, 2, 1, 3}, x.argsort(0, true).toIntArray());
            Tensor nans = Tensor.of(NAN, 1f, NAN, 2f).to(e);
            assertArrayEquals(new int[] {1, 3, 0, 2}, nans.argsort().toIntArray());
            assertArrayEquals(new int[] {0, 2, 3, 1}, nans.argsort(0, true).toIntArray());
        }
    }

    @Test
    void signedZerosCompareEqualAndKeepTheirBits() {
        Tensor z = Tensor.of(0f, -0f, 0f, -1f);
        assertArrayEquals(new int[] {3, 0, 1, 2}, z.argsort().toIntArray());
        assertArrayEquals(new int[] {0, 1, 2, 3}, z.argsort(0, true).toIntArray());
        float[] s = z.sort().toFloatArray();
        assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(s[1]));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(s[2]));
    }

    @Test
    void axesAndShapes() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor m = Tensor.of(new int[][] {{3, 1, 2}, {0, 5, 4}}).to(e);
            assertArrayEquals(new int[] {0, 1, 2, 3, 5, 4}, m.sort().toIntArray(), "axis 0 by default");
            assertArrayEquals(new int[] {1, 2, 3, 0, 4, 5}, m.sort(1).toIntArray());
            assertArrayEquals(new int[] {3, 2, 1, 5, 4, 0}, m.sort(-1, true).toIntArray());
            assertArrayEquals(new int[] {1, 2, 0, 0, 2, 1}, m.argsort(1).toIntArray());
            assertArrayEquals(new int[] {1, 0, 0, 0, 1, 1}, m.argsort(0).toIntArray());
            Tensor cube = Tensor.of(new int[] {5, 1, 4, 2, 0, 3, 9, 7, 8, 6, 11, 10}).reshape(2, 3, 2).to(e);
            assertEquals(Shape.of(2, 3, 2), cube.sort(1).shape());
            assertArrayEquals(new int[] {0, 1, 4, 2, 5, 3, 8, 6, 9, 7, 11, 10}, cube.sort(1).toIntArray());
            assertArrayEquals(new int[] {2, 0, 1, 1, 0, 2, 1, 1, 0, 0, 2, 2}, cube.argsort(1).toIntArray());
        }
    }

    @Test
    void everyDtypeMatchesAJavaSort() {
        Random r = new Random(5);
        int[] raw = r.ints(200, -100, 100).toArray();
        for (DType t : DType.values()) {
            Tensor x = Tensor.fromArray(raw, t);
            double[] values = x.toDoubleArray();
            long[] bits = x.toLongArray();
            // U64 holds negative inputs as huge values that doubles cannot tell apart: compare raw bits unsigned
            Comparator<Integer> asc = t.isFloat() ? Comparator.comparingDouble(i -> values[i])
                    : t == DType.U64 ? (a, b) -> Long.compareUnsigned(bits[a], bits[b])
                    : Comparator.comparingLong(i -> bits[i]);
            int[] want = order(values.length, asc);
            int[] wantDesc = order(values.length, asc.reversed());
            for (Engine e : ReductionEngines.ALL) {
                assertArrayEquals(want, x.to(e).argsort().toIntArray(), t + " on " + e);
                assertArrayEquals(wantDesc, x.to(e).argsort(0, true).toIntArray(), t + " desc on " + e);
                Tensor sorted = x.to(e).sort();
                assertEquals(t, sorted.dtype());
                long[] got = sorted.toLongArray();
                for (int i = 0; i < want.length; i++) assertEquals(bits[want[i]], got[i], t.toString());
            }
        }
    }

    /** A stable Java sort of positions (Arrays.sort on objects is a stable merge sort). */
    private static int[] order(int n, Comparator<Integer> cmp) {
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, cmp);
        return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    }

    @Test
    void unsignedAndSignedExtremes() {
        Tensor u = Tensor.fromArray(new long[] {-1L, 0, Long.MIN_VALUE, Long.MAX_VALUE, 1}, DType.U64);
        assertArrayEquals(new long[] {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, -1L}, u.sort().toLongArray());
        Tensor s = Tensor.of(Long.MIN_VALUE, -1L, Long.MAX_VALUE, 0L);
        assertArrayEquals(new long[] {Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE}, s.sort().toLongArray());
        Tensor u8 = Tensor.fromArray(new int[] {255, 0, 128, 127}, DType.U8);
        assertArrayEquals(new long[] {0, 127, 128, 255}, u8.sort().toLongArray());
        Tensor d = Tensor.of(Double.MIN_VALUE, -Double.MIN_VALUE, -Double.MAX_VALUE, Double.NaN, Double.NEGATIVE_INFINITY);
        assertArrayEquals(new double[] {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -Double.MIN_VALUE, Double.MIN_VALUE, Double.NaN},
                d.sort().toDoubleArray());
        Tensor h = Tensor.fromArray(new float[] {1.5f, NAN, -2f, 65504f}, DType.BF16);
        assertArrayEquals(new int[] {2, 0, 3, 1}, h.argsort().toIntArray());
    }

    @Test
    void emptyScalarAndErrors() {
        assertEquals(Shape.of(0, 4), Tensor.zeros(Shape.of(0, 4), DType.F32).sort(1).shape());
        assertEquals(Shape.of(3, 0), Tensor.zeros(Shape.of(3, 0), DType.S8).argsort(1).shape());
        assertArrayEquals(new int[] {0}, Tensor.of(42).argsort().toIntArray());
        assertEquals("sort", assertThrows(JBurnException.class, () -> Tensor.scalar(1f).sort()).op());
        assertEquals("argsort", assertThrows(JBurnException.class, () -> Tensor.of(1, 2).argsort(1, true)).op());
        JBurnException k = assertThrows(JBurnException.class, () -> Tensor.of(1f, 2f, 3f, 4f, 5f).topK(6));
        assertEquals("topK", k.op());
        assertTrue(k.reason().contains("top_k input last axis size must be greater than or equal to k, got size=5 and k=6"), k.reason());
        assertEquals("topK", assertThrows(JBurnException.class, () -> Tensor.scalar(1f).topK(1)).op());
        assertEquals("topK", assertThrows(JBurnException.class, () -> Tensor.of(1f).topK(-1)).op());
    }

    @Test
    void largeRandomInputsAgreeAcrossEnginesAndWithJava() {
        Random r = new Random(17);
        float[] v = new float[100_000];
        for (int i = 0; i < v.length; i++) v[i] = r.nextInt(1000) / 8f - 60;
        v[12] = NAN;
        v[99_999] = -0f;
        Tensor x = Tensor.of(v);
        float[] want = v.clone();
        Arrays.sort(want); // NaN last; Java orders -0.0 before 0.0, which the next check tolerates
        float[] got = x.to(ReductionEngines.PARALLEL).sort().toFloatArray();
        for (int i = 0; i < v.length; i++) assertEquals(want[i] == 0 ? 0f : want[i], got[i] == 0 ? 0f : got[i], "at " + i);
        Tensor rows = x.reshape(400, 250);
        for (int axis = 0; axis < 2; axis++) {
            for (boolean desc : new boolean[] {false, true}) {
                assertArrayEquals(rows.to(ReductionEngines.ORACLE).argsort(axis, desc).toIntArray(),
                        rows.to(ReductionEngines.PARALLEL).argsort(axis, desc).toIntArray());
            }
        }
        int[] idx = x.argsort(0, true).toIntArray();
        assertEquals(12, idx[0], "NaN first when descending");
        for (int i = 2; i < idx.length; i++) {
            float a = v[idx[i - 1]], b = v[idx[i]];
            assertTrue(a > b || (a == b && idx[i - 1] < idx[i]), "descending and stable at " + i);
        }
    }
}
