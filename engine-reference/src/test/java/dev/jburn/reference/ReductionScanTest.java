package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/** cumulativeSum/Product/Max/Min: Nx examples, reverse, axes, dtypes (no widening), NaN, empty shapes. */
class ReductionScanTest {
    private static Tensor iota(int... dims) {
        int n = (int) Shape.of(dims).size();
        int[] v = new int[n];
        for (int i = 0; i < n; i++) v[i] = i;
        return Tensor.of(v).reshape(dims);
    }

    @Test
    void nxExamples() {
        for (Engine e : ReductionEngines.ALL) {
            assertArrayEquals(new int[] {1, 3, 6, 10}, Tensor.of(1, 2, 3, 4).to(e).cumulativeSum().toIntArray());
            Tensor r = iota(3, 3).to(e).cumulativeSum(1, true);
            assertEquals(Shape.of(3, 3), r.shape());
            assertArrayEquals(new int[] {3, 3, 2, 12, 9, 5, 21, 15, 8}, r.toIntArray());
        }
    }

    @Test
    void everyScanAlongEveryAxis() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = Tensor.of(new int[][] {{2, 5, 1}, {3, 1, 4}}).to(e);
            assertArrayEquals(new int[] {2, 5, 1, 5, 6, 5}, x.cumulativeSum().toIntArray());
            assertArrayEquals(new int[] {2, 7, 8, 3, 4, 8}, x.cumulativeSum(-1).toIntArray());
            assertArrayEquals(new int[] {2, 10, 10, 3, 3, 12}, x.cumulativeProduct(1).toIntArray());
            assertArrayEquals(new int[] {10, 5, 1, 12, 4, 4}, x.cumulativeProduct(1, true).toIntArray());
            assertArrayEquals(new int[] {2, 5, 5, 3, 3, 4}, x.cumulativeMax(1).toIntArray());
            assertArrayEquals(new int[] {5, 5, 1, 4, 4, 4}, x.cumulativeMax(1, true).toIntArray());
            assertArrayEquals(new int[] {2, 2, 1, 3, 1, 1}, x.cumulativeMin(1).toIntArray());
            assertArrayEquals(new int[] {2, 5, 1, 2, 1, 1}, x.cumulativeMin(0).toIntArray());
            assertArrayEquals(new int[] {2, 1, 1, 3, 1, 4}, x.cumulativeMin(0, true).toIntArray());
        }
    }

    @Test
    void outputTypeIsTheInputType() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor s8 = Tensor.fromArray(new int[] {100, 100, -100}, DType.S8).to(e).cumulativeSum();
            assertEquals(DType.S8, s8.dtype());
            assertArrayEquals(new long[] {100, -56, 100}, s8.toLongArray());
            Tensor u64 = Tensor.fromArray(new long[] {3, -1L, 5}, DType.U64).to(e);
            assertArrayEquals(new long[] {3, -1L, -1L}, u64.cumulativeMax().toLongArray());
            assertArrayEquals(new long[] {3, 3, 3}, u64.cumulativeMin().toLongArray());
            Tensor pred = Tensor.of(true, false, true, true).to(e);
            Tensor counted = pred.cumulativeSum();
            assertEquals(DType.U8, counted.dtype(), "PRED sums count in u8, as Nx's 0/1 tensors");
            assertArrayEquals(new long[] {1, 1, 2, 3}, counted.toLongArray());
            Tensor orr = Tensor.of(false, true, false).to(e).cumulativeMax();
            assertEquals(DType.PRED, orr.dtype());
            assertArrayEquals(new boolean[] {false, true, true}, orr.toBooleanArray());
            for (DType t : DType.values()) {
                Tensor x = Tensor.fromArray(new int[] {1, 2, 3}, t).to(e);
                Tensor c = x.cumulativeProduct();
                assertEquals(t == DType.PRED ? DType.U8 : t, c.dtype(), t.toString());
                assertArrayEquals(t == DType.PRED ? new double[] {1, 1, 1} : new double[] {1, 2, 6}, c.toDoubleArray(), t.toString());
            }
        }
    }

    @Test
    void floatScansPropagateNaNAndKeepSignedZero() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = Tensor.of(1f, Float.NaN, 3f).to(e);
            float[] m = x.cumulativeMax().toFloatArray();
            assertEquals(1f, m[0]);
            assertTrue(Float.isNaN(m[1]) && Float.isNaN(m[2]));
            float[] s = x.cumulativeSum(0, true).toFloatArray();
            assertTrue(Float.isNaN(s[0]) && Float.isNaN(s[1]));
            assertEquals(3f, s[2]);
            float[] z = Tensor.of(-0f, -0f).to(e).cumulativeSum().toFloatArray();
            assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(z[1]));
            // f16 output rounds each prefix of the f32 running sum: 2048+1 = 2049 -> 2048 (even), then 2050
            Tensor h = Tensor.fromArray(new float[] {2048, 1, 1}, DType.F16).to(e).cumulativeSum();
            assertArrayEquals(new double[] {2048, 2048, 2050}, h.toDoubleArray());
        }
    }

    @Test
    void emptyAndBadAxes() {
        Tensor empty = Tensor.zeros(Shape.of(0, 3), DType.F32);
        assertEquals(Shape.of(0, 3), empty.cumulativeSum().shape());
        assertEquals(Shape.of(0, 3), empty.cumulativeMax(1, true).shape());
        assertArrayEquals(new double[] {7}, Tensor.of(new double[] {7}).cumulativeProduct().toDoubleArray());
        JBurnException e = assertThrows(JBurnException.class, () -> Tensor.of(1, 2).cumulativeSum(1));
        assertEquals("cumulativeSum", e.op());
        assertEquals("cumulativeMin", assertThrows(JBurnException.class, () -> Tensor.scalar(1).cumulativeMin()).op());
    }

    @Test
    void parallelScansEqualSequentialScans() {
        Random r = new Random(3);
        float[] v = new float[40 * 1500];
        for (int i = 0; i < v.length; i++) v[i] = r.nextFloat() * 2 - 1;
        Tensor x = Tensor.of(v).reshape(40, 1500);
        for (int axis = 0; axis < 2; axis++) {
            for (boolean rev : new boolean[] {false, true}) {
                float[] want = x.to(ReductionEngines.ORACLE).cumulativeSum(axis, rev).toFloatArray();
                assertArrayEquals(want, x.to(ReductionEngines.PARALLEL).cumulativeSum(axis, rev).toFloatArray());
                assertArrayEquals(x.to(ReductionEngines.ORACLE).cumulativeMin(axis, rev).toFloatArray(),
                        x.to(ReductionEngines.PARALLEL).cumulativeMin(axis, rev).toFloatArray());
            }
        }
        // the running f32 sum is float arithmetic, step by step
        float[] row = x.cumulativeSum(1).toFloatArray();
        float acc = 0;
        for (int j = 0; j < 1500; j++) {
            acc = j == 0 ? v[j] : acc + v[j];
            assertEquals(acc, row[j]);
        }
    }
}
