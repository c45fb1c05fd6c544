package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Random matrices, host-side matrix arithmetic in double, and tolerant comparisons for the LinAlg tests. */
final class LinAlgTestSupport {
    private LinAlgTestSupport() {}

    static final DType[] FLOATS = {DType.F64, DType.F32, DType.F16, DType.BF16};

    /** Relative tolerance for checks of identities on factors stored in {@code t} (rounded once), for size {@code n}. */
    static double tol(DType t, int n) {
        double eps = switch (t) {
            case F64 -> 0x1p-52;
            case F32 -> 0x1p-23;
            case F16 -> 0x1p-10;
            case BF16 -> 0x1p-7;
            default -> 0x1p-23;
        };
        return Math.max(n, 2) * 16 * eps;
    }

    /** Uniform values in [-1, 1) as a tensor of {@code t} on {@code e}. */
    static Tensor random(long seed, DType t, Engine e, int... dims) {
        Random r = new Random(seed);
        Shape s = Shape.of(dims);
        double[] v = new double[(int) s.size()];
        for (int i = 0; i < v.length; i++) v[i] = r.nextDouble() * 2 - 1;
        return of(v, t, e, dims);
    }

    static Tensor of(double[] flat, DType t, Engine e, int... dims) {
        try (Tensor f64 = Tensor.of(flat); Tensor shaped = f64.reshape(dims)) {
            Tensor typed = shaped.asType(t);
            if (typed.engine() == e) return typed; // to(e) would return the same tensor
            try (typed) {
                return typed.to(e);
            }
        }
    }

    /** Symmetric positive-definite matrices {@code B·Bᵀ + n·I}, rounded to {@code t}. */
    static Tensor spd(long seed, DType t, Engine e, int batch, int n) {
        Random r = new Random(seed);
        double[] out = new double[batch * n * n];
        for (int b = 0; b < batch; b++) {
            double[] m = new double[n * n];
            for (int i = 0; i < m.length; i++) m[i] = r.nextDouble() * 2 - 1;
            double[] mmt = matmul(m, n, n, transpose(m, n, n), n);
            for (int i = 0; i < n; i++) mmt[i * n + i] += n;
            System.arraycopy(mmt, 0, out, b * n * n, n * n);
        }
        return batch == 1 ? of(out, t, e, n, n) : of(out, t, e, batch, n, n);
    }

    /** {@code a [m×k] · b [k×n]}, row-major. */
    static double[] matmul(double[] a, int m, int k, double[] b, int n) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int p = 0; p < k; p++) {
                double x = a[i * k + p];
                for (int j = 0; j < n; j++) c[i * n + j] += x * b[p * n + j];
            }
        }
        return c;
    }

    static double[] transpose(double[] a, int m, int n) {
        double[] t = new double[a.length];
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) t[j * m + i] = a[i * n + j];
        return t;
    }

    static double[] identity(int n) {
        double[] e = new double[n * n];
        for (int i = 0; i < n; i++) e[i * n + i] = 1;
        return e;
    }

    /** Matrix {@code index} of a batch stored flat, each {@code size} elements. */
    static double[] part(double[] all, int index, int size) {
        double[] p = new double[size];
        System.arraycopy(all, index * size, p, 0, size);
        return p;
    }

    static double maxAbs(double[] v) {
        double m = 0;
        for (double x : v) m = Math.max(m, Math.abs(x));
        return m;
    }

    /** {@code |expected - actual| <= tol · max(1, max|expected|)} element-wise. */
    static void assertClose(double[] expected, double[] actual, double tol, String what) {
        assertEquals(expected.length, actual.length, what + ": length");
        double scale = Math.max(1, maxAbs(expected));
        for (int i = 0; i < expected.length; i++) {
            double d = Math.abs(expected[i] - actual[i]);
            if (!(d <= tol * scale)) {
                fail(what + ": element " + i + " expected " + expected[i] + " but was " + actual[i] + " (|diff| " + d
                        + " > " + tol * scale + ")");
            }
        }
    }

    /** {@link #assertClose} against a tensor's values. */
    static void assertValues(double[] expected, Tensor actual, double tol) {
        assertClose(expected, actual.toDoubleArray(), tol, actual.toString());
    }

    static double[] flat(double[][] rows) {
        int n = rows[0].length;
        double[] f = new double[rows.length * n];
        for (int i = 0; i < rows.length; i++) System.arraycopy(rows[i], 0, f, i * n, n);
        return f;
    }
}
