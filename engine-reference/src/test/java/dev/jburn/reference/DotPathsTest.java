package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The vector and parallel dot paths against the scalar oracle on random shapes and axis
 * choices. Integers match bit for bit; floats go through the blocked GEMM, which sums in
 * another order than the oracle's sequential fma loop, so they match within the summation
 * bound {@code 2·(k+2)·eps·Σ|a||b|} (eps of the F32 or F64 accumulator) plus one rounding of
 * a narrow output type.
 */
class DotPathsTest {
    private static final List<Engine> FAST = List.of(Engine.defaultEngine(), PARALLEL);

    private static Tensor values(Random rnd, DType t, int... dims) {
        return t.isFloat() ? randomFloat(rnd, t, dims) : random(rnd, t, dims);
    }

    private static void assertPathsAgree(Tensor a, int[] ca, int[] ba, Tensor b, int[] cb, int[] bb) {
        Tensor expected = a.to(ORACLE).dot(ca, ba, b.to(ORACLE), cb, bb);
        for (Engine e : FAST) {
            Tensor actual = a.to(e).dot(ca, ba, b.to(e), cb, bb);
            if (expected.dtype().isFloat()) assertDotClose(expected, actual, a, ca, ba, b, cb, bb);
            else assertSameBits(expected, actual);
        }
    }

    /** Floats: same dtype and shape, NaN where NaN, and within the summation bound elsewhere. */
    static void assertDotClose(Tensor expected, Tensor actual, Tensor a, int[] ca, int[] ba, Tensor b, int[] cb, int[] bb) {
        assertEquals(expected.dtype(), actual.dtype());
        assertEquals(expected.shape(), actual.shape());
        long k = 1;
        for (int axis : ca) k *= a.shape().dim(axis);
        // Σ|a||b| per output element, exactly enough in F64 on the oracle
        double[] mag = a.to(ORACLE).abs().asType(DType.F64).dot(ca, ba, b.to(ORACLE).abs().asType(DType.F64), cb, bb).toDoubleArray();
        double[] e = expected.toDoubleArray(), g = actual.toDoubleArray();
        DType t = expected.dtype();
        double eps = t == DType.F64 ? 0x1p-52 : 0x1p-23;
        for (int i = 0; i < e.length; i++) {
            if (Double.isNaN(e[i])) {
                assertTrue(Double.isNaN(g[i]), "element " + i + ": NaN vs " + g[i]);
                continue;
            }
            if (Double.isInfinite(e[i])) {
                assertEquals(e[i], g[i], "element " + i);
                continue;
            }
            double bound = 2 * (k + 2) * eps * mag[i] + narrowRounding(t, e[i]);
            assertTrue(Math.abs(e[i] - g[i]) <= bound, "element " + i + ": " + e[i] + " vs " + g[i] + " (bound " + bound + ")");
        }
    }

    /** One ulp of a narrow output type at {@code v}: both paths round their F32 sums once. */
    private static double narrowRounding(DType t, double v) {
        return switch (t) {
            case F16 -> Math.max(Math.ulp((float) v) * 8192, 0x1p-24);
            case BF16 -> Math.max(Math.ulp((float) v) * 65536, 0x1p-133);
            default -> 0;
        };
    }

    @Test
    void matmulShapesEveryType() {
        Random rnd = new Random(11);
        int[][] shapes = {{1, 1, 1}, {3, 5, 7}, {17, 33, 9}, {8, 1, 64}, {1, 40, 1}, {5, 3, 67}, {64, 64, 64}};
        for (DType t : DType.values()) {
            for (int[] s : shapes) {
                Tensor a = values(rnd, t, s[0], s[1]);
                Tensor b = values(rnd, t, s[1], s[2]);
                assertPathsAgree(a, new int[] {1}, new int[0], b, new int[] {0}, new int[0]);
            }
        }
    }

    @Test
    void randomAxesAndBatches() {
        Random rnd = new Random(12);
        for (int trial = 0; trial < 60; trial++) {
            DType t = List.of(DType.F64, DType.F32, DType.S32, DType.BF16, DType.F16).get(trial % 5);
            int batch = rnd.nextInt(2);
            int nc = rnd.nextInt(3);
            int freeA = rnd.nextInt(3), freeB = rnd.nextInt(3);
            int[] bdims = new int[batch], cdims = new int[nc];
            for (int i = 0; i < batch; i++) bdims[i] = 1 + rnd.nextInt(3);
            for (int i = 0; i < nc; i++) cdims[i] = 1 + rnd.nextInt(6);
            Layout a = operand(rnd, bdims, cdims, freeA);
            Layout b = operand(rnd, bdims, cdims, freeB);
            int[] ba = new int[batch];
            for (int i = 0; i < batch; i++) ba[i] = i;
            assertPathsAgree(values(rnd, t, a.dims), a.contract, ba, values(rnd, t, b.dims), b.contract, ba);
        }
    }

