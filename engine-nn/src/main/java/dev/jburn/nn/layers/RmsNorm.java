package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;

import java.util.Arrays;
import java.util.List;

/**
 * Root-mean-square normalization (Zhang and Sennrich): {@code y = x / sqrt(mean(x²) + epsilon) · gamma}
 * over the last {@code axes} axes of each sample, with {@code gamma} of their shape. No centering,
 * no bias; the same in training and inference.
 *
 * <p>Defaults: the last axis, {@code epsilon 1e-6} (Keras {@code RMSNormalization}; PyTorch's
 * {@code RMSNorm} defaults to the dtype's machine epsilon), {@code gamma} learned (ones).
 *
 * <pre>{@code
 * Model m = Model.input("tokens", Shape.of(-1, 16, 64)).apply(RmsNorm.of());
 * }</pre>
 *
 * @param axes             how many trailing axes to normalize over (≥ 1)
 * @param epsilon          added to the mean square (default 1e-6)
 * @param scale            whether to multiply by {@code gamma} (default true)
 * @param gammaInitializer default ones
 */
public record RmsNorm(int axes, double epsilon, boolean scale, Initializer gammaInitializer) implements Layer {
    public RmsNorm {
        if (axes < 1) throw new JBurnException("rms_norm", "axes (the number of trailing axes) must be positive, got " + axes);
        Norms.checkEpsilon("rms_norm", epsilon);
        if (gammaInitializer == null) throw new JBurnException("rms_norm", "the initializer must not be null");
    }

    /** Over the last axis, epsilon 1e-6, gamma. */
    public static RmsNorm of() { return new RmsNorm(1, 1e-6, true, Initializers.ones()); }

    public RmsNorm withAxes(int n) { return new RmsNorm(n, epsilon, scale, gammaInitializer); }

    public RmsNorm withEpsilon(double e) { return new RmsNorm(axes, e, scale, gammaInitializer); }

    public RmsNorm withScale(boolean s) { return new RmsNorm(axes, epsilon, s, gammaInitializer); }

    public RmsNorm withGammaInitializer(Initializer i) { return new RmsNorm(axes, epsilon, scale, i); }

    @Override public String kind() { return "rms_norm"; }

    /** Statistics in 16-bit floats lose too much: a mixed-precision call runs this layer in its declared type. */
    @Override public boolean keepsFullPrecision() { return true; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Norms.floatInput(in, axes + 1, "[batch, ..., " + axes + " normalized axes]");
        for (int i = x.rank() - axes; i < x.rank(); i++) {
            if (x.dim(i) == Shape.OPEN) throw in.error("needs the normalized axes known, got input of shape " + x.shape());
        }
        return x;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        if (!scale) return List.of();
        int[] d = in.shape().dims();
        return List.of(new ParamSpec("gamma", Shape.of(Arrays.copyOfRange(d, d.length - axes, d.length)), in.floatType(), gammaInitializer));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        Tensor y = x.multiply(x.multiply(x).mean(Norms.from(x.rank() - axes, x.rank()), true).add(epsilon).rsqrt());
        return scale ? y.multiply(call.param("gamma")) : y;
    }
}
