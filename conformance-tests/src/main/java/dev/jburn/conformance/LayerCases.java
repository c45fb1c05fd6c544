package dev.jburn.conformance;

import dev.jburn.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * Every case of the {@link LayerContract}, family by family, plus the array helpers the direct
 * formulas share. A family is a class with {@code static List<LayerCase> cases(long seed)}.
 */
public final class LayerCases {
    private LayerCases() {}

    /** The cases for {@code seed}, every family. */
    public static List<LayerCase> all(long seed) {
        List<LayerCase> all = new ArrayList<>();
        all.addAll(CoreLayerCases.cases(seed));
        // ---- convolution and pooling (helper) ----
        all.addAll(ConvLayerCases.cases(seed));
        // ---- end convolution and pooling ----

        // ---- normalization and regularization (helper) ----
        all.addAll(NormLayerCases.cases(seed));

        // ---- end normalization and regularization ----

        // ---- recurrent and attention (helper) ----
        all.addAll(RecurrentLayerCases.cases(seed));

        // ---- end recurrent and attention ----

        // ---- shape (helper) ----
        all.addAll(ShapeLayerCases.cases(seed));

        // ---- end shape ----
        return all;
    }

    /** Values uniform in {@code [lo, hi)} from {@code r}. */
    public static double[] uniform(java.util.Random r, int n, double lo, double hi) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = lo + (hi - lo) * r.nextDouble();
        return v;
    }

    /** An f64 input of {@code shape} with values in [-2, 2). */
    public static LayerCase.Input input(java.util.Random r, int... shape) {
        Shape s = Shape.of(shape);
        return new LayerCase.Input(uniform(r, (int) s.size(), -2, 2), s, false);
    }

    /** {@code a [m, k] · b [k, n]}. */
    public static double[] matmul(double[] a, double[] b, int m, int k, int n) { return Matrices.mul(a, m, k, b, n); }

    /** Row-major flat index of {@code idx} in {@code dims}. */
    public static int flat(int[] dims, int... idx) {
        int f = 0;
        for (int i = 0; i < dims.length; i++) f = f * dims[i] + idx[i];
        return f;
    }

    /** Applies {@code f} to each element. */
    public static double[] map(double[] x, java.util.function.DoubleUnaryOperator f) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) y[i] = f.applyAsDouble(x[i]);
        return y;
    }
}
