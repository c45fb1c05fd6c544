package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * Direct tensor operations, runnable: {@code ./jburn example tensors}, each result checked: arithmetic with NumPy
 * broadcasting (a row, a column and a scalar against a matrix), math functions (exp/log round trip,
 * {@code sin² + cos² = 1}, sigmoid, tanh, sqrt), reductions (sum, mean, max over axes, argmax, cumulative sum), and
 * {@link LinAlg}: a 3×3 system solved and {@code A·x = b} verified, Cholesky ({@code L·Lᵀ = M}, L lower triangular),
 * QR ({@code Q·R = A}, {@code QᵀQ = I}) and the SVD ({@code U·diag(s)·Vᵀ = A}, s descending), plus the determinant
 * and the inverse. Linear algebra runs in f64; every check has its tolerance in the code.
 */
public final class TensorsExample {
    private TensorsExample() {}

    /** What the example found: the worst residual of each linear-algebra check. */
    public record Result(double solveResidual, double choleskyResidual, double qrResidual, double svdResidual, int checks) {}

    public static void main(String[] args) { run(System.out, args.length > 0 && args[0].equals("--small")); }

    /** Runs the example, printing to {@code out}; {@code small} changes nothing (it is quick). */
    public static Result run(PrintStream out, boolean small) {
        Checks chk = new Checks(out);
        // Arithmetic with broadcasting: [2,3] with [3] (a row), [2,1] (a column) and a scalar.
        Tensor a = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
        Tensor row = Tensor.of(10f, 20f, 30f), col = Tensor.of(new float[][] {{100}, {200}});
        Tensor sum = a.add(row).add(col).multiply(2).subtract(1);
        out.println("(a + row + col) * 2 - 1 = " + flat(sum) + " " + sum.shape());
        chk.expect("broadcast arithmetic", sum, new double[] {221, 243, 265, 427, 449, 471}, 0);
        chk.expect("division by a row", a.divide(Tensor.of(1f, 2f, 4f)), new double[] {1, 1, 0.75, 4, 2.5, 1.5}, 0);
        Tensor outer = Tensor.of(1f, 2f, 3f).newAxis(1).multiply(Tensor.of(1f, 10f));  // [3,1] * [2] -> [3,2]
        chk.expect("outer product by broadcasting [3,1] * [2]", outer, new double[] {1, 10, 2, 20, 3, 30}, 0);

        // Math functions.
        Tensor x = Tensor.linspace(-2, 2, 9, DType.F32);
        chk.expect("log(exp(x)) = x", x.exp().log(), x.toDoubleArray(), 1e-6);
        Tensor s = x.sin(), c = x.cos();
        chk.expect("sin^2 + cos^2 = 1", s.multiply(s).add(c.multiply(c)), filled(9, 1), 1e-6);
        chk.expect("sigmoid(0), tanh(0), sqrt(16), exp(1)", Tensor.concatenate(0, Tensor.of(0f).sigmoid(), Tensor.of(0f).tanh(),
                Tensor.of(16f).sqrt(), Tensor.of(1f).exp()), new double[] {0.5, 0, 4, Math.E}, 1e-6);
        chk.expect("tanh(x) = 2 sigmoid(2x) - 1", x.tanh(), x.multiply(2).sigmoid().multiply(2).subtract(1).toDoubleArray(), 1e-6);

        // Reductions.
        chk.expect("sum over all", a.sum(), new double[] {21}, 0);
        chk.expect("sum over rows (axis 0)", a.sum(new int[] {0}), new double[] {5, 7, 9}, 0);
        chk.expect("mean over columns (axis -1)", a.mean(new int[] {-1}), new double[] {2, 5}, 1e-6);
        chk.expect("max over axis 1", a.max(new int[] {1}), new double[] {3, 6}, 0);
        chk.expect("argmax over axis 0 of [[1,9],[7,2]]", Tensor.of(new float[][] {{1, 9}, {7, 2}}).argmax(0), new double[] {1, 0}, 0);
        chk.expect("cumulative sum", Tensor.of(1f, 2f, 3f, 4f).cumulativeSum(), new double[] {1, 3, 6, 10}, 0);
        Tensor r = Prng.normal(Prng.key(0), Shape.of(10_000), DType.F64, 3, 2).values();
        double mean = r.mean().toDoubleArray()[0], sd = Math.sqrt(r.subtract(mean).pow(2).mean().toDoubleArray()[0]);
        out.printf(Locale.ROOT, "10000 normal(3, 2) samples: mean %.3f, std %.3f%n", mean, sd);
        chk.check(Math.abs(mean - 3) < 0.1 && Math.abs(sd - 2) < 0.1, "normal samples: mean %.3f std %.3f, expected about 3 and 2", mean, sd);

        // Linear algebra, in f64.
        Tensor m = Tensor.of(new double[][] {{3, 1, -2}, {1, 4, 1}, {2, -1, 5}});
        Tensor b = Tensor.of(-2.0, -1, 13);                                 // = A·[1, -1, 2]
        Tensor sol = LinAlg.solve(m, b);
        double solveRes = maxAbs(m.dot(sol).subtract(b));
        out.println("solve A x = b: x = " + flat(sol) + ", |A x - b| max " + sci(solveRes));
        chk.check(solveRes < 1e-12, "solve: |A x - b| = %s", sci(solveRes));
        chk.expect("the solution is [1, -1, 2]", sol, new double[] {1, -1, 2}, 1e-12);
        double det = LinAlg.determinant(m).toDoubleArray()[0];
        double invRes = maxAbs(m.dot(LinAlg.invert(m)).subtract(Tensor.eye(3, DType.F64)));
        out.printf(Locale.ROOT, "det A = %.6f (3*21 - 1*3 - 2*(-9) = 78), |A A^-1 - I| max %s%n", det, sci(invRes));
        chk.check(Math.abs(det - 78) < 1e-9 && invRes < 1e-12, "determinant %.9f or inverse residual %s off", det, sci(invRes));

        Tensor spd = m.dot(m.transpose()).add(Tensor.eye(3, DType.F64));    // symmetric positive definite
        Tensor l = LinAlg.cholesky(spd);
        double cholRes = maxAbs(l.dot(l.transpose()).subtract(spd));
        double upper = maxAbs(l.multiply(Tensor.iota(Shape.of(3, 3), DType.S32, 1).greater(Tensor.iota(Shape.of(3, 3), DType.S32, 0)).asType(DType.F64)));
        out.println("cholesky M = L L^T: L = " + flat(l) + ", |L L^T - M| max " + sci(cholRes) + ", above the diagonal " + upper);
        chk.check(cholRes < 1e-12 && upper == 0, "cholesky: residual %s, upper part %s", sci(cholRes), upper);

        double qrRes, orthoRes;
        try (LinAlg.QR qr = LinAlg.qr(m)) {
            qrRes = maxAbs(qr.q().dot(qr.r()).subtract(m));
            orthoRes = maxAbs(qr.q().transpose().dot(qr.q()).subtract(Tensor.eye(3, DType.F64)));
            out.println("qr A = Q R: |Q R - A| max " + sci(qrRes) + ", |Q^T Q - I| max " + sci(orthoRes) + ", R = " + flat(qr.r()));
        }
        chk.check(qrRes < 1e-12 && orthoRes < 1e-12, "qr: residuals %s and %s", sci(qrRes), sci(orthoRes));

        Tensor wide = Tensor.of(new double[][] {{2, 0, 1, 3}, {-1, 4, 0, 2}, {0, 1, 5, -2}});
        double svdRes;
        double[] sv;
        try (LinAlg.SVD svd = LinAlg.svd(wide, false)) {
            sv = svd.s().toDoubleArray();
            svdRes = maxAbs(svd.u().multiply(svd.s()).dot(svd.vt()).subtract(wide));    // u·diag(s) is u with its columns scaled
            out.println("svd of a 3x4 matrix: s = " + flat(svd.s()) + ", |U diag(s) V^T - A| max " + sci(svdRes));
        }
        chk.check(svdRes < 1e-12 && sv[0] >= sv[1] && sv[1] >= sv[2] && sv[2] >= 0, "svd: residual %s, singular values %s", sci(svdRes), Arrays.toString(sv));
        double fro = LinAlg.norm(wide).toDoubleArray()[0], fromS = Math.sqrt(sv[0] * sv[0] + sv[1] * sv[1] + sv[2] * sv[2]);
        chk.check(Math.abs(fro - fromS) < 1e-12, "the Frobenius norm %.12f differs from sqrt(sum s^2) %.12f", fro, fromS);
        out.printf(Locale.ROOT, "Frobenius norm %.6f = sqrt(sum of s^2) %.6f%n", fro, fromS);

        out.println("ok: " + chk.count + " checks passed");
        return new Result(solveRes, cholRes, qrRes, svdRes, chk.count);
    }

