package dev.jburn.reference;

/**
 * Completes orthonormal columns to a larger orthonormal set, for the parts of {@code U} in an
 * SVD that no singular value determines. Each new column is the standard basis vector
 * {@code e_i} that sticks out most of the current span (the row of smallest norm), made
 * orthogonal by Gram–Schmidt run twice ("twice is enough") and normalized.
 */
final class OrthonormalBasis {
    private OrthonormalBasis() {}

    /** Columns {@code [filled, cols)} of the column-major {@code m × cols} matrix {@code q} are filled in. */
    static void complete(double[] q, int m, int filled, int cols) {
        for (int c = filled; c < cols; c++) {
            int pick = leastCoveredRow(q, m, c);
            int off = c * m;
            java.util.Arrays.fill(q, off, off + m, 0.0);
            q[off + pick] = 1;
            for (int pass = 0; pass < 2; pass++) {
                for (int k = 0; k < c; k++) {
                    double d = JacobiSvd.dot(q, k * m, q, off, m);
                    for (int i = 0; i < m; i++) q[off + i] -= d * q[k * m + i];
                }
            }
            double norm = Math.sqrt(JacobiSvd.dot(q, off, q, off, m));
            for (int i = 0; i < m; i++) q[off + i] /= norm;
        }
    }

    /** The row {@code i} whose squared norm over the first {@code c} columns is smallest (the first on ties). */
    private static int leastCoveredRow(double[] q, int m, int c) {
        int best = 0;
        double bestNorm = Double.POSITIVE_INFINITY;
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int k = 0; k < c; k++) s += q[k * m + i] * q[k * m + i];
            if (s < bestNorm - 1e-12) {
                bestNorm = s;
                best = i;
            }
        }
        return best;
    }
}
