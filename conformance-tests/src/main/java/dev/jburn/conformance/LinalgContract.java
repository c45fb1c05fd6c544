package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

import java.util.Arrays;
import java.util.List;

/**
 * {@link LinAlg} on batches of small square matrices (n = 1 to 6, zero to two batch axes, F32
 * and F64) that are well conditioned by construction ({@link Matrices#spd}: {@code M·Mᵀ + n·I},
 * condition ≤ n + 1; {@link Matrices#general}: {@code P·(M + 2n·I)}, condition ≤ 3). Results
 * that are unique match the oracle: {@code cholesky}, {@code lu} (the pivot is the first largest
 * magnitude), {@code triangularSolve}, {@code solve}, {@code invert}, {@code determinant},
 * {@code norm}, the eigenvalues of {@code eigh} and the singular values of {@code svd}.
 * Factors that are unique only up to signs ({@code qr}, the vectors of {@code svd} and
 * {@code eigh}) are checked by their laws, computed by the kit in double: {@code L·Lᵀ = A},
 * {@code P·L·U = A}, {@code Q·R = A} with {@code QᵀQ = I}, {@code U·S·Vᵀ = A} with orthonormal
 * {@code U} and {@code V}, {@code A·v = λ·v}, {@code A·solve(A, b) = b}, {@code A·invert(A) = I},
 * {@code det(A·B) = det(A)·det(B)}, {@code norm(c·x) = |c|·norm(x)}. Non-square input names the op.
 *
 * <p>Tolerance: backward-stable factorizations of a matrix with condition number κ are exact for
 * a matrix within {@code c·n·u·‖A‖} of {@code A} ({@code u} the unit roundoff of the dtype:
 * 2^-24 for F32, 2^-53 for F64); results then move by at most κ times that, relatively. The
 * properties allow an absolute {@code 64·n·u·κ·scale} (see {@link #tolerance}), where
 * {@code scale} bounds the magnitude of the result (the largest entry of {@code A} for products
 * that should give {@code A} back, 1 for orthonormal factors, inverses and solutions) and κ is
 * the generator's bound. An engine that computes F32 in F32 (rather than in double, as the
 * reference does) stays well inside that.
 */
public interface LinalgContract extends EngineContract {

    /** Examples per property: factorizations of up to 6 × 6 matrices are costly on two engines. */
    int LINALG_EXAMPLES = 60;

    /** A batch of matrices {@code a} (shape {@code batch + [n, n]}) with condition number at most {@code kappa}, and a right-hand side. */
    record LinalgCase(TensorCase a, TensorCase b, int n, double kappa) {
        @Override
        public String toString() { return "a " + a + ", b " + b; }
    }

    @Test
    @Covers({"cholesky", "lu", "eigh", "svd"})
    default void factorizationsMatchTheOracle() {
        Props.forAll(cases(Matrices::spd, KappaOf.SPD), LINALG_EXAMPLES, c -> {
            Tolerance unit = tolerance(c, Math.sqrt(Specs.maxAbs(c.a())));
            Oracle.check(engine(), "cholesky(" + c.a() + ")", unit, List.of(c.a()), in -> List.of(LinAlg.cholesky(in.get(0))));
            Tolerance big = tolerance(c, c.n() * Specs.maxAbs(c.a()));
            Oracle.check(engine(), "lu(" + c.a() + ")", big, List.of(c.a()), in -> {
                LinAlg.LU f = LinAlg.lu(in.get(0));
                return List.of(f.p(), f.l(), f.u());
            });
            Oracle.check(engine(), "eigh(" + c.a() + ").eigenvalues", big, List.of(c.a()), in -> List.of(LinAlg.eigh(in.get(0)).eigenvalues()));
            Oracle.check(engine(), "svd(" + c.a() + ").s", big, List.of(c.a()), in -> List.of(LinAlg.svd(in.get(0)).s()));
        });
    }

