package dev.jburn.reference;

/**
 * The scalar parts of {@link Cholesky}: the oracle (Cholesky–Crout, column by column) and the
 * diagonal-block and panel steps the blocked path shares with it. Kept apart from the Vector API
 * code so that the cpu engine factors matrices in a JVM without {@code jdk.incubator.vector}.
 */
final class CholeskyCrout {
    private CholeskyCrout() {}

    /** The scalar oracle. */
    static void unblocked(double[] a, int n) {
        factorDiagonalBlock(a, n, 0, n);
    }

    /**
     * Columns {@code [k0, k0 + kb)} of rows {@code [k0, k0 + kb)}, given that the contributions of
     * columns before {@code k0} were already subtracted (by the trailing updates).
     */
    static void factorDiagonalBlock(double[] a, int n, int k0, int kb) {
        int end = k0 + kb;
        for (int j = k0; j < end; j++) {
            int rj = j * n;
            double d = a[rj + j];
            for (int k = k0; k < j; k++) d -= a[rj + k] * a[rj + k];
            double ljj = Math.sqrt(d);
            a[rj + j] = ljj;
            for (int i = j + 1; i < end; i++) {
                int ri = i * n;
                double s = a[ri + j];
                for (int k = k0; k < j; k++) s -= a[ri + k] * a[rj + k];
                a[ri + j] = s / ljj;
            }
        }
    }

    /** {@code L21[i] = A21[i] · L11^-T}: forward substitution along row {@code i}. */
    static void panelRow(double[] a, int n, int k0, int kb, int i) {
        int ri = i * n;
        for (int j = k0; j < k0 + kb; j++) {
            int rj = j * n;
            double s = a[ri + j];
            for (int k = k0; k < j; k++) s -= a[ri + k] * a[rj + k];
            a[ri + j] = s / a[rj + j];
        }
    }
}
