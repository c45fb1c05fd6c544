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

import java.util.List;

/**
 * Instance normalization (Ulyanov et al.): each channel of each sample is standardized over the
 * spatial axes, {@code y = (x - mean) / sqrt(var + epsilon)} (mean and biased variance per
 * {@code (sample, channel)}), then, when {@code affine}, {@code · gamma + beta} per channel
 * ({@code gamma [C]}, {@code beta [C]}). Channels-last {@code [batch, spatial..., C]} by default;
 * {@code withAxis(1)} for channels-first. Batch statistics in training and inference alike
 * (PyTorch's {@code track_running_stats=False}); no state.
 *
 * <p>Defaults: {@code epsilon 1e-5}, affine on (Flax and Axon; PyTorch's {@code InstanceNorm2d}
 * defaults to {@code affine=False}, here {@code withAffine(false)}).
 *
 * <pre>{@code
 * Model m = Model.input("image", Shape.of(-1, 32, 32, 3)).apply(InstanceNorm.of().withAffine(false));
 * }</pre>
 *
 * @param axis             the channel axis (default -1; not the batch axis 0)
 * @param epsilon          added to the variance (default 1e-5)
 * @param affine           whether to learn {@code gamma} and {@code beta} (default true)
 * @param gammaInitializer default ones
 * @param betaInitializer  default zeros
 */
public record InstanceNorm(int axis, double epsilon, boolean affine, Initializer gammaInitializer, Initializer betaInitializer) implements Layer {
    public InstanceNorm {
        Norms.checkEpsilon("instance_norm", epsilon);
        if (gammaInitializer == null || betaInitializer == null) throw new JBurnException("instance_norm", "initializers must not be null");
    }

    /** Last-axis channels, epsilon 1e-5, gamma and beta. */
    public static InstanceNorm of() { return new InstanceNorm(-1, 1e-5, true, Initializers.ones(), Initializers.zeros()); }

    public InstanceNorm withAxis(int a) { return new InstanceNorm(a, epsilon, affine, gammaInitializer, betaInitializer); }

    public InstanceNorm withEpsilon(double e) { return new InstanceNorm(axis, e, affine, gammaInitializer, betaInitializer); }

    public InstanceNorm withAffine(boolean on) { return new InstanceNorm(axis, epsilon, on, gammaInitializer, betaInitializer); }

    public InstanceNorm withGammaInitializer(Initializer i) { return new InstanceNorm(axis, epsilon, affine, i, betaInitializer); }

    public InstanceNorm withBetaInitializer(Initializer i) { return new InstanceNorm(axis, epsilon, affine, gammaInitializer, i); }

    @Override public String kind() { return "instance_norm"; }

    /** Statistics in 16-bit floats lose too much: a mixed-precision call runs this layer in its declared type. */
    @Override public boolean keepsFullPrecision() { return true; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Norms.floatInput(in, 3, "[batch, spatial..., channels]");
        Norms.featureAxis(in, x, axis);
        return x;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        if (!affine) return List.of();
        TensorSpec x = in.input();
        Shape c = Shape.of(x.dim(Norms.featureAxis(in, x, axis)));
        return List.of(new ParamSpec("gamma", c, in.floatType(), gammaInitializer), new ParamSpec("beta", c, in.floatType(), betaInitializer));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int r = x.rank(), a = axis < 0 ? axis + r : axis;
        Tensor[] m = Norms.moments(x, Norms.allBut(r, 0, a));
        Tensor y = Norms.standardize(x, m[0], m[1], epsilon);
        if (affine) y = y.multiply(Norms.along(call.param("gamma"), r, a)).add(Norms.along(call.param("beta"), r, a));
        return y;
    }
}