    @Test
    @Covers({"lu", "solve", "invert", "determinant", "triangularSolve"})
    default void solversMatchTheOracle() {
        Props.forAll(cases(Matrices::general, KappaOf.GENERAL), LINALG_EXAMPLES, c -> {
            Oracle.check(engine(), "lu(" + c.a() + ")", tolerance(c, 3 * c.n() * Specs.maxAbs(c.a())), List.of(c.a()), in -> {
                LinAlg.LU f = LinAlg.lu(in.get(0));
                return List.of(f.p(), f.l(), f.u());
            });
            Oracle.check(engine(), "solve(" + c + ")", tolerance(c, 1), List.of(c.a(), c.b()), in -> List.of(LinAlg.solve(in.get(0), in.get(1))));
            Oracle.check(engine(), "invert(" + c.a() + ")", tolerance(c, 1), List.of(c.a()), in -> List.of(LinAlg.invert(in.get(0))));
            double det = 0;
            for (double[] m : matrices(c.a(), c.n())) det = Math.max(det, Math.abs(Matrices.det(m, c.n())));
            Oracle.check(engine(), "determinant(" + c.a() + ")", tolerance(c, c.n() * det), List.of(c.a()),
                    in -> List.of(LinAlg.determinant(in.get(0))));
        });
        Props.forAll(cases(Matrices::lowerTriangular, KappaOf.TRIANGULAR), LINALG_EXAMPLES, c -> Oracle.check(engine(),
                "triangularSolve(" + c + ")", tolerance(c, 1), List.of(c.a(), c.b()), in -> List.of(LinAlg.triangularSolve(in.get(0), in.get(1)))));
    }

    @Test
    @Covers("norm")
    default void normsMatchTheOracle() {
        Props.forAll(normCases(), LINALG_EXAMPLES, c -> {
            double scale = c.x().shape().size() * Math.max(1, Specs.maxAbs(c.x()));
            Oracle.check(engine(), "norm(" + c.x() + ", " + c.ord() + ")", tolerance(c.x().dtype(), 6, 3, scale), List.of(c.x()),
                    in -> List.of(LinAlg.norm(in.get(0), c.ord())));
        });
    }

    @Test
    @Covers({"cholesky", "lu", "triangularSolve"})
    default void choleskyAndLuMultiplyBackToA() {
        Props.forAll(cases(Matrices::spd, KappaOf.SPD), LINALG_EXAMPLES, c -> {
            int n = c.n();
            Tensor a = c.a().on(engine());
            double[][] as = matrices(c.a(), n);
            double allowed = allowance(c, Specs.maxAbs(c.a()) * n);
            double[][] ls = Matrices.of(LinAlg.cholesky(a), n, n);
            for (int i = 0; i < as.length; i++) {
                double[] l = ls[i];
                for (int r = 0; r < n; r++) for (int q = r + 1; q < n; q++) Assertions.assertEquals(0.0, l[r * n + q], c + ": cholesky's L is lower triangular");
                assertNear(c + ": L·Lᵀ = A (matrix " + i + ")", as[i], Matrices.mul(l, n, n, Matrices.transpose(l, n, n), n), allowed);
            }
            LinAlg.LU f = LinAlg.lu(a);
            double[][] ps = Matrices.of(f.p(), n, n), lus = Matrices.of(f.l(), n, n), us = Matrices.of(f.u(), n, n);
            for (int i = 0; i < as.length; i++) {
                double[] plu = Matrices.mul(ps[i], n, n, Matrices.mul(lus[i], n, n, us[i], n), n);
                assertNear(c + ": P·L·U = A (matrix " + i + ")", as[i], plu, allowed);
            }
            // L from cholesky is well conditioned (its condition is sqrt of A's): L·triangularSolve(L, b) = b
            Tensor l = LinAlg.cholesky(a);
            double[][] xs = Matrices.of(LinAlg.triangularSolve(l, c.b().on(engine())), n, 1), bs = matrices(c.b(), n, 1);
            for (int i = 0; i < as.length; i++) {
                assertNear(c + ": L·triangularSolve(L, b) = b (matrix " + i + ")", bs[i], Matrices.mul(ls[i], n, n, xs[i], 1), allowance(c, n * Specs.maxAbs(c.a())));
            }
        });
    }

