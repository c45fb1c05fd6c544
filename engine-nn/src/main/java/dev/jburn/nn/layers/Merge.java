package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

/**
 * Element-wise combination of inputs of one shape: {@code add} and {@code multiply} take two or
 * more, {@code subtract} exactly two (first minus second). For residual connections and gates.
 *
 * @param op the combination
 */
public record Merge(Op op) implements Layer {
    /** The combinations. */
    public enum Op { ADD, SUBTRACT, MULTIPLY }

    public Merge {
        if (op == null) throw new JBurnException("merge", "the op must not be null");
    }

    @Override public String kind() { return op.name().toLowerCase(java.util.Locale.ROOT); }

    @Override public TensorSpec output(LayerSignature in) {
        var ins = in.inputs();
        if (op == Op.SUBTRACT ? ins.size() != 2 : ins.size() < 2) {
            throw in.error((op == Op.SUBTRACT ? "takes exactly two inputs" : "takes two or more inputs") + ", got " + ins.size());
        }
        TensorSpec first = ins.getFirst();
        for (TensorSpec s : ins) {
            if (!s.shape().equals(first.shape()) || s.dtype() != first.dtype()) {
                throw in.error("needs inputs of one shape and dtype, got " + ins);
            }
        }
        return first;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor y = call.input(0);
        for (int i = 1; i < call.inputs().size(); i++) {
            Tensor x = call.input(i);
            y = switch (op) {
                case ADD -> y.add(x);
                case SUBTRACT -> y.subtract(x);
                case MULTIPLY -> y.multiply(x);
            };
        }
        return y;
    }
}
