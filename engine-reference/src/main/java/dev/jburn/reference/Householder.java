package dev.jburn.reference;

/**
 * QR factorization by Householder reflections, with Nx's conventions: no sign normalisation, a
 * reflection maps its column to {@code +‖x‖·e₁} (Golub and Van Loan, algorithm 5.1.1), and a
 * column whose part below the diagonal is already zero (negligible against the diagonal entry,
 * at double precision) is left alone. So an upper-triangular input gives {@code q = I, r = a}
 * exactly, negative diagonal included, and a square matrix never reflects its last column.
 *
 * <p>Works column-major: column {@code c} of the {@code m × n} matrix is {@code w[c*m, c*m+m)}.
 */
final class Householder {
    private Householder() {}

    /** The factors of one matrix, row-major: {@code q} is {@code m × qCols}, {@code r} is {@code rRows × n}. */
    record Factors(double[] q, int qCols, double[] r, int rRows) {}

    /** QR of the row-major {@code m × n} matrix {@code a}; {@code complete} picks {@code q [m,m], r [m,n]} over {@code q [m,k], r [k,n]}. */
    static Factors factor(double[] a, int m, int n, boolean complete) {
        int k = Math.min(m, n);
        double[] w = DenseMatrices.transpose(a, m, n); // column-major working copy
        double[][] vs = new double[k][];
        double[] betas = new double[k];
        for (int j = 0; j < k; j++) {
            double[] v = reflector(w, m, j);
            if (v == null) continue;
            vs[j] = v;
            betas[j] = beta(v, j, m);
            for (int c = j + 1; c < n; c++) reflect(w, c * m, v, betas[j], j, m);
        }
        int qCols = complete ? m : k;
        int rRows = complete ? m : k;
        return new Factors(formQ(vs, betas, m, qCols), qCols, upper(w, m, n, rRows), rRows);
    }

    /**
     * The Householder vector for column {@code j} (entries {@code j..m-1}, {@code v[j] = 1}), or
     * null when the column needs no reflection. On return the column holds {@code ‖x‖, 0, ..., 0}.
     */
    private static double[] reflector(double[] w, int m, int j) {
        int c0 = j * m;
        double scale = 0;
        for (int i = j; i < m; i++) scale = Math.max(scale, Math.abs(w[c0 + i]));
        if (scale == 0) return null;
        // Squares of the column scaled to max 1: no overflow or underflow for extreme values.
        double xj = w[c0 + j] / scale;
        double sigma = 0;
        for (int i = j + 1; i < m; i++) {
            double x = w[c0 + i] / scale;
            sigma += x * x;
        }
        if (sigma <= Math.scalb(xj * xj, -106)) return null; // below the diagonal is under half an ulp of it
        double mu = Math.sqrt(xj * xj + sigma);
        double v0 = xj <= 0 ? xj - mu : -sigma / (xj + mu);
        double[] v = new double[m];
        v[j] = 1;
        for (int i = j + 1; i < m; i++) v[i] = w[c0 + i] / scale / v0;
        w[c0 + j] = mu * scale;
        for (int i = j + 1; i < m; i++) w[c0 + i] = 0;
        return v;
    }

    private static double beta(double[] v, int j, int m) {
        double vv = 0;
        for (int i = j; i < m; i++) vv += v[i] * v[i];
        return 2 / vv;
    }

    /** {@code x -= beta · v · (vᵀx)} on the column starting at {@code off}, rows {@code j..m-1}. */
    private static void reflect(double[] w, int off, double[] v, double beta, int j, int m) {
        double d = 0;
        for (int i = j; i < m; i++) d = Math.fma(v[i], w[off + i], d);
        double f = beta * d;
        if (f == 0) return;
        for (int i = j; i < m; i++) w[off + i] = Math.fma(-f, v[i], w[off + i]);
    }

    /** {@code Q = H₀·H₁·…} applied to the first {@code cols} columns of the identity (backward accumulation). */
    private static double[] formQ(double[][] vs, double[] betas, int m, int cols) {
        double[] q = new double[m * cols]; // column-major
        for (int c = 0; c < cols; c++) q[c * m + c] = 1;
        for (int j = vs.length - 1; j >= 0; j--) {
            if (vs[j] == null) continue;
            for (int c = 0; c < cols; c++) reflect(q, c * m, vs[j], betas[j], j, m);
        }
        return DenseMatrices.transpose(q, cols, m);
    }

    /** The first {@code rows} rows of the reduced column-major matrix, row-major, exactly zero below the diagonal. */
    private static double[] upper(double[] w, int m, int n, int rows) {
        double[] r = new double[rows * n];
        for (int i = 0; i < rows; i++) {
            for (int c = i; c < n; c++) r[i * n + c] = w[c * m + i];
        }
        return r;
    }
}
