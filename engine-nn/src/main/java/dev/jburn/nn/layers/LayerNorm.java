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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Layer normalization (Ba et al.): each sample is standardized over its last {@code axes} axes,
 * {@code y = (x - mean) / sqrt(var + epsilon) · gamma + beta}, with the mean and the biased
 * variance taken over those axes and {@code gamma}, {@code beta} of their shape (PyTorch's
 * {@code normalized_shape}; Keras {@code LayerNormalization(axis=[-k..-1])}). The same in
 * training and inference; no state.
 *
 * <p>Defaults: the last axis only, {@code epsilon 1e-5} (PyTorch; Keras uses 1e-3), gamma
 * (ones) and beta (zeros) learned.
 *
 * <pre>{@code
 * Model m = Model.input("tokens", Shape.of(-1, 16, 64)).apply(LayerNorm.of());           // over the 64 features
 * Model n = Model.input("maps", Shape.of(-1, 8, 8, 4)).apply(LayerNorm.of().withAxes(3)); // over [8, 8, 4]
 * }</pre>
 *
 * @param axes             how many trailing axes to normalize over (≥ 1; the batch axis is never one)
 * @param epsilon          added to the variance (default 1e-5)
 * @param center           whether to add {@code beta} (default true)
 * @param scale            whether to multiply by {@code gamma} (default true)
 * @param gammaInitializer default ones
 * @param betaInitializer  default zeros
 */
public record LayerNorm(int axes, double epsilon, boolean center, boolean scale,
                        Initializer gammaInitializer, Initializer betaInitializer) implements Layer {
    public LayerNorm {
        if (axes < 1) throw new JBurnException("layer_norm", "axes (the number of trailing axes) must be positive, got " + axes);
        Norms.checkEpsilon("layer_norm", epsilon);
        if (gammaInitializer == null || betaInitializer == null) throw new JBurnException("layer_norm", "initializers must not be null");
    }

    /** Over the last axis, epsilon 1e-5, gamma and beta. */
    public static LayerNorm of() { return new LayerNorm(1, 1e-5, true, true, Initializers.ones(), Initializers.zeros()); }

    public LayerNorm withAxes(int n) { return new LayerNorm(n, epsilon, center, scale, gammaInitializer, betaInitializer); }

    public LayerNorm withEpsilon(double e) { return new LayerNorm(axes, e, center, scale, gammaInitializer, betaInitializer); }

    public LayerNorm withCenter(boolean c) { return new LayerNorm(axes, epsilon, c, scale, gammaInitializer, betaInitializer); }

    public LayerNorm withScale(boolean s) { return new LayerNorm(axes, epsilon, center, s, gammaInitializer, betaInitializer); }

    public LayerNorm withGammaInitializer(Initializer i) { return new LayerNorm(axes, epsilon, center, scale, i, betaInitializer); }

    public LayerNorm withBetaInitializer(Initializer i) { return new LayerNorm(axes, epsilon, center, scale, gammaInitializer, i); }

    @Override public String kind() { return "layer_norm"; }

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
        int[] d = in.shape().dims();
        Shape s = Shape.of(Arrays.copyOfRange(d, d.length - axes, d.length));
        List<ParamSpec> p = new ArrayList<>();
        if (scale) p.add(new ParamSpec("gamma", s, in.floatType(), gammaInitializer));
        if (center) p.add(new ParamSpec("beta", s, in.floatType(), betaInitializer));
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        Tensor[] m = Norms.moments(x, Norms.from(x.rank() - axes, x.rank()));
        Tensor y = Norms.standardize(x, m[0], m[1], epsilon);
        if (scale) y = y.multiply(call.param("gamma"));
        if (center) y = y.add(call.param("beta"));
        return y;
    }
}