    @Test
    @Covers({"qr", "svd", "eigh"})
    default void orthogonalFactorizationsMultiplyBackToA() {
        Props.forAll(cases(Matrices::spd, KappaOf.SPD), LINALG_EXAMPLES, c -> {
            int n = c.n();
            Tensor a = c.a().on(engine());
            double[][] as = matrices(c.a(), n);
            double allowed = allowance(c, Specs.maxAbs(c.a()) * n), unit = allowance(c, 1);
            double[] eye = Matrices.eye(n);
            LinAlg.QR qr = LinAlg.qr(a);
            double[][] qs = Matrices.of(qr.q(), n, n), rs = Matrices.of(qr.r(), n, n);
            LinAlg.SVD svd = LinAlg.svd(a);
            double[][] us = Matrices.of(svd.u(), n, n), ss = Matrices.of(svd.s(), 1, n), vts = Matrices.of(svd.vt(), n, n);
            LinAlg.Eigh eigh = LinAlg.eigh(a);
            double[][] ws = Matrices.of(eigh.eigenvalues(), 1, n), vs = Matrices.of(eigh.eigenvectors(), n, n);
            for (int i = 0; i < as.length; i++) {
                String at = " (matrix " + i + ")";
                assertNear(c + ": Q·R = A" + at, as[i], Matrices.mul(qs[i], n, n, rs[i], n), allowed);
                assertNear(c + ": QᵀQ = I" + at, eye, Matrices.mul(Matrices.transpose(qs[i], n, n), n, n, qs[i], n), unit);
                for (int r = 1; r < n; r++) for (int q = 0; q < r; q++) Assertions.assertTrue(Math.abs(rs[i][r * n + q]) <= allowed, c + ": R is upper triangular" + at);
                double[] us_ = us[i].clone();
                for (int r = 0; r < n; r++) for (int q = 0; q < n; q++) us_[r * n + q] *= ss[i][q];
                assertNear(c + ": U·diag(S)·Vᵀ = A" + at, as[i], Matrices.mul(us_, n, n, vts[i], n), allowed);
                assertNear(c + ": UᵀU = I" + at, eye, Matrices.mul(Matrices.transpose(us[i], n, n), n, n, us[i], n), unit);
                assertNear(c + ": V·Vᵀ = I" + at, eye, Matrices.mul(vts[i], n, n, Matrices.transpose(vts[i], n, n), n), unit);
                for (int q = 0; q < n; q++) {
                    Assertions.assertTrue(ss[i][q] >= 0 && (q == 0 || ss[i][q] <= ss[i][q - 1]), c + ": singular values are non-negative and descending" + at);
                }
                double[] av = Matrices.mul(as[i], n, n, vs[i], n), vl = vs[i].clone();
                for (int r = 0; r < n; r++) for (int q = 0; q < n; q++) vl[r * n + q] *= ws[i][q];
                assertNear(c + ": A·v = λ·v" + at, av, vl, allowed);
                assertNear(c + ": VᵀV = I (eigenvectors)" + at, eye, Matrices.mul(Matrices.transpose(vs[i], n, n), n, n, vs[i], n), unit);
            }
        });
    }

    @Test
    @Covers({"solve", "invert", "determinant"})
    default void solveInvertAndDeterminantObeyTheirLaws() {
        Gen<LinalgCase[]> pairs = rs -> {
            LinalgCase a = cases(Matrices::general, KappaOf.GENERAL).generate(rs);
            int[] batch = Arrays.copyOf(a.a().shape().dims(), a.a().shape().rank() - 2);
            TensorCase b = Matrices.batch(a.a().dtype(), batch, a.n(), size -> Matrices.general(rs, size));
            return new LinalgCase[] {a, new LinalgCase(b, a.b(), a.n(), a.kappa())};
        };
        Props.forAll(pairs, LINALG_EXAMPLES, p -> {
            LinalgCase c = p[0];
            int n = c.n();
            Tensor a = c.a().on(engine()), b = p[1].a().on(engine());
            double[][] as = matrices(c.a(), n), bs = matrices(p[1].a(), n), rhs = matrices(c.b(), n, 1);
            double[][] xs = Matrices.of(LinAlg.solve(a, c.b().on(engine())), n, 1), inv = Matrices.of(LinAlg.invert(a), n, n);
            double[] detA = LinAlg.determinant(a).toDoubleArray(), detB = LinAlg.determinant(b).toDoubleArray();
            // A·B in double, rounded to the dtype: that rounding moves det(A·B) by about n·κ(AB)·u relatively, within the allowance
            double[] ab = new double[as.length * n * n];
            for (int i = 0; i < as.length; i++) System.arraycopy(Matrices.mul(as[i], n, n, bs[i], n), 0, ab, i * n * n, n * n);
            double[] detAb = LinAlg.determinant(TensorCase.ofDoubles(c.a().dtype(), c.a().shape(), ab).on(engine())).toDoubleArray();
            double[] eye = Matrices.eye(n);
            for (int i = 0; i < as.length; i++) {
                String at = " (matrix " + i + ")";
                assertNear(c + ": A·solve(A, b) = b" + at, rhs[i], Matrices.mul(as[i], n, n, xs[i], 1), allowance(c, n * Specs.maxAbs(c.a())));
                assertNear(c + ": A·invert(A) = I" + at, eye, Matrices.mul(as[i], n, n, inv[i], n), allowance(c, n * Specs.maxAbs(c.a())));
                double product = detA[i] * detB[i];
                double allowed = allowance(c, c.kappa() * n) * Math.abs(product);
                Assertions.assertTrue(Math.abs(detAb[i] - product) <= allowed,
                        c + ", b " + p[1].a() + ": det(A·B) = " + detAb[i] + " but det(A)·det(B) = " + product + at + " (allowed " + allowed + ")");
            }
        });
    }

