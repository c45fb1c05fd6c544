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
 * Batch normalization (Ioffe and Szegedy) over one feature axis, the last by default
 * (channels-last {@code [batch, spatial..., channels]}; {@code withAxis(1)} for channels-first):
 * {@code y = (x - mean) / sqrt(var + epsilon) · gamma + beta}, with {@code gamma [C]} and
 * {@code beta [C]} ({@code C} the feature axis' size) and the statistics taken per feature.
 *
 * <ul>
 * <li><b>Training mode</b> uses the batch's statistics: the mean and the <em>biased</em> variance
 *     (divided by {@code n}) over every axis but the feature axis, and updates the state
 *     {@code mean [C]} and {@code var [C]} with
 *     {@code running = momentum · running + (1 - momentum) · batch}, the batch variance biased
 *     as well (Keras). PyTorch's {@code momentum} is the weight of the batch value: its
 *     {@code momentum_pt = 1 - momentum} (Keras's 0.99 is PyTorch's 0.01; PyTorch's default 0.1 is
 *     {@code withMomentum(0.9)} here), and PyTorch stores the <em>unbiased</em> batch variance
 *     ({@code n / (n - 1)} times this one) in its running variance.</li>
 * <li><b>Inference</b> uses the running statistics, {@code mean} (initially zeros) and {@code var}
 *     (initially ones).</li>
 * </ul>
 *
 * Defaults are Keras's: {@code momentum 0.99}, {@code epsilon 1e-3} (PyTorch uses 1e-5),
 * {@code center} (learn {@code beta}) and {@code scale} (learn {@code gamma}) on.
 *
 * <pre>{@code
 * Model m = Model.input("image", Shape.of(-1, 28, 28, 8)).apply(BatchNorm.of().withMomentum(0.9).withEpsilon(1e-5));
 * }</pre>
 *
 * @param axis             the feature axis (default -1; negative counts from the end; not the batch axis 0)
 * @param momentum         weight of the running value in the update, in {@code [0, 1]} (default 0.99)
 * @param epsilon          added to the variance (default 1e-3)
 * @param center           whether to add {@code beta} (default true)
 * @param scale            whether to multiply by {@code gamma} (default true)
 * @param gammaInitializer default ones
 * @param betaInitializer  default zeros
 * @param meanInitializer  the running mean's initial value, default zeros
 * @param varInitializer   the running variance's initial value, default ones
 */
public record BatchNorm(int axis, double momentum, double epsilon, boolean center, boolean scale,
                        Initializer gammaInitializer, Initializer betaInitializer,
                        Initializer meanInitializer, Initializer varInitializer) implements Layer {
    public BatchNorm {
        if (!(momentum >= 0 && momentum <= 1)) throw new JBurnException("batch_norm", "momentum must be in [0, 1], got " + momentum);
        Norms.checkEpsilon("batch_norm", epsilon);
        if (gammaInitializer == null || betaInitializer == null || meanInitializer == null || varInitializer == null) {
            throw new JBurnException("batch_norm", "initializers must not be null");
        }
    }

    /** Keras's defaults: last axis, momentum 0.99, epsilon 1e-3, gamma and beta. */
    public static BatchNorm of() {
        return new BatchNorm(-1, 0.99, 1e-3, true, true, Initializers.ones(), Initializers.zeros(), Initializers.zeros(), Initializers.ones());
    }

    public BatchNorm withAxis(int a) { return new BatchNorm(a, momentum, epsilon, center, scale, gammaInitializer, betaInitializer, meanInitializer, varInitializer); }

    public BatchNorm withMomentum(double m) { return new BatchNorm(axis, m, epsilon, center, scale, gammaInitializer, betaInitializer, meanInitializer, varInitializer); }

    public BatchNorm withEpsilon(double e) { return new BatchNorm(axis, momentum, e, center, scale, gammaInitializer, betaInitializer, meanInitializer, varInitializer); }

    public BatchNorm withCenter(boolean c) { return new BatchNorm(axis, momentum, epsilon, c, scale, gammaInitializer, betaInitializer, meanInitializer, varInitializer); }

    public BatchNorm withScale(boolean s) { return new BatchNorm(axis, momentum, epsilon, center, s, gammaInitializer, betaInitializer, meanInitializer, varInitializer); }

    public BatchNorm withGammaInitializer(Initializer i) { return new BatchNorm(axis, momentum, epsilon, center, scale, i, betaInitializer, meanInitializer, varInitializer); }

    public BatchNorm withBetaInitializer(Initializer i) { return new BatchNorm(axis, momentum, epsilon, center, scale, gammaInitializer, i, meanInitializer, varInitializer); }

    public BatchNorm withMeanInitializer(Initializer i) { return new BatchNorm(axis, momentum, epsilon, center, scale, gammaInitializer, betaInitializer, i, varInitializer); }

    public BatchNorm withVarInitializer(Initializer i) { return new BatchNorm(axis, momentum, epsilon, center, scale, gammaInitializer, betaInitializer, meanInitializer, i); }

    @Override public String kind() { return "batch_norm"; }

    /** Statistics in 16-bit floats lose too much: a mixed-precision call runs this layer in its declared type. */
    @Override public boolean keepsFullPrecision() { return true; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Norms.floatInput(in, 2, "[batch, ..., features]");
        Norms.featureAxis(in, x, axis);
        return x;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        Shape c = features(in);
        List<ParamSpec> p = new ArrayList<>();
        if (scale) p.add(new ParamSpec("gamma", c, in.floatType(), gammaInitializer));
        if (center) p.add(new ParamSpec("beta", c, in.floatType(), betaInitializer));
        return p;
    }

    @Override public List<ParamSpec> state(LayerSignature in) {
        Shape c = features(in);
        return List.of(new ParamSpec("mean", c, in.floatType(), meanInitializer), new ParamSpec("var", c, in.floatType(), varInitializer));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int r = x.rank(), a = axis < 0 ? axis + r : axis;
        Tensor mean, var;
        if (call.training()) {
            Tensor[] m = Norms.moments(x, Norms.allBut(r, a));
            mean = m[0];
            var = m[1];
            Shape c = Shape.of(x.shape().dim(a));
            call.update("mean", call.state("mean").multiply(momentum).add(mean.reshape(c).multiply(1 - momentum)));
            call.update("var", call.state("var").multiply(momentum).add(var.reshape(c).multiply(1 - momentum)));
        } else {
            mean = Norms.along(call.state("mean"), r, a);
            var = Norms.along(call.state("var"), r, a);
        }
        Tensor gamma = scale ? Norms.along(call.param("gamma"), r, a) : null;
        Tensor beta = center ? Norms.along(call.param("beta"), r, a) : null;
        if (call.training()) return BatchNormTraining.apply(x, mean, var, gamma, beta, Norms.allBut(r, a), epsilon);
        Tensor y = Norms.standardize(x, mean, var, epsilon);
        if (scale) y = y.multiply(gamma);
        if (center) y = y.add(beta);
        return y;
    }

    private Shape features(LayerSignature in) {
        TensorSpec x = in.input();
        return Shape.of(x.dim(Norms.featureAxis(in, x, axis)));
    }
}
