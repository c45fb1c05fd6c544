package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.LinAlg;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

/**
 * The usual parameter initializers, all drawn from the counter-based {@link Prng} with the
 * key {@link Model#init} derives for each parameter (folded from its path), so the same key gives
 * the same parameters on every engine.
 *
 * <p>Fans follow Keras: a rank-2 shape {@code [in, out]} has {@code fanIn = in}, {@code fanOut = out};
 * a conv kernel {@code [k..., in, out]} multiplies both by the receptive field {@code prod(k)};
 * rank 1 uses its size for both; rank 0 uses 1.
 *
 * <pre>{@code
 * Initializer w = Initializers.glorotUniform();
 * Tensor kernel = w.init(Prng.key(0), Shape.of(784, 256), DType.F32);
 * }</pre>
 */
public final class Initializers {
    private Initializers() {}

    /** How {@link #varianceScaling} picks its fan. */
    public enum FanMode { FAN_IN, FAN_OUT, FAN_AVG }

    /** How {@link #varianceScaling} draws. */
    public enum Distribution { TRUNCATED_NORMAL, NORMAL, UNIFORM }

    /** All zeros. */
    public static Initializer zeros() { return named("zeros", (k, s, t) -> Tensor.zeros(s, t).to(k.engine())); }

    /** All ones. */
    public static Initializer ones() { return named("ones", (k, s, t) -> Tensor.ones(s, t).to(k.engine())); }

    /** Every element {@code value}. */
    public static Initializer constant(double value) {
        return named("constant(" + value + ")", (k, s, t) -> Tensor.full(s, t, value).to(k.engine()));
    }

    /** Uniform in {@code [min, max)}. */
    public static Initializer uniform(double min, double max) {
        if (!(max > min)) throw new JBurnException("uniform initializer", "needs min < max, got [" + min + ", " + max + ")");
        return named("uniform(" + min + ", " + max + ")", (k, s, t) -> Prng.uniformSplit(k, s, t, min, max));
    }

    /** Normal with {@code mean} and {@code stddev}. */
    public static Initializer normal(double mean, double stddev) {
        checkScale("normal initializer", stddev);
        return named("normal(" + mean + ", " + stddev + ")", (k, s, t) -> Prng.normalSplit(k, s, t, mean, stddev));
    }

    /**
     * Normal with {@code mean} and {@code stddev}, truncated to two standard deviations (JAX's
     * {@code truncated_normal}: inverse CDF of a uniform on {@code [Φ(-2), Φ(2)]}, no rejection).
     */
    public static Initializer truncatedNormal(double mean, double stddev) {
        checkScale("truncated normal initializer", stddev);
        return named("truncated_normal(" + mean + ", " + stddev + ")", (k, s, t) -> truncated(k, s, t, mean, stddev));
    }

    /** Glorot/Xavier uniform: {@code U(-l, l)}, {@code l = sqrt(6 / (fanIn + fanOut))}. */
    public static Initializer glorotUniform() { return varianceScaling(1.0, FanMode.FAN_AVG, Distribution.UNIFORM, "glorot_uniform"); }

    /** Glorot/Xavier normal: truncated normal with variance {@code 2 / (fanIn + fanOut)}. */
    public static Initializer glorotNormal() { return varianceScaling(1.0, FanMode.FAN_AVG, Distribution.TRUNCATED_NORMAL, "glorot_normal"); }

    /** He/Kaiming uniform: {@code U(-l, l)}, {@code l = sqrt(6 / fanIn)}. */
    public static Initializer heUniform() { return varianceScaling(2.0, FanMode.FAN_IN, Distribution.UNIFORM, "he_uniform"); }

    /** He/Kaiming normal: truncated normal with variance {@code 2 / fanIn}. */
    public static Initializer heNormal() { return varianceScaling(2.0, FanMode.FAN_IN, Distribution.TRUNCATED_NORMAL, "he_normal"); }

    /** LeCun uniform: {@code U(-l, l)}, {@code l = sqrt(3 / fanIn)}. */
    public static Initializer lecunUniform() { return varianceScaling(1.0, FanMode.FAN_IN, Distribution.UNIFORM, "lecun_uniform"); }

    /** LeCun normal: truncated normal with variance {@code 1 / fanIn}. */
    public static Initializer lecunNormal() { return varianceScaling(1.0, FanMode.FAN_IN, Distribution.TRUNCATED_NORMAL, "lecun_normal"); }

    /**
     * Keras/JAX variance scaling: variance {@code scale / fan}. A truncated normal's standard
     * deviation is divided by {@code 0.8796256610342398} (the standard deviation of a standard
     * normal truncated to ±2), so the drawn variance is the requested one.
     */
    public static Initializer varianceScaling(double scale, FanMode mode, Distribution distribution) {
        return varianceScaling(scale, mode, distribution, "variance_scaling(" + scale + ", " + mode + ", " + distribution + ")");
    }

