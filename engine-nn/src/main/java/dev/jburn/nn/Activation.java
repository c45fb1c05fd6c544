package dev.jburn.nn;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;

import java.util.Locale;

/**
 * An element-wise (or, for softmax and log-softmax, last-axis) activation function, usable in
 * {@link Model#dense(int, Activation)} and as a layer ({@link Model#activation(Activation)}).
 * A value with an optional parameter, so that it can be written to and read from a model file
 * ({@link #toString()} and {@link #parse}).
 *
 * <p>At kinks the derivative is the one deep-learning users expect: {@code relu}, {@code relu6},
 * {@code leaky_relu}, {@code elu} and friends take the gradient of the branch for {@code x <= 0}
 * at 0 (0 for relu, as {@code jax.nn.relu} and PyTorch), written with {@code select} rather than
 * {@code max}, whose tie rule gives ½. Forms are numerically stable: {@code softplus} as
 * {@code max(x, 0) + log1p(exp(-|x|))}, {@code log_softmax} through log-sum-exp, and the
 * exponential branches of {@code elu}/{@code selu}/{@code celu} see {@code min(x, 0)} only, so
 * no infinity reaches a gradient.
 *
 * <pre>{@code
 * Tensor y = Activation.GELU.apply(x);
 * Activation a = Activation.leakyRelu(0.2);          // "leaky_relu(0.2)"
 * Activation b = Activation.parse("leaky_relu(0.2)"); // equal to a
 * }</pre>
 *
 * @param kind  the function
 * @param alpha its parameter (leaky relu slope, elu/celu alpha); ignored by the others
 */
public record Activation(Kind kind, double alpha) {
    /** The functions. */
    public enum Kind {
        LINEAR, RELU, RELU6, LEAKY_RELU, ELU, SELU, CELU, GELU, GELU_TANH, SILU, MISH, SOFTPLUS, SOFTSIGN,
        SIGMOID, HARD_SIGMOID, HARD_SWISH, TANH, SOFTMAX, LOG_SOFTMAX, LOG_SIGMOID;

        /** The snake-case name ({@code "leaky_relu"}). */
        public String snake() { return name().toLowerCase(Locale.ROOT); }

        boolean hasAlpha() { return this == LEAKY_RELU || this == ELU || this == CELU; }
    }

    public static final Activation LINEAR = new Activation(Kind.LINEAR, 0);
    public static final Activation RELU = new Activation(Kind.RELU, 0);
    public static final Activation RELU6 = new Activation(Kind.RELU6, 0);
    /** Leaky relu with slope 0.01 (PyTorch's default; Keras uses 0.3). */
    public static final Activation LEAKY_RELU = new Activation(Kind.LEAKY_RELU, 0.01);
    public static final Activation ELU = new Activation(Kind.ELU, 1.0);
    public static final Activation SELU = new Activation(Kind.SELU, 0);
    public static final Activation CELU = new Activation(Kind.CELU, 1.0);
    /** GELU with the exact erf form, {@code x·Φ(x)}. */
    public static final Activation GELU = new Activation(Kind.GELU, 0);
    /** GELU with the tanh approximation. */
    public static final Activation GELU_TANH = new Activation(Kind.GELU_TANH, 0);
    public static final Activation SILU = new Activation(Kind.SILU, 0);
    /** Swish is SiLU: {@code x·sigmoid(x)}. */
    public static final Activation SWISH = SILU;
    public static final Activation MISH = new Activation(Kind.MISH, 0);
    public static final Activation SOFTPLUS = new Activation(Kind.SOFTPLUS, 0);
    public static final Activation SOFTSIGN = new Activation(Kind.SOFTSIGN, 0);
    public static final Activation SIGMOID = new Activation(Kind.SIGMOID, 0);
    /** {@code relu6(x + 3) / 6}, as PyTorch and {@code jax.nn.hard_sigmoid}. */
    public static final Activation HARD_SIGMOID = new Activation(Kind.HARD_SIGMOID, 0);
    /** {@code x·relu6(x + 3) / 6}. */
    public static final Activation HARD_SWISH = new Activation(Kind.HARD_SWISH, 0);
    public static final Activation TANH = new Activation(Kind.TANH, 0);
    /** Softmax over the last axis. */
    public static final Activation SOFTMAX = new Activation(Kind.SOFTMAX, 0);
    /** Log-softmax over the last axis. */
    public static final Activation LOG_SOFTMAX = new Activation(Kind.LOG_SOFTMAX, 0);
    public static final Activation LOG_SIGMOID = new Activation(Kind.LOG_SIGMOID, 0);

    static final double SELU_ALPHA = 1.6732632423543772848170429916717;
    static final double SELU_SCALE = 1.0507009873554804934193349852946;

    public Activation {
        if (kind == null) throw new JBurnException("activation", "the kind is required");
        if (!Double.isFinite(alpha)) throw new JBurnException("activation", kind.snake() + ": alpha must be finite, got " + alpha);
        if ((kind == Kind.ELU || kind == Kind.CELU) && !(alpha > 0)) {
            throw new JBurnException("activation", kind.snake() + ": alpha must be positive, got " + alpha);
        }
        if (!kind.hasAlpha()) alpha = 0;
    }

    /** Leaky relu: {@code x} for {@code x > 0}, {@code slope·x} otherwise. */
    public static Activation leakyRelu(double slope) { return new Activation(Kind.LEAKY_RELU, slope); }

    /** ELU: {@code x} for {@code x > 0}, {@code alpha·(exp(x) - 1)} otherwise. */
    public static Activation elu(double alpha) { return new Activation(Kind.ELU, alpha); }

