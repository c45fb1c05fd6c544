package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.LinAlg;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static dev.jburn.reference.LinAlgTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** solve, invert and determinant: Nx's examples, laws on random batches, and singular matrices. */
class LinAlgSolveTest {

    // ---- determinant ----------------------------------------------------------------------------------

    @Test
    void determinantNxExamples() {
        assertDet(-2, Tensor.of(new int[][] {{1, 2}, {3, 4}}), DType.F32);
        assertDet(48, Tensor.of(new double[][] {{1, 2, 3}, {1, -2, 3}, {7, 8, 9}}), DType.F64);
        assertDet(0, Tensor.of(new float[][] {{1, 0}, {3, 0}}), DType.F32);
        assertDet(0, Tensor.of(new float[][] {{1, 2, 3}, {-1, -2, -3}, {4, 5, 6}}), DType.F32);
        assertDet(0, Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}), DType.F32);
        assertDet(48, Tensor.of(new double[][] {{1, 0, 0, 0}, {0, 1, 2, 3}, {0, 1, -2, 3}, {0, 7, 8, 9}}), DType.F64);
        assertDet(48, Tensor.of(new int[][] {{0, 0, 0, 0, -1}, {0, 1, 2, 3, 0}, {0, 1, -2, 3, 0}, {0, 7, 8, 9, 0}, {1, 0, 0, 0, 0}}), DType.F32);
        assertDet(0, Tensor.of(new int[][] {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 1}}), DType.F32);
        assertDet(5, Tensor.of(new int[][] {{5}}), DType.F32);
        try (Tensor a = Tensor.fromArray(new int[][][] {{{2, 4, 6, 7}, {5, 1, 8, 8}, {1, 7, 3, 1}, {3, 9, 2, 4}},
                {{2, 5, 1, 3}, {4, 1, 7, 9}, {6, 8, 3, 2}, {7, 8, 1, 4}}});
             Tensor d = LinAlg.determinant(a)) {
            assertEquals(Shape.of(2), d.shape());
            assertValues(new double[] {630, 630}, d, 1e-6);
        }
        try (Tensor a = Tensor.fromArray(new int[][][] {{{1, 0}, {0, 2}}, {{3, 0}, {0, 4}}}); Tensor d = LinAlg.determinant(a)) {
            assertValues(new double[] {2, 12}, d, 0);
        }
    }

    private static void assertDet(double expected, Tensor a, DType type) {
        try (a; Tensor d = LinAlg.determinant(a)) {
            assertEquals(type, d.dtype());
            assertEquals(Shape.scalar(), d.shape());
            assertEquals(expected, d.item().doubleValue(), Math.abs(expected) * 1e-6, a.toString());
        }
    }

    @Test
    void determinantIsTheSignedProductOfTheLuPivots() {
        for (Engine e : ReductionEngines.ALL) {
            for (int n : new int[] {1, 2, 3, 4, 6}) {
                try (Tensor a = random(n * 3L, DType.F64, e, 3, n, n); Tensor d = LinAlg.determinant(a); LinAlg.LU f = LinAlg.lu(a)) {
                    double[] pv = f.p().toDoubleArray(), uv = f.u().toDoubleArray(), dv = d.toDoubleArray();
                    for (int b = 0; b < 3; b++) {
                        double prod = permutationSign(part(pv, b, n * n), n);
                        for (int i = 0; i < n; i++) prod *= uv[b * n * n + i * n + i];
                        assertEquals(prod, dv[b], 1e-12 * Math.max(1, Math.abs(prod)), "n=" + n);
                    }
                }
            }
        }
    }

    private static double permutationSign(double[] p, int n) {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (p[i * n + j] == 1) perm[j] = i;
        int inversions = 0;
        for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) if (perm[i] > perm[j]) inversions++;
        return inversions % 2 == 0 ? 1 : -1;
    }

    // ---- solve ----------------------------------------------------------------------------------------

    @Test
    void solveNxExamples() {
        try (Tensor a = Tensor.of(new int[][] {{1, 3, 2, 1}, {2, 1, 0, 0}, {1, 0, 1, 0}, {1, 1, 1, 1}});
             Tensor x = LinAlg.solve(a, Tensor.of(-3, 0, 4, -2))) {
            assertEquals(DType.F32, x.dtype());
            assertValues(new double[] {1, -2, 3, -4}, x, 1e-5);
        }
        try (Tensor a = Tensor.of(new double[][] {{1, 0, 1}, {1, 1, 0}, {1, 1, 1}}); Tensor x = LinAlg.solve(a, Tensor.of(0, 2, 1))) {
            assertEquals(DType.F64, x.dtype());
            assertValues(new double[] {1, 1, -1}, x, 1e-15);
        }
        try (Tensor a = Tensor.of(new int[][] {{1, 0, 1}, {1, 1, 0}, {0, 1, 1}});
             Tensor x = LinAlg.solve(a, Tensor.of(new int[][] {{2, 2, 3}, {2, 2, 4}, {2, 0, 1}}))) {
            assertValues(new double[] {1, 2, 3, 1, 0, 1, 1, 0, 0}, x, 1e-6);
        }
        try (Tensor a = Tensor.fromArray(new int[][][] {{{14, 10}, {9, 9}}, {{4, 11}, {2, 3}}});
             Tensor b = Tensor.fromArray(new int[][][] {{{2, 4}, {3, 2}}, {{1, 5}, {-3, -1}}});
             Tensor x = LinAlg.solve(a, b); Tensor rounded = x.round()) {
            assertValues(new double[] {0, 0, 1, 0, -4, -3, 1, 1}, rounded, 0);
        }
    }

    @Test
    void solveSatisfiesAxEqualsBOnRandomBatches() {
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : FLOATS) {
                for (int n : new int[] {1, 2, 3, 4, 7}) {
                    for (boolean vector : new boolean[] {true, false}) {
                        int[] bDims = vector ? new int[] {3, n} : new int[] {3, n, 2};
                        try (Tensor a = random(n * 17L + t.ordinal(), t, e, 3, n, n); Tensor b = random(n, t, e, bDims);
                             Tensor x = LinAlg.solve(a, b)) {
                            assertEquals(b.shape(), x.shape());
                            int cols = vector ? 1 : 2;
                            double[] av = a.toDoubleArray(), bv = b.toDoubleArray(), xv = x.toDoubleArray();
                            for (int i = 0; i < 3; i++) {
                                double[] ax = matmul(part(av, i, n * n), n, n, part(xv, i, n * cols), cols);
                                // Random matrices may be ill-conditioned; scale the check by |x|.
                                double tol = tol(t, n) * 10 * Math.max(1, maxAbs(part(xv, i, n * cols)));
                                assertClose(part(bv, i, n * cols), ax, tol, "A·x = b " + t + " n=" + n + " vector=" + vector);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void invertNxExamples() {
        try (Tensor a = Tensor.of(new int[][] {{1, 2, 1, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {0, 0, 0, 1}}); Tensor inv = LinAlg.invert(a)) {
            assertEquals(DType.F32, inv.dtype());
            assertValues(new double[] {1, -2, -1, 2, 0, 1, 0, -1, 0, 0, 1, -1, 0, 0, 0, 1}, inv, 0);
        }
        try (Tensor a = Tensor.fromArray(new int[][][] {{{1, 2}, {0, 1}}, {{1, 1}, {0, 1}}}); Tensor inv = LinAlg.invert(a)) {
            assertValues(new double[] {1, -2, 0, 1, 1, -1, 0, 1}, inv, 0);
        }
    }

    @Test
    void invertTimesTheMatrixIsTheIdentity() {
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : FLOATS) {
                for (int n : new int[] {1, 3, 5}) {
                    // Diagonally dominant, so well conditioned at every precision.
                    double[] v;
                    try (Tensor r = random(n * 5L, DType.F64, e, 2, n, n)) {
                        v = r.toDoubleArray();
                    }
                    for (int b = 0; b < 2; b++) for (int i = 0; i < n; i++) v[b * n * n + i * n + i] += n;
                    try (Tensor a = of(v, t, e, 2, n, n); Tensor inv = LinAlg.invert(a)) {
                        double[] av = a.toDoubleArray(), iv = inv.toDoubleArray();
                        for (int b = 0; b < 2; b++) {
                            assertClose(identity(n), matmul(part(av, b, n * n), n, n, part(iv, b, n * n), n), tol(t, n) * 4,
                                    "A·A⁻¹ = I " + t + " n=" + n);
                        }
                    }
                }
            }
        }
    }

    @Test
    void singularMatricesThrowForSolveAndInvert() {
        double[][] singular = {
                {1, 2, 2, 4},                                            // 2×2
                {1, 2, 3, 4, 5, 6, 7, 8, 9},                             // 3×3, LU leaves a 1e-16 pivot
                {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1},        // 4×4, an exact zero pivot
        };
        for (Engine e : ReductionEngines.ALL) {
            for (double[] m : singular) {
                int n = (int) Math.round(Math.sqrt(m.length));
                try (Tensor a = of(m, DType.F32, e, n, n); Tensor b = random(1, DType.F32, e, n)) {
                    JBurnException s = assertThrows(JBurnException.class, () -> LinAlg.solve(a, b));
                    assertEquals("solve", s.op());
                    assertTrue(s.reason().startsWith("can't solve for singular matrix"), s.reason());
                    JBurnException i = assertThrows(JBurnException.class, () -> LinAlg.invert(a));
                    assertEquals("invert", i.op());
                    assertTrue(i.reason().contains("singular"), i.reason());
                }
            }
        }
        // The message names the singular matrix of a batch.
        try (Tensor a = Tensor.fromArray(new double[][][] {{{1, 0}, {0, 1}}, {{1, 1}, {1, 1}}})) {
            JBurnException ex = assertThrows(JBurnException.class, () -> LinAlg.invert(a));
            assertTrue(ex.reason().contains("matrix 1 of the batch [2, 2, 2]"), ex.reason());
        }
    }

    @Test
    void emptyMatrices() {
        try (Tensor a = Tensor.zeros(Shape.of(3, 0, 0), DType.F32); Tensor d = LinAlg.determinant(a); Tensor inv = LinAlg.invert(a);
             Tensor l = LinAlg.cholesky(a)) {
            assertValues(new double[] {1, 1, 1}, d, 0);
            assertEquals(Shape.of(3, 0, 0), inv.shape());
            assertEquals(Shape.of(3, 0, 0), l.shape());
        }
        try (Tensor a = Tensor.zeros(Shape.of(0, 4, 4), DType.F64); Tensor d = LinAlg.determinant(a); LinAlg.SVD f = LinAlg.svd(a)) {
            assertEquals(Shape.of(0), d.shape());
            assertEquals(Shape.of(0, 4), f.s().shape());
        }
    }
}
