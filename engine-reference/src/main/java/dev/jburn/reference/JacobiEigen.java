package dev.jburn.reference;

import java.util.Arrays;

/**
 * Symmetric eigendecomposition by the cyclic Jacobi method: plane rotations zero one
 * off-diagonal pair at a time, sweep after sweep, until a whole sweep finds every off-diagonal
 * entry negligible. Slower than tridiagonal QL for large matrices but simple, and accurate for
 * small eigenvalues too (the rotations are applied to the full matrix, so no precision is lost to
 * an intermediate tridiagonal form).
 *
 * <p>Only the lower triangle of the input is read (it is mirrored), as NumPy's {@code eigh}
 * does by default. Results: eigenvalues sorted by descending absolute value (Nx's order; ties:
 * the larger value first), eigenvectors as columns, each scaled so its largest-magnitude
 * component is positive (a deterministic sign, which Nx leaves to the algorithm).
 */
final class JacobiEigen {
    private JacobiEigen() {}

    private static final int MAX_SWEEPS = 100;

    /** Eigenvalues ({@code n}) and row-major eigenvectors ({@code n × n}, vectors in columns). */
    record Result(double[] values, double[] vectors) {}

    static Result decompose(double[] in, int n) {
        double[] a = symmetricFromLower(in, n);
        if (!DenseMatrices.allFinite(a)) {
            double[] nan = new double[n * n];
            Arrays.fill(nan, Double.NaN);
            double[] vals = new double[n];
            Arrays.fill(vals, Double.NaN);
            return new Result(vals, nan);
        }
        // An exact power-of-two scale keeps squares in range; eigenvalues scale back exactly.
        double scale = DenseMatrices.powerOfTwoScale(a);
        for (int i = 0; i < a.length; i++) a[i] *= scale;
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) v[i * n + i] = 1;
        rotateUntilDiagonal(a, v, n);
        double[] vals = new double[n];
        for (int i = 0; i < n; i++) vals[i] = a[i * n + i] / scale;
        return sorted(vals, v, n);
    }

    private static double[] symmetricFromLower(double[] in, int n) {
        double[] a = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                a[i * n + j] = in[i * n + j];
                a[j * n + i] = in[i * n + j];
            }
        }
        return a;
    }

    private static void rotateUntilDiagonal(double[] a, double[] v, int n) {
        double tol = Math.max(n, 1) * 0x1p-53;
        double frob = 0;
        for (double x : a) frob += x * x;
        // Off-diagonal entries this far below the matrix's size are rounding noise of its big entries.
        double noise = Math.sqrt(frob) * 0x1p-60;
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            boolean rotated = false;
            for (int p = 0; p < n - 1; p++) {
                for (int q = p + 1; q < n; q++) {
                    double apq = a[p * n + q];
                    double app = a[p * n + p];
                    double aqq = a[q * n + q];
                    if (Math.abs(apq) <= noise || Math.abs(apq) <= tol * Math.sqrt(Math.abs(app)) * Math.sqrt(Math.abs(aqq))) {
                        a[p * n + q] = 0;
                        a[q * n + p] = 0;
                        continue;
                    }
                    rotated = true;
                    rotate(a, v, n, p, q, apq, app, aqq);
                }
            }
            if (!rotated) return;
        }
    }

    /** The rotation {@code Jᵀ·A·J} that zeroes {@code a[p][q]}, and {@code V·J}. */
    private static void rotate(double[] a, double[] v, int n, int p, int q, double apq, double app, double aqq) {
        double theta = (aqq - app) / (2 * apq);
        // t = tan(angle): the smaller root of t² + 2θt - 1 = 0; 1/(2θ) where θ² would overflow.
        double t = Math.abs(theta) > 1e150 ? 1 / (2 * theta)
                : Math.copySign(1, theta) / (Math.abs(theta) + Math.sqrt(1 + theta * theta));
        double c = 1 / Math.sqrt(1 + t * t);
        double s = t * c;
        for (int k = 0; k < n; k++) {
            if (k == p || k == q) continue;
            double akp = a[k * n + p];
            double akq = a[k * n + q];
            double np = c * akp - s * akq;
            double nq = s * akp + c * akq;
            a[k * n + p] = np;
            a[p * n + k] = np;
            a[k * n + q] = nq;
            a[q * n + k] = nq;
        }
        a[p * n + p] = app - t * apq;
        a[q * n + q] = aqq + t * apq;
        a[p * n + q] = 0;
        a[q * n + p] = 0;
        for (int k = 0; k < n; k++) {
            double vkp = v[k * n + p];
            double vkq = v[k * n + q];
            v[k * n + p] = c * vkp - s * vkq;
            v[k * n + q] = s * vkp + c * vkq;
        }
    }

    private static Result sorted(double[] vals, double[] v, int n) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (x, y) -> {
            int c = Double.compare(Math.abs(vals[y]), Math.abs(vals[x]));
            return c != 0 ? c : Double.compare(vals[y], vals[x]);
        });
        double[] outVals = new double[n];
        double[] outVecs = new double[n * n];
        for (int c = 0; c < n; c++) {
            int src = order[c];
            outVals[c] = vals[src];
            int big = 0;
            for (int k = 1; k < n; k++) if (Math.abs(v[k * n + src]) > Math.abs(v[big * n + src])) big = k;
            double sign = v[big * n + src] < 0 ? -1 : 1;
            for (int k = 0; k < n; k++) outVecs[k * n + c] = sign * v[k * n + src];
        }
        return new Result(outVals, outVecs);
    }
}
