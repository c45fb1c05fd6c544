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

/** Cholesky, triangular solve, LU and QR: Nx's examples and algebraic laws on random batches, every float dtype, every engine. */
class LinAlgFactorTest {

    // ---- Cholesky ---------------------------------------------------------------------------------

    @Test
    void choleskyNxExamples() {
        try (Tensor l = LinAlg.cholesky(Tensor.of(new float[][] {{20, 17.6f}, {17.6f, 16}}))) {
            assertEquals(DType.F32, l.dtype());
            assertValues(new double[] {4.472136, 0, 3.9354796, 0.71554184}, l, 1e-6);
        }
        try (Tensor l = LinAlg.cholesky(Tensor.of(new double[][] {{6, 3, 4, 8}, {3, 6, 5, 1}, {4, 5, 10, 7}, {8, 1, 7, 25}}))) {
            assertValues(new double[] {2.449489742783178, 0, 0, 0, 1.224744871391589, 2.1213203435596424, 0, 0,
                    1.6329931618554523, 1.414213562373095, 2.309401076758503, 0,
                    3.265986323710904, -1.414213562373095, 1.5877132402714704, 3.1324910215354165}, l, 1e-14);
        }
        try (Tensor a = Tensor.fromArray(new float[][][] {{{2, 3}, {3, 5}}, {{1, 0}, {0, 1}}}); Tensor l = LinAlg.cholesky(a)) {
            assertEquals(Shape.of(2, 2, 2), l.shape());
            assertValues(new double[] {1.4142135, 0, 2.1213205, 0.70710677, 1, 0, 0, 1}, l, 1e-6);
        }
        try (Tensor l = LinAlg.cholesky(Tensor.of(new int[][] {{4, 2}, {2, 2}}))) {
            assertEquals(DType.F32, l.dtype());
            assertValues(new double[] {2, 0, 1, 1}, l, 0);
        }
    }

