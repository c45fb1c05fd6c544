package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reverse-mode gradients checked against central finite differences in F64. */
final class AutodiffTestSupport {
    private AutodiffTestSupport() {}

    /** F64 values uniform in [lo, hi), reproducible by seed. */
    static Tensor uniform(long seed, double lo, double hi, int... dims) {
        java.util.Random r = new java.util.Random(seed);
        int n = 1;
        for (int d : dims) n *= d;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = lo + (hi - lo) * r.nextDouble();
        return Tensor.of(v).reshape(dims);
    }

    /** {@code f}'s output weighted by fixed random weights and summed: a scalar whose cotangent is not all ones. */
    static Function<List<Tensor>, Tensor> weighted(Function<List<Tensor>, Tensor> f, long seed) {
        return xs -> {
            Tensor y = f.apply(xs);
            Tensor w = uniform(seed, 0.5, 1.5, y.shape().dims());
            return y.multiply(w).sum();
        };
    }

    /** Asserts the gradient of the scalar {@code f} at {@code xs} equals central differences at every element. */
    static void assertGradMatchesFiniteDifferences(String what, Function<List<Tensor>, Tensor> f, Tensor... xs) {
        assertGradMatchesFiniteDifferences(what, f, Integer.MAX_VALUE, xs);
    }

    /** As above, checking at most {@code maxPerInput} coordinates (spread evenly) of each input. */
    static void assertGradMatchesFiniteDifferences(String what, Function<List<Tensor>, Tensor> f, int maxPerInput, Tensor... xs) {
        List<Tensor> in = List.of(xs);
        List<Tensor> grads = Autodiff.gradList(f).apply(in);
        assertEquals(xs.length, grads.size(), what);
        for (int i = 0; i < xs.length; i++) {
            Tensor g = grads.get(i);
            assertEquals(xs[i].dtype(), g.dtype(), what + ": grad dtype of input " + i);
            assertEquals(xs[i].shape(), g.shape(), what + ": grad shape of input " + i);
            if (xs[i].dtype() != DType.F64) continue;
            double[] base = xs[i].toDoubleArray();
            double[] ga = g.toDoubleArray();
            int step = Math.max(1, base.length / Math.min(base.length == 0 ? 1 : base.length, maxPerInput));
            for (int j = 0; j < base.length; j += step) {
                double h = 1e-6 * Math.max(1.0, Math.abs(base[j]));
                double fp = eval(f, in, i, base, j, base[j] + h);
                double fm = eval(f, in, i, base, j, base[j] - h);
                double numeric = (fp - fm) / (2 * h);
                double tol = 1e-6 * (1 + Math.abs(numeric));
                int jj = j;
                int ii = i;
                assertTrue(Math.abs(ga[j] - numeric) <= tol, () -> what + ": d/dx" + ii + "[" + jj + "] reverse " + ga[jj] + " vs finite difference "
                        + numeric + " at " + Arrays.toString(base));
            }
        }
    }

    private static double eval(Function<List<Tensor>, Tensor> f, List<Tensor> in, int i, double[] base, int j, double v) {
        double[] p = base.clone();
        p[j] = v;
        List<Tensor> args = new ArrayList<>(in);
        args.set(i, Tensor.of(p).reshape(in.get(i).shape()));
        return f.apply(args).toDoubleArray()[0];
    }

    static void assertClose(String what, Tensor expected, Tensor actual, double tol) {
        assertEquals(expected.dtype(), actual.dtype(), what + ": dtype");
        assertEquals(expected.shape(), actual.shape(), what + ": shape");
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            int ii = i;
            assertTrue(Math.abs(e[i] - a[i]) <= tol * (1 + Math.abs(e[i])), () -> what + ": [" + ii + "] expected " + e[ii] + " got " + a[ii]);
        }
    }
}
