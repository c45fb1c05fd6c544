package dev.jburn.reference;

/**
 * LU factorization with partial pivoting (LAPACK {@code getf2}, right-looking) of a row-major
 * {@code n × n} double matrix, in place: afterwards the strict lower triangle holds {@code L}
 * (unit diagonal implied) and the upper triangle holds {@code U}.
 *
 * <p>The pivot of column {@code k} is the first row {@code i >= k} of largest {@code |a[i][k]|}
 * in the partly reduced matrix. A zero pivot column is skipped (no division), so a singular
 * matrix factors without error and shows an exactly zero diagonal entry in {@code U}.
 */
final class Lu {
    private Lu() {}

    /** Factors {@code a} in place; returns {@code perm} with {@code perm[k]} = the original row now at row {@code k}. */
    static int[] factor(double[] a, int n) {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) perm[i] = i;
        for (int k = 0; k < n; k++) {
            int p = k;
            double best = Math.abs(a[k * n + k]);
            for (int i = k + 1; i < n; i++) {
                double v = Math.abs(a[i * n + k]);
                if (v > best) {
                    best = v;
                    p = i;
                }
            }
            if (p != k) {
                swapRows(a, n, k, p);
                int t = perm[k];
                perm[k] = perm[p];
                perm[p] = t;
            }
            double pivot = a[k * n + k];
            if (pivot == 0) continue;
            int rk = k * n;
            for (int i = k + 1; i < n; i++) {
                int ri = i * n;
                double f = a[ri + k] / pivot;
                a[ri + k] = f;
                if (f == 0) continue;
                for (int j = k + 1; j < n; j++) a[ri + j] = Math.fma(-f, a[rk + j], a[ri + j]);
            }
        }
        return perm;
    }

    /** {@code p[i][j] = 1} when {@code i == perm[j]}, so that {@code a = p·l·u}. */
    static double[] permutationMatrix(int[] perm) {
        int n = perm.length;
        double[] p = new double[n * n];
        for (int j = 0; j < n; j++) p[perm[j] * n + j] = 1;
        return p;
    }

    /** Unit lower factor from the packed result. */
    static double[] lower(double[] lu, int n) {
        double[] l = new double[n * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(lu, i * n, l, i * n, i);
            l[i * n + i] = 1;
        }
        return l;
    }

    /** Upper factor from the packed result. */
    static double[] upper(double[] lu, int n) {
        double[] u = new double[n * n];
        for (int i = 0; i < n; i++) System.arraycopy(lu, i * n + i, u, i * n + i, n - i);
        return u;
    }

    private static void swapRows(double[] a, int n, int r, int s) {
        for (int j = 0; j < n; j++) {
            double t = a[r * n + j];
            a[r * n + j] = a[s * n + j];
            a[s * n + j] = t;
        }
    }
}
