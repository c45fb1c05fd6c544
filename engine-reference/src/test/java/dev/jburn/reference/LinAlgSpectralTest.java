package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.LinAlg;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static dev.jburn.reference.LinAlgTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** eigh and svd: Nx's examples and algebraic laws on random batches, every float dtype, every engine. */
class LinAlgSpectralTest {

    // ---- eigh -----------------------------------------------------------------------------------------

    @Test
    void eighNxExamplesSortedByDescendingMagnitude() {
        try (LinAlg.Eigh e = LinAlg.eigh(Tensor.of(new int[][] {{1, 0}, {0, 2}}))) {
            assertEquals(DType.F32, e.eigenvalues().dtype());
            assertValues(new double[] {2, 1}, e.eigenvalues(), 0);
            assertValues(new double[] {0, 1, 1, 0}, e.eigenvectors(), 0);
        }
        try (LinAlg.Eigh e = LinAlg.eigh(Tensor.of(new double[][] {{0, 1, 2}, {1, 0, 2}, {2, 2, 3}}))) {
            assertValues(new double[] {5, -1, -1}, e.eigenvalues(), 1e-14);
            double r6 = 1 / Math.sqrt(6);
            double[] v = e.eigenvectors().toDoubleArray();
            assertClose(new double[] {r6, r6, 2 * r6}, new double[] {v[0], v[3], v[6]}, 1e-14, "eigenvector of 5");
        }
        try (Tensor a = Tensor.fromArray(new int[][][] {{{2, 5}, {5, 6}}, {{1, 0}, {0, 4}}}); LinAlg.Eigh e = LinAlg.eigh(a)) {
            assertEquals(Shape.of(2, 2), e.eigenvalues().shape());
            assertEquals(Shape.of(2, 2, 2), e.eigenvectors().shape());
            double s29 = Math.sqrt(29);
            assertValues(new double[] {4 + s29, 4 - s29, 4, 1}, e.eigenvalues(), 1e-6);
        }
    }

    @Test
    void eighSatisfiesAvEqualsLambdaVOnRandomSymmetricBatches() {
        for (Engine eng : ReductionEngines.ALL) {
            for (DType t : FLOATS) {
                for (int n : new int[] {1, 2, 5, 12}) {
                    try (Tensor r = random(n * 13L + t.ordinal(), DType.F64, eng, 3, n, n);
                         Tensor rt = r.transpose(0, 2, 1);
                         Tensor sym64 = r.add(rt);
                         Tensor sym = sym64.asType(t);
                         LinAlg.Eigh e = LinAlg.eigh(sym)) {
                        checkEigh(sym, e, t, n);
                    }
                }
            }
        }
    }

    private static void checkEigh(Tensor a, LinAlg.Eigh e, DType t, int n) {
        double[] av = a.toDoubleArray(), w = e.eigenvalues().toDoubleArray(), vv = e.eigenvectors().toDoubleArray();
        int batch = (int) (a.size() / ((long) n * n));
        String what = t + " n=" + n;
        for (int b = 0; b < batch; b++) {
            double[] am = part(av, b, n * n), v = part(vv, b, n * n), wb = part(w, b, n);
            for (int i = 1; i < n; i++) assertTrue(Math.abs(wb[i - 1]) >= Math.abs(wb[i]), "descending |λ| " + what);
            double[] av2 = matmul(am, n, n, v, n);
            double[] vl = new double[n * n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) vl[i * n + j] = v[i * n + j] * wb[j];
            assertClose(av2, vl, tol(t, n) * 4, "A·v = λ·v " + what);
            assertClose(identity(n), matmul(transpose(v, n, n), n, n, v, n), tol(t, n), "VᵀV = I " + what);
        }
    }

    @Test
    void eighReadsOnlyTheLowerTriangle() {
        try (Tensor a = Tensor.of(new double[][] {{2, 99}, {1, 2}}); LinAlg.Eigh e = LinAlg.eigh(a)) {
            assertValues(new double[] {3, 1}, e.eigenvalues(), 1e-15);
        }
    }

    // ---- SVD ------------------------------------------------------------------------------------------

