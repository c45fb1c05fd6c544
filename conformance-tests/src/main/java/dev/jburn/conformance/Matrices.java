package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.quicktheories.core.RandomnessSource;

import java.util.Arrays;

/**
 * Row-major double matrices for the linear-algebra laws: the kit multiplies an engine's factors
 * back together in double (so the check does not trust the engine's {@code dot}) and draws
 * well-conditioned matrices.
 */
final class Matrices {
    private Matrices() {}

    /** The {@code count} matrices of {@code rows x cols} of a tensor (its leading axes are the batch). */
    static double[][] of(Tensor t, int rows, int cols) {
        double[] flat = t.toDoubleArray();
        int per = rows * cols;
        double[][] out = new double[per == 0 ? 0 : flat.length / per][];
        for (int b = 0; b < out.length; b++) out[b] = Arrays.copyOfRange(flat, b * per, (b + 1) * per);
        return out;
    }

    /** {@code a [m, k] · b [k, n]}. */
    static double[] mul(double[] a, int m, int k, double[] b, int n) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += a[i * k + p] * b[p * n + j];
                c[i * n + j] = s;
            }
        }
        return c;
    }

    /** The transpose of {@code a [m, n]}. */
    static double[] transpose(double[] a, int m, int n) {
        double[] t = new double[m * n];
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) t[j * m + i] = a[i * n + j];
        return t;
    }

    static double[] eye(int n) {
        double[] e = new double[n * n];
        for (int i = 0; i < n; i++) e[i * n + i] = 1;
        return e;
    }

    /** The largest {@code |a[i] - b[i]|} (infinite when a value is NaN). */
    static double maxDiff(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            double d = Math.abs(a[i] - b[i]);
            m = Double.isNaN(d) ? Double.POSITIVE_INFINITY : Math.max(m, d);
        }
        return m;
    }

    static double maxAbs(double[] a) {
        double m = 0;
        for (double v : a) m = Math.max(m, Math.abs(v));
        return m;
    }

    /** The determinant of {@code a [n, n]} by Gaussian elimination with partial pivoting, in double. */
    static double det(double[] a, int n) {
        double[] m = a.clone();
        double det = 1;
        for (int c = 0; c < n; c++) {
            int p = c;
            for (int r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]) > Math.abs(m[p * n + c])) p = r;
            if (m[p * n + c] == 0) return 0;
            if (p != c) {
                for (int j = 0; j < n; j++) {
                    double t = m[c * n + j];
                    m[c * n + j] = m[p * n + j];
                    m[p * n + j] = t;
                }
                det = -det;
            }
            det *= m[c * n + c];
            for (int r = c + 1; r < n; r++) {
                double f = m[r * n + c] / m[c * n + c];
                for (int j = c; j < n; j++) m[r * n + j] -= f * m[c * n + j];
            }
        }
        return det;
    }

    /** Entries uniform in [-1, 1] in steps of 1/1024 (exact in every float type). */
    static double[] random(RandomnessSource rs, int count) {
        double[] v = new double[count];
        for (int i = 0; i < count; i++) v[i] = Axes.between(rs, -1024, 1024) / 1024.0;
        return v;
    }

    /**
     * A symmetric positive-definite {@code M·Mᵀ + n·I} ({@code M} entries in [-1, 1]): eigenvalues
     * in {@code [n, n + n²]}, so its condition number is at most {@code n + 1}.
     */
    static double[] spd(RandomnessSource rs, int n) {
        double[] m = random(rs, n * n);
        double[] a = mul(m, n, n, transpose(m, n, n), n);
        for (int i = 0; i < n; i++) a[i * n + i] += n;
        return a;
    }

    /**
     * A general {@code P·(M + 2n·I)} ({@code M} entries in [-1, 1], {@code P} a random row
     * permutation, so partial pivoting has work to do): singular values in {@code [n, 3n]},
     * condition number at most 3.
     */
    static double[] general(RandomnessSource rs, int n) {
        double[] m = random(rs, n * n);
        for (int i = 0; i < n; i++) m[i * n + i] += 2 * n;
        int[] perm = Axes.shuffled(rs, n);
        double[] a = new double[n * n];
        for (int i = 0; i < n; i++) System.arraycopy(m, perm[i] * n, a, i * n, n);
        return a;
    }

    /** A lower-triangular matrix with diagonal entries of magnitude in [1, 2] and off-diagonal ones in [-1/n, 1/n]. */
    static double[] lowerTriangular(RandomnessSource rs, int n) {
        double[] m = random(rs, n * n);
        double[] l = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) l[i * n + j] = m[i * n + j] / n;
            l[i * n + i] = (m[i * n + i] < 0 ? -1 : 1) * (1 + Math.abs(m[i * n + i]));
        }
        return l;
    }

    /** Batches of matrices of one shape drawn by {@code draw}, as a {@code dtype} case of shape {@code batch + [n, n]}. */
    static TensorCase batch(DType dtype, int[] batch, int n, java.util.function.IntFunction<double[]> draw) {
        int count = 1;
        for (int b : batch) count *= b;
        double[] all = new double[count * n * n];
        for (int b = 0; b < count; b++) System.arraycopy(draw.apply(n), 0, all, b * n * n, n * n);
        int[] dims = Arrays.copyOf(batch, batch.length + 2);
        dims[batch.length] = n;
        dims[batch.length + 1] = n;
        return TensorCase.ofDoubles(dtype, Shape.of(dims), all);
    }
}
