package dev.jburn.nn.layers;

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
 * Adds a learned {@code bias [features]} along the last axis.
 *
 * @param initializer default zeros
 */
public record Bias(Initializer initializer) implements Layer {
    public Bias {
        if (initializer == null) throw new dev.jburn.JBurnException("bias", "the initializer must not be null");
    }

    /** A zero-initialized bias. */
    public static Bias of() { return new Bias(Initializers.zeros()); }

    @Override public String kind() { return "bias"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.requireRank(1, Integer.MAX_VALUE, "[..., features]");
        in.requireFloat();
        if (x.dim(-1) == Shape.OPEN) throw in.error("needs a known feature size (last axis), got input of shape " + x.shape());
        return x;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        return List.of(new ParamSpec("bias", Shape.of(in.shape().dim(-1)), in.floatType(), initializer));
    }

    @Override public Tensor apply(LayerCall call) { return call.input().add(call.param("bias")); }
}