    private static Initializer varianceScaling(double scale, FanMode mode, Distribution distribution, String name) {
        checkScale("variance scaling initializer", scale);
        if (mode == null || distribution == null) throw new JBurnException("variance scaling initializer", "mode and distribution are required");
        return named(name, (k, s, t) -> {
            double[] fans = fans(s);
            double fan = switch (mode) {
                case FAN_IN -> fans[0];
                case FAN_OUT -> fans[1];
                case FAN_AVG -> (fans[0] + fans[1]) / 2;
            };
            double variance = scale / Math.max(1.0, fan);
            return switch (distribution) {
                case TRUNCATED_NORMAL -> truncated(k, s, t, 0, Math.sqrt(variance) / 0.87962566103423978);
                case NORMAL -> Prng.normalSplit(k, s, t, 0, Math.sqrt(variance));
                case UNIFORM -> {
                    double limit = Math.sqrt(3 * variance);
                    yield Prng.uniformSplit(k, s, t, -limit, limit);
                }
            };
        });
    }

    /**
     * An orthogonal matrix (Saxe et al.): the Q of the QR decomposition of a standard normal
     * matrix of {@code prod(shape[:-1]) × shape[-1]} (transposed when it has fewer rows than
     * columns), with column signs fixed by {@code diag(R)}, times {@code gain}. Needs rank ≥ 2.
     */
    public static Initializer orthogonal(double gain) {
        return named("orthogonal(" + gain + ")", (k, s, t) -> {
            if (s.rank() < 2) throw new JBurnException("orthogonal initializer", "needs a shape of rank >= 2, got " + s);
            int cols = s.dim(-1);
            int rows = Math.toIntExact(s.size() / Math.max(1, cols));
            boolean wide = rows < cols;
            int m = wide ? cols : rows, n = wide ? rows : cols;
            try (var scope = Tensor.scope()) {
                Tensor a = Prng.normalSplit(k, Shape.of(m, n), DType.F64, 0, 1);
                LinAlg.QR qr = LinAlg.qr(a);
                Tensor d = qr.r().multiply(Tensor.eye(n, DType.F64).to(k.engine())).sum(new int[] {0}).sign();
                Tensor d1 = d.equal(0.0).select(Tensor.scalar(1.0).to(k.engine()), d);
                Tensor q = qr.q().multiply(d1);
                if (wide) q = q.transpose();
                return scope.keep(q.multiply(gain).asType(t).reshape(s));
            }
        });
    }

    /** {@link #orthogonal(double)} with gain 1. */
    public static Initializer orthogonal() { return orthogonal(1.0); }

    /** {@code [fanIn, fanOut]} of a shape, Keras's rule. */
    public static double[] fans(Shape s) {
        if (s.rank() == 0) return new double[] {1, 1};
        if (s.rank() == 1) return new double[] {s.dim(0), s.dim(0)};
        double receptive = 1;
        for (int i = 0; i < s.rank() - 2; i++) receptive *= s.dim(i);
        return new double[] {s.dim(-2) * receptive, s.dim(-1) * receptive};
    }

    private static Tensor truncated(Tensor k, Shape s, DType t, double mean, double stddev) {
        // u uniform on (Φ(-2), Φ(2)) in erf space, then sqrt(2)·erfInv(u): a normal truncated to [-2, 2], computed in f64.
        double lo = erf(-2 / Math.sqrt(2)), hi = erf(2 / Math.sqrt(2));
        try (var scope = Tensor.scope()) {
            Tensor u = Prng.uniformSplit(k, s, DType.F64, lo, hi);
            Tensor z = u.erfInv().multiply(Math.sqrt(2)).clip(-2.0, 2.0);
            return scope.keep(z.multiply(stddev).add(mean).asType(t));
        }
    }

    private static double erf(double x) { return dev.jburn.spi.ScalarMath.erf(x); }

    private static void checkScale(String op, double v) {
        if (!(v > 0) || Double.isInfinite(v)) throw new JBurnException(op, "the scale must be positive and finite, got " + v);
    }

    private static Initializer named(String name, Initializer fn) { return new Named(name, fn); }

    private record Named(String name, Initializer fn) implements Initializer {
        @Override public Tensor init(Tensor key, Shape shape, DType dtype) {
            if (!dtype.isFloat()) throw new JBurnException(name + " initializer", "initializes float parameters, got " + dtype.shortName());
            return fn.init(key, shape, dtype);
        }

        @Override public String toString() { return name; }
    }
}
