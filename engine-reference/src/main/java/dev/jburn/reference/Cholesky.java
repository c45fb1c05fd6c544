package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Cholesky factorization {@code A = L·Lᵀ} of a row-major {@code n × n} double matrix, in place on
 * its lower triangle (the upper triangle is never read, and is left as garbage for the caller to
 * drop). A pivot that is negative or NaN gives a NaN square root, which then spreads through the
 * columns that depend on it: the backend contract asks for NaN, not an exception, on non-SPD input.
 *
 * <p>Two paths: {@link #unblocked} is the scalar oracle (Cholesky–Crout, column by column);
 * {@link #blocked} is right-looking with {@value #BLOCK}-column panels, whose trailing update
 * {@code A22 -= L21·L21ᵀ} (nearly all the flops) is a Vector API kernel over a transposed copy of
 * the panel, split across threads by equal triangle area.
 */
final class Cholesky {
    private Cholesky() {}

    static final int BLOCK = 64;
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    /** The scalar oracle. */
    static void unblocked(double[] a, int n) {
        factorDiagonalBlock(a, n, 0, n);
    }

    /**
     * Columns {@code [k0, k0 + kb)} of rows {@code [k0, k0 + kb)}, given that the contributions of
     * columns before {@code k0} were already subtracted (by the trailing updates).
     */
    private static void factorDiagonalBlock(double[] a, int n, int k0, int kb) {
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

    /** Blocked right-looking factorization; {@code parallel} splits the panel solve and the trailing update. */
    static void blocked(double[] a, int n, Parallel parallel) {
        for (int start = 0; start < n; start += BLOCK) {
            int k0 = start;
            int kb = Math.min(BLOCK, n - k0);
            int e = k0 + kb;
            factorDiagonalBlock(a, n, k0, kb);
            if (e == n) break;
            int below = n - e;
            parallel.forRange(below, (long) kb * kb / 2, (lo, hi) -> {
                for (long i = lo; i < hi; i++) panelRow(a, n, k0, kb, e + (int) i);
            });
            int ld = roundUp(below, L);
            double[] pt = transposedPanel(a, n, k0, kb, e, ld);
            trailingUpdate(a, n, k0, kb, e, pt, ld, parallel);
        }
    }

    /** {@code L21[i] = A21[i] · L11^-T}: forward substitution along row {@code i}. */
    private static void panelRow(double[] a, int n, int k0, int kb, int i) {
        int ri = i * n;
        for (int j = k0; j < k0 + kb; j++) {
            int rj = j * n;
            double s = a[ri + j];
            for (int k = k0; k < j; k++) s -= a[ri + k] * a[rj + k];
            a[ri + j] = s / a[rj + j];
        }
    }

    /** {@code pt[p * ld + (j - e)] = L[j][k0 + p]} for the rows {@code j >= e}; padding columns are 0. */
    private static double[] transposedPanel(double[] a, int n, int k0, int kb, int e, int ld) {
        double[] pt = new double[kb * ld];
        for (int j = e; j < n; j++) {
            int rj = j * n + k0;
            for (int p = 0; p < kb; p++) pt[p * ld + (j - e)] = a[rj + p];
        }
        return pt;
    }

    /**
     * {@code A[i][j] -= Σ_p L[i][k0+p]·L[j][k0+p]} for {@code e <= j <= i < n}, two rows at a time.
     * Vectors may run past the diagonal into the (ignored) upper triangle, never past column n.
     */
    private static void trailingUpdate(double[] a, int n, int k0, int kb, int e, double[] pt, int ld, Parallel parallel) {
        int rows = n - e;
        int pairs = (rows + 1) / 2;
        int parts = Math.min(pairs, Math.max(1, parallel.threads() * 4));
        long costPerPart = (long) rows * rows / 2 * kb / parts;
        parallel.forRange(parts, costPerPart, (lo, hi) -> {
            for (long part = lo; part < hi; part++) {
                // Row pair t costs about t: equal-area parts end at pairs * sqrt(k / parts).
                int from = (int) Math.round(pairs * Math.sqrt((double) part / parts));
                int to = (int) Math.round(pairs * Math.sqrt((double) (part + 1) / parts));
                for (int t = from; t < to; t++) {
                    int i = e + 2 * t;
                    if (i + 1 < n) updateRowPair(a, n, k0, kb, e, pt, ld, i);
                    else updateRow(a, n, k0, kb, e, pt, ld, i);
                }
            }
        });
    }

    private static void updateRowPair(double[] a, int n, int k0, int kb, int e, double[] pt, int ld, int i) {
        int r0 = i * n;
        int r1 = r0 + n;
        int lim = Math.min(e + roundUp(i + 2 - e, L), n);
        int j = e;
        for (; j + 2 * L <= lim; j += 2 * L) {
            DoubleVector a0 = DoubleVector.zero(S), a1 = DoubleVector.zero(S), b0 = DoubleVector.zero(S), b1 = DoubleVector.zero(S);
            int c = j - e;
            for (int p = 0; p < kb; p++) {
                DoubleVector x0 = DoubleVector.fromArray(S, pt, p * ld + c);
                DoubleVector x1 = DoubleVector.fromArray(S, pt, p * ld + c + L);
                DoubleVector l0 = DoubleVector.broadcast(S, a[r0 + k0 + p]);
                DoubleVector l1 = DoubleVector.broadcast(S, a[r1 + k0 + p]);
                a0 = x0.fma(l0, a0);
                a1 = x1.fma(l0, a1);
                b0 = x0.fma(l1, b0);
                b1 = x1.fma(l1, b1);
            }
            DoubleVector.fromArray(S, a, r0 + j).sub(a0).intoArray(a, r0 + j);
            DoubleVector.fromArray(S, a, r0 + j + L).sub(a1).intoArray(a, r0 + j + L);
            DoubleVector.fromArray(S, a, r1 + j).sub(b0).intoArray(a, r1 + j);
            DoubleVector.fromArray(S, a, r1 + j + L).sub(b1).intoArray(a, r1 + j + L);
        }
        for (; j + L <= lim; j += L) {
            DoubleVector a0 = DoubleVector.zero(S), b0 = DoubleVector.zero(S);
            int c = j - e;
            for (int p = 0; p < kb; p++) {
                DoubleVector x0 = DoubleVector.fromArray(S, pt, p * ld + c);
                a0 = x0.fma(DoubleVector.broadcast(S, a[r0 + k0 + p]), a0);
                b0 = x0.fma(DoubleVector.broadcast(S, a[r1 + k0 + p]), b0);
            }
            DoubleVector.fromArray(S, a, r0 + j).sub(a0).intoArray(a, r0 + j);
            DoubleVector.fromArray(S, a, r1 + j).sub(b0).intoArray(a, r1 + j);
        }
        for (; j <= i + 1; j++) {
            double s0 = 0, s1 = 0;
            for (int p = 0; p < kb; p++) {
                double x = pt[p * ld + (j - e)];
                s0 = Math.fma(a[r0 + k0 + p], x, s0);
                s1 = Math.fma(a[r1 + k0 + p], x, s1);
            }
            a[r0 + j] -= s0;
            a[r1 + j] -= s1;
        }
    }

    private static void updateRow(double[] a, int n, int k0, int kb, int e, double[] pt, int ld, int i) {
        int r0 = i * n;
        int lim = Math.min(e + roundUp(i + 1 - e, L), n);
        int j = e;
        for (; j + L <= lim; j += L) {
            DoubleVector a0 = DoubleVector.zero(S);
            int c = j - e;
            for (int p = 0; p < kb; p++) {
                a0 = DoubleVector.fromArray(S, pt, p * ld + c).fma(DoubleVector.broadcast(S, a[r0 + k0 + p]), a0);
            }
            DoubleVector.fromArray(S, a, r0 + j).sub(a0).intoArray(a, r0 + j);
        }
        for (; j <= i; j++) {
            double s0 = 0;
            for (int p = 0; p < kb; p++) s0 = Math.fma(a[r0 + k0 + p], pt[p * ld + (j - e)], s0);
            a[r0 + j] -= s0;
        }
    }

    private static int roundUp(int x, int m) { return (x + m - 1) / m * m; }
}
