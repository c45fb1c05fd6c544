package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.TopK;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * mean, logSumExp and topK: compositions that also need element-wise kernels (divide, subtract,
 * add, exp, log, isInfinity, select) and slice, which other branches build. These tests are
 * expected to fail with "is not built yet in the cpu engine" until those branches are merged.
 */
class CompositeReductionsTest {
    private static Tensor iota(int... dims) {
        int n = (int) Shape.of(dims).size();
        int[] v = new int[n];
        for (int i = 0; i < n; i++) v[i] = i;
        return Tensor.of(v).reshape(dims);
    }

    @Test
    void meanFollowsNx() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor m = iota(2, 2, 3).to(e).mean(new int[] {-1});
            assertEquals(DType.F32, m.dtype());
            assertEquals(Shape.of(2, 2), m.shape());
            assertArrayEquals(new float[] {1, 4, 7, 10}, m.toFloatArray());
            Tensor u8 = Tensor.fromArray(new int[] {1, 2, 3}, DType.U8).to(e).mean();
            assertEquals(DType.F32, u8.dtype());
            assertEquals(2.0, u8.item());
            Tensor kept = Tensor.of(new int[][] {{1, 2}, {3, 4}}).to(e).mean(new int[] {0}, true);
            assertEquals(Shape.of(1, 2), kept.shape());
            assertArrayEquals(new float[] {2, 3}, kept.toFloatArray());
            assertEquals(DType.F64, Tensor.of(1.0, 2.0).to(e).mean().dtype());
            assertEquals(DType.F16, Tensor.fromArray(new float[] {1, 2}, DType.F16).to(e).mean().dtype());
            assertEquals(1.5, Tensor.fromArray(new float[] {1, 2}, DType.F16).to(e).mean().item());
            assertTrue(Double.isNaN((Double) Tensor.zeros(Shape.of(0), DType.F32).to(e).mean().item()), "0 / 0");
            Tensor none = Tensor.of(1, 2).to(e).mean(new int[0]);
            assertEquals(DType.F32, none.dtype());
            assertArrayEquals(new float[] {1, 2}, none.toFloatArray());
        }
    }

    @Test
    void logSumExpFollowsNx() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor a = Tensor.of(1, 2, 3, 4, 5, 6).to(e).logSumExp();
            assertEquals(DType.F32, a.dtype());
            assertEquals(6.4561934f, a.toFloatArray()[0], 1e-6f);
            Tensor cols = Tensor.of(new int[][] {{1, 2}, {3, 4}, {5, 6}}).to(e).logSumExp(new int[] {0});
            assertArrayEquals(new float[] {5.1429315f, 6.1429315f}, cols.toFloatArray(), 1e-6f);
            Tensor kept = Tensor.of(new int[][] {{1, 2}, {3, 4}, {5, 6}}).to(e).logSumExp(new int[] {0}, true);
            assertEquals(Shape.of(1, 2), kept.shape());
            assertEquals(1000 + Math.log(2), (Double) Tensor.of(1000.0, 1000.0).to(e).logSumExp().item(), 1e-12);
            float[] edge = Tensor.of(new float[][] {{Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY}, {Float.POSITIVE_INFINITY, 1}})
                    .to(e).logSumExp(new int[] {1}).toFloatArray();
            assertEquals(Float.NEGATIVE_INFINITY, edge[0]);
            assertEquals(Float.POSITIVE_INFINITY, edge[1]);
            assertEquals(Float.NEGATIVE_INFINITY, Tensor.zeros(Shape.of(0), DType.F32).to(e).logSumExp().toFloatArray()[0]);
        }
    }

    @Test
    void topKFollowsNx() {
        for (Engine e : ReductionEngines.ALL) {
            try (TopK top = Tensor.of(Float.NaN, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, 0f).to(e).topK(3)) {
                float[] v = top.values().toFloatArray();
                assertTrue(Float.isNaN(v[0]));
                assertEquals(Float.POSITIVE_INFINITY, v[1]);
                assertEquals(0f, v[2]);
                assertEquals(DType.S32, top.indices().dtype());
                assertArrayEquals(new int[] {0, 2, 3}, top.indices().toIntArray());
            }
            TopK rows = Tensor.of(new int[][] {{1, 5, 3}, {4, 4, 2}}).to(e).topK(2);
            assertEquals(Shape.of(2, 2), rows.values().shape());
            assertArrayEquals(new int[] {5, 3, 4, 4}, rows.values().toIntArray());
            assertArrayEquals(new int[] {1, 2, 0, 1}, rows.indices().toIntArray());
            TopK none = Tensor.of(new int[][] {{1, 5, 3}}).to(e).topK(0);
            assertEquals(Shape.of(1, 0), none.indices().shape());
        }
    }
}
