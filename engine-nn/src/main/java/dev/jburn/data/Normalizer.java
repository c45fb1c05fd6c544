package dev.jburn.data;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

/**
 * Per-feature statistics fitted on one dataset (the training part) and applied to others, so
 * that validation and test data are scaled with the training statistics: {@code (x - shift) / scale}.
 * A feature is everything but the example axis: for images, each pixel.
 *
 * <pre>{@code
 * Normalizer norm = Normalizer.standard(split.train());      // mean and standard deviation per feature
 * TensorDataset train = norm.apply(split.train()), test = norm.apply(split.test());
 * }</pre>
 *
 * {@link Method#MIN_MAX} maps the fitted range to {@code [0, 1]} ({@code shift} the minimum,
 * {@code scale} the range); {@link Method#STANDARD} gives mean 0 and standard deviation 1
 * ({@code shift} the mean, {@code scale} the population standard deviation). A constant feature
 * gets a scale of 1. Statistics are kept in the examples' float type (f32 for integer examples).
 *
 * @param method the statistics
 * @param shift  subtracted from each example, the shape of one example
 * @param scale  divided into each example, the shape of one example
 */
public record Normalizer(Method method, Tensor shift, Tensor scale) {
    /** Which statistics. */
    public enum Method { MIN_MAX, STANDARD }

    public Normalizer {
        if (method == null || shift == null || scale == null) throw new JBurnException("normalizer", "method, shift and scale are required");
        if (!shift.shape().equals(scale.shape())) throw new JBurnException("normalizer", "shift " + shift.shape() + " and scale " + scale.shape() + " differ in shape");
    }

    /** Min-max statistics of {@code data}'s examples. */
    public static Normalizer minMax(TensorDataset data) { return fit(Method.MIN_MAX, data); }

    /** Mean and standard deviation of {@code data}'s examples. */
    public static Normalizer standard(TensorDataset data) { return fit(Method.STANDARD, data); }

    /** The statistics {@code method} of {@code data}'s examples, per feature. */
    public static Normalizer fit(Method method, TensorDataset data) {
        if (data.size() == 0) throw new JBurnException("normalizer", "cannot fit on an empty dataset");
        int[] batchAxis = {0};
        try (Tensor x = data.x().asType(data.x().dtype().toFloating())) {
            if (method == Method.MIN_MAX) {
                Tensor min = x.min(batchAxis, false);
                try (Tensor max = x.max(batchAxis, false); Tensor range = max.subtract(min)) {
                    return new Normalizer(method, min, nonZero(range));
                }
            }
            Tensor mean = x.mean(batchAxis, false);
            try (Tensor d = x.subtract(mean); Tensor sq = d.multiply(d); Tensor var = sq.mean(batchAxis, false); Tensor std = var.sqrt()) {
                return new Normalizer(method, mean, nonZero(std));
            }
        }
    }

    /** {@code data} with its examples normalized; the targets unchanged. */
    public TensorDataset apply(TensorDataset data) { return new TensorDataset(apply(data.x()), data.y()); }

    /** Examples {@code [n, ...]} normalized. */
    public Tensor apply(Tensor x) {
        check(x);
        try (Tensor xf = x.asType(shift.dtype()); Tensor d = xf.subtract(shift.to(x.engine()))) {
            return d.divide(scale.to(x.engine()));
        }
    }

    /** The inverse of {@link #apply(Tensor)}: {@code z * scale + shift}. */
    public Tensor invert(Tensor z) {
        check(z);
        try (Tensor zf = z.asType(shift.dtype()); Tensor m = zf.multiply(scale.to(z.engine()))) {
            return m.add(shift.to(z.engine()));
        }
    }

    private void check(Tensor x) {
        int[] d = x.shape().dims();
        if (d.length != shift.rank() + 1 || !dev.jburn.Shape.of(java.util.Arrays.copyOfRange(d, 1, d.length)).equals(shift.shape())) {
            throw new JBurnException("normalizer", "examples " + x.shape() + " do not have the fitted feature shape " + shift.shape());
        }
    }

    private static Tensor nonZero(Tensor s) {
        try (Tensor zero = s.equal(0.0)) {
            return zero.select(1.0, s);
        }
    }
}