    @Test
    void choleskyReconstructsRandomSpdMatricesOnEveryEngineAndDtype() {
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : FLOATS) {
                for (int n : new int[] {1, 2, 5, 17}) checkCholesky(spd(n * 31L + t.ordinal(), t, e, 3, n), t);
            }
            for (int n : new int[] {70, 131}) checkCholesky(spd(n, DType.F64, e, 1, n), DType.F64);
        }
    }

    private static void checkCholesky(Tensor a, DType t) {
        try (a; Tensor l = LinAlg.cholesky(a)) {
            assertEquals(a.shape(), l.shape());
            assertEquals(t, l.dtype());
            int n = a.shape().dim(-1);
            int batch = (int) (a.size() / Math.max(1, (long) n * n));
            double[] av = a.toDoubleArray();
            double[] lv = l.toDoubleArray();
            for (int b = 0; b < batch; b++) {
                double[] lm = part(lv, b, n * n);
                for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) assertEquals(0.0, lm[i * n + j], "upper triangle");
                assertClose(part(av, b, n * n), matmul(lm, n, n, transpose(lm, n, n), n), tol(t, n), "L·Lᵀ = A (" + t + ", n=" + n + ")");
            }
        }
    }

    @Test
    void choleskyVectorPathAgreesWithOracle() {
        try (Tensor a = spd(7, DType.F64, ReductionEngines.ORACLE, 1, 150);
             Tensor oracle = LinAlg.cholesky(a);
             Tensor av = a.to(ReductionEngines.PARALLEL);
             Tensor fast = LinAlg.cholesky(av)) {
            assertClose(oracle.toDoubleArray(), fast.toDoubleArray(), 1e-13, "blocked vs unblocked");
        }
    }

    @Test
    void choleskyOfANonPositiveDefiniteMatrixGivesNaN() {
        for (Engine e : ReductionEngines.ALL) {
            try (Tensor a = of(new double[] {1, 2, 2, 1}, DType.F64, e, 2, 2); Tensor l = LinAlg.cholesky(a)) {
                double[] v = l.toDoubleArray();
                assertEquals(1.0, v[0]);
                assertEquals(2.0, v[2]);
                assertTrue(Double.isNaN(v[3]), "sqrt(1 - 4)");
            }
        }
    }

    // ---- triangular solve -------------------------------------------------------------------------

    @Test
    void triangularSolveNxExamples() {
        try (Tensor a = Tensor.of(new int[][] {{3, 0, 0, 0}, {2, 1, 0, 0}, {1, 0, 1, 0}, {1, 1, 1, 1}});
             Tensor x = LinAlg.triangularSolve(a, Tensor.of(4, 2, 4, 2))) {
            assertEquals(DType.F32, x.dtype());
            assertValues(new double[] {1.3333334, -0.6666667, 2.6666667, -1.3333334}, x, 1e-6);
        }
        try (Tensor a = Tensor.of(new int[][] {{1, 0, 0}, {1, 1, 0}, {0, 1, 1}});
             Tensor b = Tensor.of(new int[][] {{1, 2, 3}, {2, 2, 4}, {2, 0, 1}});
             Tensor x = LinAlg.triangularSolve(a, b)) {
            assertValues(new double[] {1, 2, 3, 1, 0, 1, 1, 0, 0}, x, 0);
        }
        try (Tensor a = Tensor.of(new int[][] {{1, 1, 1, 1}, {0, 1, 0, 1}, {0, 0, 1, 2}, {0, 0, 0, 3}});
             Tensor x = LinAlg.triangularSolve(a, Tensor.of(2, 4, 2, 4), false, true, false)) {
            assertValues(new double[] {-1.3333334, 2.6666667, -0.6666667, 1.3333334}, x, 1e-6);
        }
        try (Tensor a = Tensor.of(new int[][] {{1, 0, 0}, {1, 1, 0}, {1, 2, 1}});
             Tensor b = Tensor.of(new int[][] {{0, 2, 1}, {1, 1, 0}, {3, 3, 1}});
             Tensor x = LinAlg.triangularSolve(a, b, true, false, false)) {
            assertValues(new double[] {-1, 0, 1, 0, 1, 0, 1, 1, 1}, x, 0);
        }
        try (Tensor a = Tensor.of(new double[][] {{1, 1, 1}, {0, 1, 1}, {0, 0, 1}});
             Tensor x = LinAlg.triangularSolve(a, Tensor.of(1.0, 2, 1), false, true, true)) {
            assertEquals(DType.F64, x.dtype());
            assertValues(new double[] {1, 1, -1}, x, 0);
        }
        try (Tensor a = Tensor.of(new int[][] {{1, 0, 0}, {1, 1, 0}, {1, 2, 1}});
             Tensor b = Tensor.of(new int[][] {{0, 1, 3}, {2, 1, 3}});
             Tensor x = LinAlg.triangularSolve(a, b, true, false, false)) {
            assertEquals(Shape.of(2, 3), x.shape());
            assertValues(new double[] {2, -5, 3, 4, -5, 3}, x, 0);
        }
        // A batch of matrices with a batch of vectors: b [2, 2] is one vector per matrix.
        try (Tensor a = Tensor.fromArray(new int[][][] {{{1, 0}, {2, 3}}, {{4, 0}, {5, 6}}});
             Tensor b = Tensor.of(new int[][] {{2, -1}, {3, 7}});
             Tensor x = LinAlg.triangularSolve(a, b)) {
            assertValues(new double[] {2, -1.6666666, 0.75, 0.5416667}, x, 1e-6);
        }
    }

    @Test
    void triangularSolveEveryVariantSatisfiesItsEquation() {
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : new DType[] {DType.F64, DType.F32}) {
                for (boolean lower : new boolean[] {true, false}) {
                    for (boolean left : new boolean[] {true, false}) {
                        for (boolean trans : new boolean[] {true, false}) {
                            checkTriangular(e, t, lower, left, trans, false);
                            checkTriangular(e, t, lower, left, trans, true);
                        }
                    }
                }
            }
        }
    }

    /** {@code a [3, 4, 4]} triangular with a dominant diagonal; {@code b [3, 4]} or {@code [3, 4, 2]} / {@code [3, 2, 4]}. */
    private static void checkTriangular(Engine e, DType t, boolean lower, boolean left, boolean trans, boolean vector) {
        int n = 4, m = 2, batch = 3;
        double[] av;
        try (Tensor r = random(11 + (lower ? 1 : 0) + (left ? 2 : 0), DType.F64, e, batch, n, n)) {
            av = r.toDoubleArray();
        }
        for (int b = 0; b < batch; b++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    boolean inTriangle = lower ? j <= i : j >= i;
                    // Entries outside the triangle are garbage the solve must ignore.
                    if (i == j) av[b * n * n + i * n + j] = 2 + av[b * n * n + i * n + j];
                    else if (!inTriangle) av[b * n * n + i * n + j] = 99;
                }
            }
        }
        int[] bDims = vector ? new int[] {batch, n} : left ? new int[] {batch, n, m} : new int[] {batch, m, n};
        try (Tensor a = of(av, t, e, batch, n, n);
             Tensor bt = random(5, t, e, bDims);
             Tensor x = LinAlg.triangularSolve(a, bt, lower, left, trans)) {
            assertEquals(bt.shape(), x.shape());
            double[] aq = a.toDoubleArray();
            double[] bq = bt.toDoubleArray();
            double[] xq = x.toDoubleArray();
            int cols = vector ? 1 : m;
            for (int b = 0; b < batch; b++) {
                double[] tri = part(aq, b, n * n);
                for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (lower ? j > i : j < i) tri[i * n + j] = 0;
                double[] op = trans ? transpose(tri, n, n) : tri;
                double[] xb = part(xq, b, n * cols);
                double[] bb = part(bq, b, n * cols);
                double[] lhs = left ? matmul(op, n, n, xb, cols) : matmul(xb, vector ? 1 : m, n, op, n);
                assertClose(bb, lhs, tol(t, n) * 10, "lower=" + lower + " left=" + left + " transpose=" + trans + " vector=" + vector + " " + t);
            }
        }
    }

    @Test
    void triangularSolveWithAZeroOnTheDiagonalThrows() {
        for (Engine e : ReductionEngines.ALL) {
            try (Tensor a = of(new double[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, DType.F32, e, 4, 4);
                 Tensor b = of(new double[] {4, 2, 4, 2}, DType.F32, e, 4)) {
                JBurnException ex = assertThrows(JBurnException.class, () -> LinAlg.triangularSolve(a, b));
                assertEquals("triangularSolve", ex.op());
                assertTrue(ex.reason().contains("can't solve for singular matrix"), ex.reason());
            }
        }
    }

    // ---- LU -------------------------------------------------------------------------------------------

    @Test
    void luNxExample() {
        try (LinAlg.LU f = LinAlg.lu(Tensor.of(new int[][] {{1, 0, 1}, {-1, 0, -1}, {1, 1, 1}}))) {
            assertEquals(DType.S32, f.p().dtype(), "p keeps the input type");
            assertEquals(DType.F32, f.l().dtype());
            assertArrayEquals(new int[] {1, 0, 0, 0, 0, 1, 0, 1, 0}, f.p().toIntArray());
            assertValues(new double[] {1, 0, 0, 1, 1, 0, -1, 0, 1}, f.l(), 0);
            assertValues(new double[] {1, 0, 1, 0, 1, 0, 0, 0, 0}, f.u(), 0);
        }
        // Partial pivoting on the reduced column, as LAPACK (Nx's binary backend pivots on the original values instead).
        try (LinAlg.LU f = LinAlg.lu(Tensor.of(new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}))) {
            assertValues(new double[] {0, 1, 0, 0, 0, 1, 1, 0, 0}, f.p(), 0);
            assertValues(new double[] {1, 0, 0, 1.0 / 7, 1, 0, 4.0 / 7, 0.5, 1}, f.l(), 1e-15);
            assertValues(new double[] {7, 8, 9, 0, 6.0 / 7, 12.0 / 7, 0, 0, 0}, f.u(), 1e-15);
        }
    }

    @Test
    void luReconstructsRandomBatchesOnEveryEngineAndDtype() {
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : FLOATS) {
                for (int n : new int[] {1, 2, 5, 9}) {
                    try (Tensor a = random(n * 7L + t.ordinal(), t, e, 3, n, n); LinAlg.LU f = LinAlg.lu(a)) {
                        checkLu(a, f, t, n);
                    }
                }
            }
        }
    }

    private static void checkLu(Tensor a, LinAlg.LU f, DType t, int n) {
        assertEquals(a.shape(), f.p().shape());
        double[] av = a.toDoubleArray(), pv = f.p().toDoubleArray(), lv = f.l().toDoubleArray(), uv = f.u().toDoubleArray();
        int batch = (int) (a.size() / ((long) n * n));
        for (int b = 0; b < batch; b++) {
            double[] p = part(pv, b, n * n), l = part(lv, b, n * n), u = part(uv, b, n * n);
            for (int i = 0; i < n; i++) {
                double rowSum = 0;
                for (int j = 0; j < n; j++) {
                    assertTrue(p[i * n + j] == 0 || p[i * n + j] == 1, "p is 0/1");
                    rowSum += p[i * n + j];
                    if (j > i) assertEquals(0.0, l[i * n + j], "l lower");
                    if (j < i) assertEquals(0.0, u[i * n + j], "u upper");
                    if (j < i) assertTrue(Math.abs(l[i * n + j]) <= 1, "partial pivoting bounds l");
                }
                assertEquals(1.0, rowSum, "one 1 per row");
                assertEquals(1.0, l[i * n + i], "unit diagonal");
            }
            assertClose(part(av, b, n * n), matmul(p, n, n, matmul(l, n, n, u, n), n), tol(t, n), "P·L·U = A " + t);
        }
    }

    // ---- QR -------------------------------------------------------------------------------------------

    @Test
    void qrNxExamples() {
        for (double[] upper : new double[][] {{-3, 2, 1, 0, 1, 1, 0, 0, -1}, {3, 2, 1, 0, 1, 1, 0, 0, 1}}) {
            try (Tensor a = of(upper, DType.F32, Engine.defaultEngine(), 3, 3); LinAlg.QR f = LinAlg.qr(a)) {
                assertValues(identity(3), f.q(), 0);
                assertValues(upper, f.r(), 0);
            }
        }
        try (Tensor a = Tensor.of(new float[][] {{3, 2, 1}, {0, 1, 1}, {0, 0, 1}, {0, 0, 1}}); LinAlg.QR f = LinAlg.qr(a)) {
            assertEquals(Shape.of(4, 3), f.q().shape());
            assertEquals(Shape.of(3, 3), f.r().shape());
            assertValues(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 0.70710677, 0, 0, 0.70710677}, f.q(), 1e-6);
            assertValues(new double[] {3, 2, 1, 0, 1, 1, 0, 0, 1.4142135}, f.r(), 1e-6);
        }
        try (Tensor a = Tensor.of(new float[][] {{3, 2, 1}, {0, 1, 1}, {0, 0, 1}, {0, 0, 0}}); LinAlg.QR f = LinAlg.qr(a, true)) {
            assertEquals(Shape.of(4, 4), f.q().shape());
            assertEquals(Shape.of(4, 3), f.r().shape());
            assertValues(identity(4), f.q(), 0);
            assertValues(new double[] {3, 2, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0}, f.r(), 0);
        }
    }

    @Test
    void qrReconstructsRandomBatchesWithOrthonormalQ() {
        int[][] shapes = {{1, 1}, {3, 3}, {5, 3}, {3, 5}, {3, 4, 4}, {2, 6, 4}, {2, 3, 6}};
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : FLOATS) {
                for (int[] dims : shapes) {
                    for (boolean complete : new boolean[] {false, true}) {
                        try (Tensor a = random(dims.length * 100L + dims[dims.length - 1], t, e, dims); LinAlg.QR f = LinAlg.qr(a, complete)) {
                            checkQr(a, f, t, complete);
                        }
                    }
                }
            }
        }
    }

    private static void checkQr(Tensor a, LinAlg.QR f, DType t, boolean complete) {
        int m = a.shape().dim(-2), n = a.shape().dim(-1), k = Math.min(m, n);
        int qc = complete ? m : k;
        assertEquals(qc, f.q().shape().dim(-1));
        assertEquals(qc, f.r().shape().dim(-2));
        int batch = (int) (a.size() / ((long) m * n));
        double[] av = a.toDoubleArray(), qv = f.q().toDoubleArray(), rv = f.r().toDoubleArray();
        String what = t + " " + a.shape() + (complete ? " complete" : " reduced");
        for (int b = 0; b < batch; b++) {
            double[] q = part(qv, b, m * qc), r = part(rv, b, qc * n);
            for (int i = 0; i < qc; i++) for (int j = 0; j < Math.min(i, n); j++) assertEquals(0.0, r[i * n + j], "r upper " + what);
            assertClose(part(av, b, m * n), matmul(q, m, qc, r, n), tol(t, m), "Q·R = A " + what);
            assertClose(identity(qc), matmul(transpose(q, m, qc), qc, m, q, qc), tol(t, m), "QᵀQ = I " + what);
        }
    }
}
