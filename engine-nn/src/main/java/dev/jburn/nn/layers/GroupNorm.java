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
import java.util.List;

/**
 * Group normalization (Wu and He): the {@code C} channels of the feature axis (the last,
 * channels-last {@code [batch, spatial..., C]}; {@code withAxis(1)} for channels-first) are split
 * into {@code groups} consecutive groups of {@code C / groups}; each sample is standardized per
 * group over the group's channels and every spatial axis (mean and biased variance), then
 * {@code · gamma + beta} per channel ({@code gamma [C]}, {@code beta [C]}). {@code groups = 1}
 * is layer norm over all non-batch axes with per-channel affine; {@code groups = C} is instance
 * norm. The same in training and inference; no state.
 *
 * <p>Defaults: {@code epsilon 1e-5} (PyTorch; Keras uses 1e-3), gamma (ones) and beta (zeros) learned.
 *
 * <pre>{@code
 * Model m = Model.input("image", Shape.of(-1, 16, 16, 32)).apply(GroupNorm.of(8));
 * }</pre>
 *
 * @param groups           number of groups (≥ 1, dividing {@code C})
 * @param axis             the channel axis (default -1; not the batch axis 0)
 * @param epsilon          added to the variance (default 1e-5)
 * @param center           whether to add {@code beta} (default true)
 * @param scale            whether to multiply by {@code gamma} (default true)
 * @param gammaInitializer default ones
 * @param betaInitializer  default zeros
 */
public record GroupNorm(int groups, int axis, double epsilon, boolean center, boolean scale,
                        Initializer gammaInitializer, Initializer betaInitializer) implements Layer {
    public GroupNorm {
        if (groups < 1) throw new JBurnException("group_norm", "groups must be positive, got " + groups);
        Norms.checkEpsilon("group_norm", epsilon);
        if (gammaInitializer == null || betaInitializer == null) throw new JBurnException("group_norm", "initializers must not be null");
    }

    /** {@code groups} groups of the last axis, epsilon 1e-5, gamma and beta. */
    public static GroupNorm of(int groups) { return new GroupNorm(groups, -1, 1e-5, true, true, Initializers.ones(), Initializers.zeros()); }

    public GroupNorm withAxis(int a) { return new GroupNorm(groups, a, epsilon, center, scale, gammaInitializer, betaInitializer); }

    public GroupNorm withEpsilon(double e) { return new GroupNorm(groups, axis, e, center, scale, gammaInitializer, betaInitializer); }

    public GroupNorm withCenter(boolean c) { return new GroupNorm(groups, axis, epsilon, c, scale, gammaInitializer, betaInitializer); }

    public GroupNorm withScale(boolean s) { return new GroupNorm(groups, axis, epsilon, center, s, gammaInitializer, betaInitializer); }

    public GroupNorm withGammaInitializer(Initializer i) { return new GroupNorm(groups, axis, epsilon, center, scale, i, betaInitializer); }

    public GroupNorm withBetaInitializer(Initializer i) { return new GroupNorm(groups, axis, epsilon, center, scale, gammaInitializer, i); }

    @Override public String kind() { return "group_norm"; }

    /** Statistics in 16-bit floats lose too much: a mixed-precision call runs this layer in its declared type. */
    @Override public boolean keepsFullPrecision() { return true; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Norms.floatInput(in, 2, "[batch, ..., channels]");
        int a = Norms.featureAxis(in, x, axis);
        if (x.dim(a) % groups != 0) throw in.error(groups + " groups do not divide the " + x.dim(a) + " channels (axis " + a + ") of input of shape " + x.shape());
        return x;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        TensorSpec x = in.input();
        Shape c = Shape.of(x.dim(Norms.featureAxis(in, x, axis)));
        List<ParamSpec> p = new ArrayList<>();
        if (scale) p.add(new ParamSpec("gamma", c, in.floatType(), gammaInitializer));
        if (center) p.add(new ParamSpec("beta", c, in.floatType(), betaInitializer));
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int r = x.rank(), a = axis < 0 ? axis + r : axis;
        int[] d = x.shape().dims();
        // [..., C, ...] -> [..., G, C/G, ...]; statistics over everything but the batch and group axes
        int[] g = new int[r + 1];
        for (int i = 0; i < a; i++) g[i] = d[i];
        g[a] = groups;
        g[a + 1] = d[a] / groups;
        for (int i = a + 1; i < r; i++) g[i + 1] = d[i];
        Tensor xg = x.reshape(g);
        Tensor[] m = Norms.moments(xg, Norms.allBut(r + 1, 0, a));
        Tensor y = Norms.standardize(xg, m[0], m[1], epsilon).reshape(d);
        if (scale) y = y.multiply(Norms.along(call.param("gamma"), r, a));
        if (center) y = y.add(Norms.along(call.param("beta"), r, a));
        return y;
    }
}