    /** Checks that count themselves and throw an {@link ExampleFailure} naming what failed. */
    private static final class Checks {
        private final PrintStream out;
        int count;

        Checks(PrintStream out) { this.out = out; }

        /** {@code got} equals {@code want} element by element within {@code tol}; prints it. */
        void expect(String what, Tensor got, double[] want, double tol) {
            double[] g = got.toDoubleArray();
            boolean ok = g.length == want.length;
            for (int i = 0; ok && i < g.length; i++) ok = Math.abs(g[i] - want[i]) <= tol;
            check(ok, "%s: got %s, expected %s (tolerance %s)", what, Arrays.toString(g), Arrays.toString(want), tol);
            out.println("  " + what + ": " + Arrays.toString(round(g)));
        }

        void check(boolean ok, String message, Object... args) {
            ExampleFailure.check(ok, "tensors", message, args);
            count++;
        }
    }

    private static double maxAbs(Tensor t) { return t.abs().max().toDoubleArray()[0]; }

    private static double[] filled(int n, double v) {
        double[] a = new double[n];
        Arrays.fill(a, v);
        return a;
    }

    private static double[] round(double[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) r[i] = Math.round(v[i] * 1e6) / 1e6;
        return r;
    }

    private static String flat(Tensor t) { return Arrays.toString(round(t.toDoubleArray())); }

    private static String sci(double v) { return String.format(Locale.ROOT, "%.1e", v); }
}
