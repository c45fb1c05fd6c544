package dev.jburn.reference;

import java.util.Arrays;

/**
 * Singular value decomposition by one-sided Jacobi (Hestenes): plane rotations on pairs of
 * columns of {@code A} until all columns are mutually orthogonal; then {@code A·V = U·Σ} with the
 * column norms as singular values. Accurate (small singular values to high relative accuracy)
 * and simple. A wide matrix is decomposed through its transpose.
 *
 * <p>No sign normalisation, as Nx: a matrix whose columns are already orthogonal gets
 * {@code V = I} and {@code U} = its normalized columns, so {@code svd(diag(1, 1, -1))} gives
 * {@code u = diag(1, 1, -1), vt = I}. Singular values are sorted descending (stable for ties).
 * Columns of {@code U} with no singular value behind them (zero columns, or the extra columns of
 * full matrices) are completed to an orthonormal basis from the standard basis vectors.
 */
final class JacobiSvd {
    private JacobiSvd() {}

    private static final int MAX_SWEEPS = 100;

    /** Row-major {@code u [m, uCols]}, {@code s [k]}, {@code vt [vtRows, n]}. */
    record Result(double[] u, int uCols, double[] s, double[] vt, int vtRows) {}

    /** SVD of the row-major {@code m × n} matrix {@code a}; {@code full} asks for square {@code u} and {@code vt}. */
    static Result decompose(double[] a, int m, int n, boolean full) {
        int k = Math.min(m, n);
        if (m >= n) {
            Tall t = tall(DenseMatrices.transpose(a, m, n), m, n, full ? m : n);
            // u: column-major m × uCols; v: column-major n × n, so vt row-major is v as stored.
            return new Result(DenseMatrices.transpose(t.u, t.uCols, m), t.uCols, t.s, t.v, n);
        }
        // A = (Aᵀ)ᵀ: with Aᵀ = U'·Σ·V'ᵀ, A = V'·Σ·U'ᵀ.
        Tall t = tall(a.clone(), n, m, full ? n : m); // a row-major m × n is Aᵀ column-major (n × m)
        // u = V' (m × m): row-major from column-major storage.
        double[] u = DenseMatrices.transpose(t.v, m, m);
        // vt = U'ᵀ: U' column-major n × uCols is U'ᵀ row-major (uCols × n).
        return new Result(u, m, t.s, t.u, t.uCols);
    }

    /** Column-major results for a tall matrix: {@code u} is {@code m × uCols}, {@code v} is {@code n × n}. */
    private record Tall(double[] u, int uCols, double[] s, double[] v) {}

    /** One-sided Jacobi on {@code w}, the column-major {@code m × n} matrix, {@code m >= n}. */
    private static Tall tall(double[] w, int m, int n, int uCols) {
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) v[i * n + i] = 1;
        if (!DenseMatrices.allFinite(w)) {
            double[] u = new double[m * uCols];
            double[] s = new double[n];
            Arrays.fill(u, Double.NaN);
            Arrays.fill(s, Double.NaN);
            Arrays.fill(v, Double.NaN);
            return new Tall(u, uCols, s, v);
        }
        double scale = DenseMatrices.powerOfTwoScale(w);
        for (int i = 0; i < w.length; i++) w[i] *= scale;
        orthogonalizeColumns(w, v, m, n);

        double[] norms = new double[n];
        for (int c = 0; c < n; c++) norms[c] = Math.sqrt(dot(w, c * m, w, c * m, m));
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (x, y) -> Double.compare(norms[y], norms[x]));

        double[] u = new double[m * uCols];
        double[] s = new double[n];
        double[] vSorted = new double[n * n];
        int filled = 0;
        for (int c = 0; c < n; c++) {
            int src = order[c];
            s[c] = norms[src] / scale;
            System.arraycopy(v, src * n, vSorted, c * n, n);
            if (norms[src] >= Double.MIN_NORMAL) {
                for (int i = 0; i < m; i++) u[c * m + i] = w[src * m + i] / norms[src];
                filled = c + 1;
            }
        }
        OrthonormalBasis.complete(u, m, filled, uCols);
        return new Tall(u, uCols, s, vSorted);
    }

    /** Rotates column pairs of {@code w} (and of {@code v}) until every pair is orthogonal to working precision. */
    private static void orthogonalizeColumns(double[] w, double[] v, int m, int n) {
        double tol = Math.max(m, 1) * 0x1p-53;
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            boolean rotated = false;
            for (int p = 0; p < n - 1; p++) {
                for (int q = p + 1; q < n; q++) {
                    double alpha = dot(w, p * m, w, p * m, m);
                    double beta = dot(w, q * m, w, q * m, m);
                    double gamma = dot(w, p * m, w, q * m, m);
                    if (Math.abs(gamma) <= tol * Math.sqrt(alpha) * Math.sqrt(beta)) continue;
                    rotated = true;
                    double zeta = (beta - alpha) / (2 * gamma);
                    double t = Math.abs(zeta) > 1e150 ? 1 / (2 * zeta)
                            : Math.copySign(1, zeta) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
                    double c = 1 / Math.sqrt(1 + t * t);
                    double s = t * c;
                    rotate(w, p * m, q * m, c, s, m);
                    rotate(v, p * n, q * n, c, s, n);
                }
            }
            if (!rotated) return;
        }
    }

    /** {@code (x, y) <- (c·x - s·y, s·x + c·y)} on two columns. */
    private static void rotate(double[] w, int px, int qx, double c, double s, int len) {
        for (int i = 0; i < len; i++) {
            double x = w[px + i];
            double y = w[qx + i];
            w[px + i] = c * x - s * y;
            w[qx + i] = s * x + c * y;
        }
    }

    static double dot(double[] a, int ao, double[] b, int bo, int len) {
        double s = 0;
        for (int i = 0; i < len; i++) s = Math.fma(a[ao + i], b[bo + i], s);
        return s;
    }
}