    @Test
    void svdNxExamples() {
        try (LinAlg.SVD f = LinAlg.svd(Tensor.of(new int[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}}))) {
            assertValues(new double[] {1, 0, 0, 0, 1, 0, 0, 0, -1}, f.u(), 0);
            assertValues(new double[] {1, 1, 1}, f.s(), 0);
            assertValues(identity(3), f.vt(), 0);
        }
        try (Tensor a = Tensor.of(new int[][] {{2, 0, 0}, {0, 3, 0}, {0, 0, -1}, {0, 0, 0}})) {
            try (LinAlg.SVD f = LinAlg.svd(a)) {
                assertValues(new double[] {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1}, f.u(), 0);
                assertValues(new double[] {3, 2, 1}, f.s(), 0);
                assertValues(new double[] {0, 1, 0, 1, 0, 0, 0, 0, 1}, f.vt(), 0);
            }
            try (LinAlg.SVD f = LinAlg.svd(a, false)) {
                assertEquals(Shape.of(4, 3), f.u().shape());
                assertValues(new double[] {0, 1, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0}, f.u(), 0);
                assertValues(new double[] {3, 2, 1}, f.s(), 0);
            }
        }
    }

    @Test
    void svdReconstructsRandomBatchesWithOrthonormalFactors() {
        int[][] shapes = {{1, 1}, {3, 3}, {5, 3}, {3, 5}, {3, 4, 4}, {2, 5, 3}, {2, 3, 6}};
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : FLOATS) {
                for (int[] dims : shapes) {
                    for (boolean full : new boolean[] {true, false}) {
                        try (Tensor a = random(dims.length * 1000L + dims[dims.length - 2] * 10L + t.ordinal(), t, e, dims);
                             LinAlg.SVD f = LinAlg.svd(a, full)) {
                            checkSvd(a, f, t, full);
                        }
                    }
                }
            }
        }
    }

    @Test
    void svdOfRankDeficientMatricesCompletesTheBasis() {
        // rank 1 (4×3) and the zero matrix (3×5): zero singular values, U completed from the standard basis.
        double[] rank1 = new double[12];
        for (int i = 0; i < 4; i++) for (int j = 0; j < 3; j++) rank1[i * 3 + j] = (i + 1) * (j - 1.5);
        for (boolean full : new boolean[] {true, false}) {
            try (Tensor a = of(rank1, DType.F64, Engine.defaultEngine(), 4, 3); LinAlg.SVD f = LinAlg.svd(a, full)) {
                checkSvd(a, f, DType.F64, full);
                double[] s = f.s().toDoubleArray();
                assertTrue(s[1] < 1e-14 && s[2] < 1e-14, "rank 1");
            }
            try (Tensor a = Tensor.zeros(Shape.of(3, 5), DType.F32); LinAlg.SVD f = LinAlg.svd(a, full)) {
                checkSvd(a, f, DType.F32, full);
                assertValues(new double[] {0, 0, 0}, f.s(), 0);
            }
        }
    }

    private static void checkSvd(Tensor a, LinAlg.SVD f, DType t, boolean full) {
        int m = a.shape().dim(-2), n = a.shape().dim(-1), k = Math.min(m, n);
        int uc = full ? m : k, vr = full ? n : k;
        assertEquals(uc, f.u().shape().dim(-1));
        assertEquals(k, f.s().shape().dim(-1));
        assertEquals(vr, f.vt().shape().dim(-2));
        int batch = (int) (a.size() / ((long) m * n));
        double[] av = a.toDoubleArray(), uv = f.u().toDoubleArray(), sv = f.s().toDoubleArray(), vtv = f.vt().toDoubleArray();
        String what = t + " " + a.shape() + (full ? " full" : " reduced");
        for (int b = 0; b < batch; b++) {
            double[] u = part(uv, b, m * uc), s = part(sv, b, k), vt = part(vtv, b, vr * n);
            for (int i = 0; i < k; i++) {
                assertTrue(s[i] >= 0, "s non-negative " + what);
                if (i > 0) assertTrue(s[i - 1] >= s[i], "s descending " + what);
            }
            double[] us = new double[m * k];
            for (int i = 0; i < m; i++) for (int j = 0; j < k; j++) us[i * k + j] = u[i * uc + j] * s[j];
            double[] vtk = part(vt, 0, k * n);
            assertClose(part(av, b, m * n), matmul(us, m, k, vtk, n), tol(t, Math.max(m, n)), "U·S·Vᵀ = A " + what);
            assertClose(identity(uc), matmul(transpose(u, m, uc), uc, m, u, uc), tol(t, m), "UᵀU = I " + what);
            assertClose(identity(vr), matmul(vt, vr, n, transpose(vt, vr, n), vr), tol(t, n), "Vᵀ·V = I " + what);
        }
    }

    @Test
    void nanInputGivesNaNOutputs() {
        try (Tensor a = Tensor.of(new double[][] {{Double.NaN, 0}, {0, 1}}); LinAlg.Eigh e = LinAlg.eigh(a); LinAlg.SVD f = LinAlg.svd(a)) {
            for (double v : e.eigenvalues().toDoubleArray()) assertTrue(Double.isNaN(v));
            for (double v : f.s().toDoubleArray()) assertTrue(Double.isNaN(v));
        }
    }

    @Test
    void batchedResultsEqualOneMatrixAtATime() {
        try (Tensor a = random(99, DType.F64, ReductionEngines.PARALLEL, 3, 4, 4);
             LinAlg.SVD all = LinAlg.svd(a);
             Tensor second = a.slice(new int[] {1, 0, 0}, new int[] {1, 4, 4});
             Tensor one = second.reshape(4, 4);
             LinAlg.SVD single = LinAlg.svd(one)) {
            assertArrayEquals(single.s().toDoubleArray(), part(all.s().toDoubleArray(), 1, 4));
            assertArrayEquals(single.u().toDoubleArray(), part(all.u().toDoubleArray(), 1, 16));
        }
    }
}
