package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Cholesky factorization {@code A = L·Lᵀ} of a row-major {@code n × n} double matrix, in place on
 * its lower triangle (the upper triangle is never read, and is left as garbage for the caller to
 * drop). A pivot that is negative or NaN gives a NaN square root, which then spreads through the
 * columns that depend on it: the backend contract asks for NaN, not an exception, on non-SPD input.
 *
 * <p>Two paths: {@link CholeskyCrout#unblocked} is the scalar oracle (Cholesky–Crout, column by column);
 * {@link #blocked} is right-looking with {@value #BLOCK}-column panels, whose trailing update
 * {@code A22 -= L21·L21ᵀ} (nearly all the flops) is a Vector API kernel over a transposed copy of
 * the panel, split across threads by equal triangle area.
 */
final class Cholesky {
    private Cholesky() {}

    static final int BLOCK = 64;
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    /** Blocked right-looking factorization; {@code parallel} splits the panel solve and the trailing update. */
    static void blocked(double[] a, int n, Parallel parallel) {
        for (int start = 0; start < n; start += BLOCK) {
            int k0 = start;
            int kb = Math.min(BLOCK, n - k0);
            int e = k0 + kb;
            CholeskyCrout.factorDiagonalBlock(a, n, k0, kb);
            if (e == n) break;
            int below = n - e;
            parallel.forRange(below, (long) kb * kb / 2, (lo, hi) -> {
                for (long i = lo; i < hi; i++) CholeskyCrout.panelRow(a, n, k0, kb, e + (int) i);
            });
            int ld = roundUp(below, L);
            double[] pt = transposedPanel(a, n, k0, kb, e, ld);
            trailingUpdate(a, n, k0, kb, e, pt, ld, parallel);
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
     * {@code A[i][j] -= Σ_p L[i][k0+p]·L[j][k0+p]} for {@code e <= j <= i < n}, four rows at a time
     * (eight vector accumulators hide the fma latency). Vectors may run past the diagonal into the
     * (ignored) upper triangle, never past column n.
     */
    private static void trailingUpdate(double[] a, int n, int k0, int kb, int e, double[] pt, int ld, Parallel parallel) {
        int rows = n - e;
        int quads = (rows + 3) / 4;
        int parts = Math.min(quads, Math.max(1, parallel.threads() * 4));
        long costPerPart = (long) rows * rows / 2 * kb / parts;
        parallel.forRange(parts, costPerPart, (lo, hi) -> {
            for (long part = lo; part < hi; part++) {
                // Row quad t costs about t: equal-area parts end at quads * sqrt(k / parts).
                int from = (int) Math.round(quads * Math.sqrt((double) part / parts));
                int to = (int) Math.round(quads * Math.sqrt((double) (part + 1) / parts));
                for (int t = from; t < to; t++) {
                    int i = e + 4 * t;
                    if (i + 3 < n) {
                        updateRowQuad(a, n, k0, kb, e, pt, ld, i);
                    } else {
                        for (int r = i; r < n; r++) updateRow(a, n, k0, kb, e, pt, ld, r);
                    }
                }
            }
        });
    }

    private static void updateRowQuad(double[] a, int n, int k0, int kb, int e, double[] pt, int ld, int i) {
        int r0 = i * n, r1 = r0 + n, r2 = r1 + n, r3 = r2 + n;
        int lim = Math.min(e + roundUp(i + 4 - e, L), n);
        int j = e;
        for (; j + 2 * L <= lim; j += 2 * L) {
            DoubleVector a0 = DoubleVector.zero(S), a1 = DoubleVector.zero(S), b0 = DoubleVector.zero(S), b1 = DoubleVector.zero(S);
            DoubleVector c0 = DoubleVector.zero(S), c1 = DoubleVector.zero(S), d0 = DoubleVector.zero(S), d1 = DoubleVector.zero(S);
            int c = j - e;
            for (int p = 0; p < kb; p++) {
                DoubleVector x0 = DoubleVector.fromArray(S, pt, p * ld + c);
                DoubleVector x1 = DoubleVector.fromArray(S, pt, p * ld + c + L);
                DoubleVector l0 = DoubleVector.broadcast(S, a[r0 + k0 + p]);
                DoubleVector l1 = DoubleVector.broadcast(S, a[r1 + k0 + p]);
                DoubleVector l2 = DoubleVector.broadcast(S, a[r2 + k0 + p]);
                DoubleVector l3 = DoubleVector.broadcast(S, a[r3 + k0 + p]);
                a0 = x0.fma(l0, a0);
                a1 = x1.fma(l0, a1);
                b0 = x0.fma(l1, b0);
                b1 = x1.fma(l1, b1);
                c0 = x0.fma(l2, c0);
                c1 = x1.fma(l2, c1);
                d0 = x0.fma(l3, d0);
                d1 = x1.fma(l3, d1);
            }
            subtract(a, r0 + j, a0, a1);
            subtract(a, r1 + j, b0, b1);
            subtract(a, r2 + j, c0, c1);
            subtract(a, r3 + j, d0, d1);
        }
        for (int r = 0; r < 4; r++) updateTail(a, n, k0, kb, e, pt, ld, r0 + r * n, j, i + r);
    }

    private static void subtract(double[] a, int at, DoubleVector v0, DoubleVector v1) {
        DoubleVector.fromArray(S, a, at).sub(v0).intoArray(a, at);
        DoubleVector.fromArray(S, a, at + L).sub(v1).intoArray(a, at + L);
    }

    private static void updateRow(double[] a, int n, int k0, int kb, int e, double[] pt, int ld, int i) {
        updateTail(a, n, k0, kb, e, pt, ld, i * n, e, i);
    }

    /** Row {@code i} (starting at {@code ri}) from column {@code j0} to the diagonal: single vectors, then scalars. */
    private static void updateTail(double[] a, int n, int k0, int kb, int e, double[] pt, int ld, int ri, int j0, int i) {
        int lim = Math.min(e + roundUp(i + 1 - e, L), n);
        int j = j0;
        for (; j + L <= lim; j += L) {
            DoubleVector acc = DoubleVector.zero(S);
            int c = j - e;
            for (int p = 0; p < kb; p++) {
                acc = DoubleVector.fromArray(S, pt, p * ld + c).fma(DoubleVector.broadcast(S, a[ri + k0 + p]), acc);
            }
            DoubleVector.fromArray(S, a, ri + j).sub(acc).intoArray(a, ri + j);
        }
        for (; j <= i; j++) {
            double s0 = 0;
            for (int p = 0; p < kb; p++) s0 = Math.fma(a[ri + k0 + p], pt[p * ld + (j - e)], s0);
            a[ri + j] -= s0;
        }
    }

    private static int roundUp(int x, int m) { return (x + m - 1) / m * m; }
}