    @Test
    @Covers("norm")
    default void normsAreAbsolutelyHomogeneous() {
        Gen<NormCase> cases = rs -> {
            NormCase c = normCases().generate(rs);
            double scale = Axes.between(rs, -16, 16) / 4.0;
            return new NormCase(c.x(), c.ord(), scale);
        };
        Props.forAll(cases, LINALG_EXAMPLES, c -> {
            if (c.ord().kind() == LinAlg.Ord.Kind.P && c.ord().p() == 0) return;   // counts non-zeros: not homogeneous
            Tensor x = c.x().on(engine());
            double nx = LinAlg.norm(x, c.ord()).toDoubleArray()[0];
            double ncx = LinAlg.norm(x.multiply(c.scale()), c.ord()).toDoubleArray()[0];
            double expected = Math.abs(c.scale()) * nx;
            double allowed = 64 * 6 * unitRoundoff(c.x().dtype()) * Math.max(expected, Math.abs(c.scale()) * Specs.maxAbs(c.x()));
            Assertions.assertTrue(Math.abs(ncx - expected) <= allowed,
                    c + ": norm(c·x) = " + ncx + " but |c|·norm(x) = " + expected + " (allowed " + allowed + ")");
        });
    }

    @Test
    @Covers({"cholesky", "lu", "eigh", "solve", "invert", "determinant", "triangularSolve", "qr", "svd"})
    default void nonSquareMatricesNameTheOp() {
        Props.forAll(Generators.oneOf(DType.F32, DType.F64), 10, t -> {
            TensorCase a = Specs.zeros(t, Shape.of(2, 3)), b = Specs.zeros(t, Shape.of(2)), v = Specs.zeros(t, Shape.of(3));
            String s = a.shape().toString();
            Oracle.checkFails(engine(), "cholesky(" + s + ")", List.of(a), "cholesky", in -> LinAlg.cholesky(in.get(0)), s);
            Oracle.checkFails(engine(), "lu(" + s + ")", List.of(a), "lu", in -> LinAlg.lu(in.get(0)), s);
            Oracle.checkFails(engine(), "eigh(" + s + ")", List.of(a), "eigh", in -> LinAlg.eigh(in.get(0)), s);
            Oracle.checkFails(engine(), "solve(" + s + ", [2])", List.of(a, b), "solve", in -> LinAlg.solve(in.get(0), in.get(1)), s);
            Oracle.checkFails(engine(), "invert(" + s + ")", List.of(a), "invert", in -> LinAlg.invert(in.get(0)), s);
            Oracle.checkFails(engine(), "determinant(" + s + ")", List.of(a), "determinant", in -> LinAlg.determinant(in.get(0)), s);
            Oracle.checkFails(engine(), "triangularSolve(" + s + ", [2])", List.of(a, b), "triangularSolve",
                    in -> LinAlg.triangularSolve(in.get(0), in.get(1)), s);
            Oracle.checkFails(engine(), "qr([3])", List.of(v), "qr", in -> LinAlg.qr(in.get(0)));
            Oracle.checkFails(engine(), "svd([3])", List.of(v), "svd", in -> LinAlg.svd(in.get(0)));
        });
    }

    // ---- generators and tolerances --------------------------------------------------------------

    /** The condition-number bounds of the generators (for n ≤ 6). */
    final class KappaOf {
        private KappaOf() {}
        static final double SPD = 7, GENERAL = 3, TRIANGULAR = 8;
    }

    /** A vector or matrix and a norm order (and a scale for the homogeneity law). */
    record NormCase(TensorCase x, LinAlg.Ord ord, double scale) {
        @Override
        public String toString() { return "norm(" + x + ", " + ord + "), c = " + scale; }
    }

