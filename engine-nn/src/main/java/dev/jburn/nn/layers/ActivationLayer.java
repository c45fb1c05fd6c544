package dev.jburn.nn.layers;

import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

/**
 * An {@link Activation} as a layer of its own; its kind is the activation's name ({@code "relu"},
 * {@code "leaky_relu"}), as in Axon.
 *
 * @param activation the function
 */
public record ActivationLayer(Activation activation) implements Layer {
    public ActivationLayer {
        if (activation == null) throw new dev.jburn.JBurnException("activation", "the activation must not be null");
    }

    @Override public String kind() { return activation.kind().snake(); }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.requireFloat();
        if ((activation.kind() == Activation.Kind.SOFTMAX || activation.kind() == Activation.Kind.LOG_SOFTMAX) && x.rank() == 0) {
            throw in.error("needs an input of rank >= 1, got a scalar");
        }
        return x;
    }

    @Override public Tensor apply(LayerCall call) { return activation.apply(call.input()); }
}
