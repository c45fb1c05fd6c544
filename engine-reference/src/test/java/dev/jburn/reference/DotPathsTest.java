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
 * choices. Every path runs the same fma sequence per element, so results match bit for bit.
 */
class DotPathsTest {
    private static final List<Engine> FAST = List.of(Engine.defaultEngine(), PARALLEL);

    private static Tensor values(Random rnd, DType t, int... dims) {
        return t.isFloat() ? randomFloat(rnd, t, dims) : random(rnd, t, dims);
    }

    private static void assertPathsAgree(Tensor a, int[] ca, int[] ba, Tensor b, int[] cb, int[] bb) {
        Tensor expected = a.to(ORACLE).dot(ca, ba, b.to(ORACLE), cb, bb);
        for (Engine e : FAST) assertSameBits(expected, a.to(e).dot(ca, ba, b.to(e), cb, bb));
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
            DType t = trial % 3 == 0 ? DType.F64 : trial % 3 == 1 ? DType.F32 : DType.S32;
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
    void transposedOperandsUseTheTransposeKernel() {
        Random rnd = new Random(14);
        // contract a on axis 0 and b on its last axis: both need a transpose first
        for (DType t : List.of(DType.F32, DType.BF16, DType.S64)) {
            Tensor a = values(rnd, t, 70, 45);
            Tensor b = values(rnd, t, 38, 70);
            assertPathsAgree(a, new int[] {0}, new int[0], b, new int[] {1}, new int[0]);
            Tensor viaTranspose = a.transpose().dot(b.transpose());
            assertSameBits(viaTranspose, a.dot(new int[] {0}, new int[0], b, new int[] {1}, new int[0]));
        }
    }
}