    private static Gen<NormCase> normCases() {
        return rs -> {
            DType t = Generators.oneOf(DType.F32, DType.F64).generate(rs);
            boolean matrix = Axes.coin(rs);
            Shape s = matrix ? Shape.of(Axes.between(rs, 1, 5), Axes.between(rs, 1, 5)) : Shape.of(Axes.between(rs, 1, 8));
            TensorCase x = TensorCase.ofDoubles(t, s, Matrices.random(rs, (int) s.size()));
            List<LinAlg.Ord> ords = matrix
                    ? List.of(LinAlg.Ord.DEFAULT, LinAlg.Ord.FROBENIUS, LinAlg.Ord.NUCLEAR, LinAlg.Ord.INF, LinAlg.Ord.NEG_INF,
                              LinAlg.Ord.p(1), LinAlg.Ord.p(-1), LinAlg.Ord.p(2), LinAlg.Ord.p(-2))
                    : List.of(LinAlg.Ord.DEFAULT, LinAlg.Ord.INF, LinAlg.Ord.NEG_INF, LinAlg.Ord.p(0), LinAlg.Ord.p(1), LinAlg.Ord.p(3), LinAlg.Ord.p(0.5));
            return new NormCase(x, ords.get(Axes.between(rs, 0, ords.size() - 1)), 1);
        };
    }

    /** F32 or F64 matrices of size 1 to 6 drawn by {@code draw}, zero to two batch axes of 1 to 3, and a right-hand side {@code [batch..., n]} in [-1, 1]. */
    private static Gen<LinalgCase> cases(IntFunctionOfRs draw, double kappa) {
        return rs -> {
            DType t = Generators.oneOf(DType.F32, DType.F64).generate(rs);
            int n = Axes.between(rs, 1, 6);
            int[] batch = new int[Axes.oneIn(rs, 3) ? 0 : Axes.between(rs, 1, 2)];
            for (int i = 0; i < batch.length; i++) batch[i] = Axes.between(rs, 1, 3);
            TensorCase a = Matrices.batch(t, batch, n, size -> draw.apply(rs, size));
            int[] bd = Arrays.copyOf(batch, batch.length + 1);
            bd[batch.length] = n;
            TensorCase b = TensorCase.ofDoubles(t, Shape.of(bd), Matrices.random(rs, (int) Shape.of(bd).size()));
            return new LinalgCase(a, b, n, kappa);
        };
    }

    /** A matrix generator that draws from the property's randomness. */
    @FunctionalInterface
    interface IntFunctionOfRs {
        double[] apply(RandomnessSource rs, int n);
    }

    /** {@link Tolerance#ARITHMETIC} plus the absolute {@link #allowance} for results of magnitude up to {@code scale}. */
    private static Tolerance tolerance(LinalgCase c, double scale) { return tolerance(c.a().dtype(), c.n(), c.kappa(), scale); }

    private static Tolerance tolerance(DType t, int n, double kappa, double scale) {
        return Tolerance.ARITHMETIC.withAbsolute(64.0 * n * unitRoundoff(t) * kappa * scale);
    }

    /** {@code 64·n·u·κ·scale}: what a backward-stable algorithm may be off by on a result of magnitude {@code scale}. */
    private static double allowance(LinalgCase c, double scale) {
        return 64.0 * c.n() * unitRoundoff(c.a().dtype()) * c.kappa() * scale;
    }

    private static double unitRoundoff(DType t) { return t == DType.F64 ? 0x1p-53 : 0x1p-24; }

    /** The matrices of a case, {@code rows x cols} each (square {@code n x n} by default). */
    private static double[][] matrices(TensorCase x, int n) { return matrices(x, n, n); }

    private static double[][] matrices(TensorCase x, int rows, int cols) {
        double[] flat = x.doubles();
        int per = rows * cols;
        double[][] out = new double[flat.length / per][];
        for (int b = 0; b < out.length; b++) out[b] = Arrays.copyOfRange(flat, b * per, (b + 1) * per);
        return out;
    }

    private static void assertNear(String what, double[] expected, double[] actual, double allowed) {
        double d = Matrices.maxDiff(expected, actual);
        if (!(d <= allowed)) {
            Assertions.fail(what + ": largest difference " + d + " > allowed " + allowed + "\n  expected " + Arrays.toString(expected)
                    + "\n  got      " + Arrays.toString(actual));
        }
    }
}
