package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;
import dev.jburn.nn.internal.KeyBits;

/**
 * Alpha dropout (Klambauer et al., for self-normalizing SELU networks): in training mode each
 * element is kept with probability {@code 1 - rate}, otherwise set to SELU's negative saturation
 * {@code α' = -scale·alpha ≈ -1.7581}, and the result is mapped by {@code a·x + b} with
 * {@code a = ((1 - rate)(1 + rate·α'²))^(-1/2)} and {@code b = -a·α'·rate}, which keeps a
 * zero-mean unit-variance input at zero mean and unit variance (Keras {@code AlphaDropout},
 * PyTorch {@code AlphaDropout}). Inference is the identity. The mask comes from the layer's own
 * key ({@link LayerCall#key()}), as {@link Dropout}'s.
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 64)).dense(64, Activation.SELU).apply(AlphaDropout.of(0.1));
 * }</pre>
 *
 * @param rate probability of dropping, in {@code [0, 1)}
 */
public record AlphaDropout(double rate) implements Layer {
    /** SELU's {@code alpha}. */
    public static final double SELU_ALPHA = 1.6732632423543772848170429916717;
    /** SELU's {@code scale}. */
    public static final double SELU_SCALE = 1.0507009873554804934193349852946;
    /** The value a dropped element takes before the affine map: {@code -SELU_SCALE · SELU_ALPHA}. */
    public static final double ALPHA_PRIME = -SELU_SCALE * SELU_ALPHA;

    public AlphaDropout {
        if (!(rate >= 0 && rate < 1)) throw new JBurnException("alpha_dropout", "rate must be in [0, 1), got " + rate);
    }

    /** Alpha dropout at {@code rate}. */
    public static AlphaDropout of(double rate) { return new AlphaDropout(rate); }

    /** The affine map's {@code a}. */
    public double a() { return StrictMath.pow((1 - rate) * (1 + rate * ALPHA_PRIME * ALPHA_PRIME), -0.5); }

    /** The affine map's {@code b}. */
    public double b() { return -a() * ALPHA_PRIME * rate; }

    @Override public String kind() { return "alpha_dropout"; }

    @Override public boolean usesKey() { return true; }

    @Override public TensorSpec output(LayerSignature in) { return in.requireFloat(); }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        if (!call.training() || rate == 0) return x;
        Tensor keep = KeyBits.keepMask(call.key(), x.shape(), rate);
        return keep.select(x, ALPHA_PRIME).multiply(a()).add(b());
    }
}
