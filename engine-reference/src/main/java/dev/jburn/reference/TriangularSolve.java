package dev.jburn.reference;

/**
 * Forward or back substitution on double work arrays. Every variant of
 * {@code op(a)·x = b} / {@code x·op(a) = b} is reduced to one left-side solve {@code T·X = B}:
 * for the right side, {@code X·op(a) = B} is {@code op(a)ᵀ·Xᵀ = Bᵀ}. {@code T} is read from
 * {@code a} in place, through {@code transposed}; only its triangle is read.
 */
final class TriangularSolve {
    private TriangularSolve() {}

    /**
     * Overwrites {@code b} ({@code n × m} row-major) with {@code X} solving {@code T·X = B}, where
     * {@code T(i, j) = transposed ? a[j][i] : a[i][j]} is lower triangular when {@code lowerT}.
     */
    static void solve(double[] a, int n, boolean transposed, boolean lowerT, double[] b, int m) {
        if (lowerT) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < i; j++) axpy(b, i, j, -entry(a, n, transposed, i, j), m);
                divide(b, i, a[i * n + i], m);
            }
        } else {
            for (int i = n - 1; i >= 0; i--) {
                for (int j = i + 1; j < n; j++) axpy(b, i, j, -entry(a, n, transposed, i, j), m);
                divide(b, i, a[i * n + i], m);
            }
        }
    }

    /** Whether some diagonal entry of the {@code n × n} matrix is exactly zero. */
    static boolean hasZeroDiagonal(double[] a, int n) {
        for (int i = 0; i < n; i++) if (a[i * n + i] == 0) return true;
        return false;
    }

    private static double entry(double[] a, int n, boolean transposed, int i, int j) {
        return transposed ? a[j * n + i] : a[i * n + j];
    }

    /** {@code row i += f · row j}. */
    private static void axpy(double[] b, int i, int j, double f, int m) {
        if (f == 0) return;
        int ri = i * m;
        int rj = j * m;
        for (int c = 0; c < m; c++) b[ri + c] = Math.fma(f, b[rj + c], b[ri + c]);
    }

    /** {@code row i /= d} (a division, not a multiplication by the reciprocal, so exact quotients stay exact). */
    private static void divide(double[] b, int i, double d, int m) {
        int ri = i * m;
        for (int c = 0; c < m; c++) b[ri + c] /= d;
    }
}
