package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
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
 * A fully connected layer on the last axis: {@code y = activation(x · kernel + bias)}, with
 * {@code kernel [in, units]} and {@code bias [units]} (Keras/Flax layout; PyTorch's
 * {@code Linear.weight} is its transpose). Any rank ≥ 1: leading axes are kept.
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 784)).apply(Dense.of(256).withActivation(Activation.RELU));
 * }</pre>
 *
 * @param units             output features (≥ 1)
 * @param useBias           whether to add {@code bias} (default true)
 * @param activation        applied to the result (default linear)
 * @param kernelInitializer default Glorot uniform
 * @param biasInitializer   default zeros
 */
public record Dense(int units, boolean useBias, Activation activation, Initializer kernelInitializer,
                    Initializer biasInitializer) implements Layer {
    public Dense {
        if (units < 1) throw new JBurnException("dense", "units must be positive, got " + units);
        if (activation == null || kernelInitializer == null || biasInitializer == null) {
            throw new JBurnException("dense", "activation and initializers must not be null");
        }
    }

    /** {@code units} outputs with bias, linear, Glorot-uniform kernel, zero bias. */
    public static Dense of(int units) {
        return new Dense(units, true, Activation.LINEAR, Initializers.glorotUniform(), Initializers.zeros());
    }

    public Dense withActivation(Activation a) { return new Dense(units, useBias, a, kernelInitializer, biasInitializer); }

    public Dense withoutBias() { return new Dense(units, false, activation, kernelInitializer, biasInitializer); }

    public Dense withKernelInitializer(Initializer i) { return new Dense(units, useBias, activation, i, biasInitializer); }

    public Dense withBiasInitializer(Initializer i) { return new Dense(units, useBias, activation, kernelInitializer, i); }

    @Override public String kind() { return "dense"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.requireRank(1, Integer.MAX_VALUE, "[..., features]");
        in.requireFloat();
        if (x.dim(-1) == Shape.OPEN) throw in.error("needs a known feature size (last axis), got input of shape " + x.shape());
        return x.withShape(Layers.withLast(x.shape(), units));
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        List<ParamSpec> p = new ArrayList<>();
        p.add(new ParamSpec("kernel", Shape.of(in.shape().dim(-1), units), in.floatType(), kernelInitializer));
        if (useBias) p.add(new ParamSpec("bias", Shape.of(units), in.floatType(), biasInitializer));
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor y = call.input().dot(call.param("kernel"));
        if (useBias) y = y.add(call.param("bias"));
        return activation.apply(y);
    }
}