    /** A random layout: batch dims first, then contraction and free dims shuffled. */
    private record Layout(int[] dims, int[] contract) {}

    private static Layout operand(Random rnd, int[] batch, int[] contract, int free) {
        int rest = contract.length + free;
        int[] slots = new int[rest];
        for (int i = 0; i < rest; i++) slots[i] = i;
        for (int i = rest - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int tmp = slots[i];
            slots[i] = slots[j];
            slots[j] = tmp;
        }
        int[] dims = new int[batch.length + rest];
        System.arraycopy(batch, 0, dims, 0, batch.length);
        int[] where = new int[contract.length];
        for (int i = 0; i < rest; i++) {
            int axis = batch.length + slots[i];
            if (i < contract.length) {
                dims[axis] = contract[i];
                where[i] = axis;
            } else {
                dims[axis] = 1 + rnd.nextInt(5);
            }
        }
        return new Layout(dims, where);
    }

    @Test
    void f64MatchesAPlainTripleLoop() {
        Random rnd = new Random(13);
        int m = 23, k = 31, n = 19;
        Tensor a = randomFloat(rnd, DType.F64, m, k);
        Tensor b = randomFloat(rnd, DType.F64, k, n);
        double[] av = a.toDoubleArray(), bv = b.toDoubleArray(), cv = a.dot(b).toDoubleArray();
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) {
            double s = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                s += av[i * k + p] * bv[p * n + j];
                mag += Math.abs(av[i * k + p] * bv[p * n + j]);
            }
            assertEquals(s, cv[i * n + j], 1e-14 * mag);
        }
    }

    @Test
    void transposedOperandsMatchAnExplicitTranspose() {
        Random rnd = new Random(14);
        // contract a on axis 0 and b on its last axis: floats read both as transposed views
        for (DType t : List.of(DType.F32, DType.F64, DType.F16, DType.BF16, DType.S64)) {
            Tensor a = values(rnd, t, 70, 45);
            Tensor b = values(rnd, t, 38, 70);
            int[] ca = {0}, cb = {1}, none = {};
            assertPathsAgree(a, ca, none, b, cb, none);
            Tensor viaTranspose = a.transpose().dot(b.transpose());
            Tensor direct = a.dot(ca, none, b, cb, none);
            if (t.isFloat()) assertDotClose(viaTranspose, direct, a, ca, none, b, cb, none);
            else assertSameBits(viaTranspose, direct);
        }
    }

    @Test
    void axesThatDoNotCollapseArePermutedFirst() {
        Random rnd = new Random(15);
        // a [3, 4, 5] contracting axes {0, 2}: the contraction axes are not adjacent in memory
        // (no single stride), and b [5, 2, 3] contracts {2, 0}: reordered pairs do collapse for neither
        for (DType t : List.of(DType.F32, DType.F64, DType.BF16)) {
            Tensor a = values(rnd, t, 3, 4, 5);
            Tensor b = values(rnd, t, 5, 2, 3);
            assertPathsAgree(a, new int[] {0, 2}, new int[0], b, new int[] {2, 0}, new int[0]);
            // batched with free axes split around the contraction axis: a [2, 3, 6, 4] · b [2, 6, 5]
            Tensor ba = values(rnd, t, 2, 3, 6, 4);
            Tensor bb = values(rnd, t, 2, 6, 5);
            assertPathsAgree(ba, new int[] {2}, new int[] {0}, bb, new int[] {1}, new int[] {0});
        }
    }

    @Test
    void batchedMatmulLargeEnoughToSplitInsideEachGemm() {
        Random rnd = new Random(16);
        for (DType t : List.of(DType.F32, DType.F64, DType.F16)) {
            Tensor a = values(rnd, t, 2, 140, 130);
            Tensor b = values(rnd, t, 2, 130, 120);
            assertPathsAgree(a, new int[] {2}, new int[] {0}, b, new int[] {1}, new int[] {0});
            // and the transposed right operand, contracting its last axis
            Tensor bt = values(rnd, t, 2, 120, 130);
            assertPathsAgree(a, new int[] {2}, new int[] {0}, bt, new int[] {2}, new int[] {0});
        }
    }
}