    /** CELU: {@code x} for {@code x > 0}, {@code alpha·(exp(x/alpha) - 1)} otherwise. */
    public static Activation celu(double alpha) { return new Activation(Kind.CELU, alpha); }

    /** Applies the function. */
    public Tensor apply(Tensor x) {
        if (x == null) throw new JBurnException(kind.snake(), "the input must not be null");
        if (!x.dtype().isFloat()) throw new JBurnException(kind.snake(), "expects a float tensor, got " + x.dtype().shortName() + x.shape());
        return switch (kind) {
            case LINEAR -> x;
            case RELU -> relu(x);
            case RELU6 -> relu6(x);
            case LEAKY_RELU -> x.lessEqual(0.0).select(x.multiply(alpha), x);
            case ELU -> x.lessEqual(0.0).select(negativePart(x).expm1().multiply(alpha), x);
            case SELU -> x.lessEqual(0.0).select(negativePart(x).expm1().multiply(SELU_ALPHA), x).multiply(SELU_SCALE);
            case CELU -> x.lessEqual(0.0).select(negativePart(x).divide(alpha).expm1().multiply(alpha), x);
            case GELU -> x.multiply(x.multiply(Math.sqrt(0.5)).erf().add(1.0)).multiply(0.5);
            case GELU_TANH -> x.multiply(x.add(x.multiply(x).multiply(x).multiply(0.044715))
                    .multiply(Math.sqrt(2 / Math.PI)).tanh().add(1.0)).multiply(0.5);
            case SILU -> x.multiply(x.sigmoid());
            case MISH -> x.multiply(softplus(x).tanh());
            case SOFTPLUS -> softplus(x);
            case SOFTSIGN -> x.divide(x.abs().add(1.0));
            case SIGMOID -> x.sigmoid();
            case HARD_SIGMOID -> hardSigmoid(x);
            case HARD_SWISH -> x.multiply(hardSigmoid(x));
            case TANH -> x.tanh();
            case SOFTMAX -> x.subtract(lastAxisLogSumExp(x)).exp();
            case LOG_SOFTMAX -> x.subtract(lastAxisLogSumExp(x));
            case LOG_SIGMOID -> softplus(x.negate()).negate();
        };
    }

    /** {@code "relu"}, {@code "leaky_relu(0.2)"}: the form {@link #parse} reads. */
    @Override public String toString() { return kind.hasAlpha() ? kind.snake() + "(" + alpha + ")" : kind.snake(); }

    /** Reads {@link #toString()}'s form; {@code "swish"} is {@code "silu"}. */
    public static Activation parse(String text) {
        if (text == null) throw new JBurnException("activation", "the name must not be null");
        String s = text.trim().toLowerCase(Locale.ROOT);
        double a = Double.NaN;
        int open = s.indexOf('(');
        if (open >= 0) {
            if (!s.endsWith(")")) throw new JBurnException("activation", "cannot read '" + text + "'");
            try {
                a = Double.parseDouble(s.substring(open + 1, s.length() - 1));
            } catch (NumberFormatException e) {
                throw new JBurnException("activation", "cannot read the parameter of '" + text + "'");
            }
            s = s.substring(0, open);
        }
        if (s.equals("swish")) s = "silu";
        for (Kind k : Kind.values()) {
            if (k.snake().equals(s)) {
                if (k.hasAlpha()) return new Activation(k, Double.isNaN(a) ? defaultAlpha(k) : a);
                if (!Double.isNaN(a)) throw new JBurnException("activation", k.snake() + " takes no parameter, got '" + text + "'");
                return new Activation(k, 0);
            }
        }
        throw new JBurnException("activation", "unknown activation '" + text + "'; known: " + java.util.Arrays.stream(Kind.values())
                .map(Kind::snake).toList());
    }

    private static double defaultAlpha(Kind k) { return k == Kind.LEAKY_RELU ? 0.01 : 1.0; }

    /**
     * {@code max(x, 0)} (NaN stays NaN, -0 becomes +0) with the gradient read from the result: {@code g} where
     * {@code relu(x) > 0}, else 0 (0 at 0 and at NaN, as PyTorch's {@code threshold_backward}). Why: {@code x} then has one
     * reader, so a compiled step computes it in the same pass as its producer (batch norm's affine map, a
     * conv's bias), and the backward pass keeps the result, which the next layer reads anyway, instead of a mask.
     * Integer inputs keep {@code x <= 0 ? 0 : x} (a float 0 would promote them).
     */
    private static Tensor relu(Tensor x) { return x.dtype().isFloat() ? FLOAT_RELU.apply(x) : x.lessEqual(0.0).select(0.0, x); }

    private static final java.util.function.Function<Tensor, Tensor> FLOAT_RELU =
            Autodiff.customGradient(x -> x.maximum(0.0), (x, y, g) -> y.greater(0.0).select(g, 0.0));

    private static Tensor relu6(Tensor x) { return x.greaterEqual(6.0).select(6.0, relu(x)); }

    /** {@code min(x, 0)} by select, so that exp of it never overflows in the branch select discards. */
    private static Tensor negativePart(Tensor x) { return x.less(0.0).select(x, 0.0); }

    private static Tensor softplus(Tensor x) { return x.maximum(0.0).add(x.abs().negate().exp().log1p()); }

    private static Tensor hardSigmoid(Tensor x) {
        return relu6(x.add(3.0)).divide(6.0);
    }

    private static Tensor lastAxisLogSumExp(Tensor x) {
        if (x.rank() == 0) throw new JBurnException("softmax", "needs a tensor of rank >= 1, got a scalar");
        return x.logSumExp(new int[] {-1}, true);
    }
}
