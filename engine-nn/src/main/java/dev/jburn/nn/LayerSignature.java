package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;

import java.util.List;

/**
 * What a layer learns about its inputs when a model is built: its own name and kind (for error
 * messages) and the specs of its inputs. Passed to {@link Layer#output}, {@link Layer#parameters}
 * and {@link Layer#state}.
 *
 * @param name   the layer's name in the model, e.g. {@code "dense_0"}
 * @param kind   the layer's kind, e.g. {@code "dense"}
 * @param inputs the specs of its inputs, in order
 */
public record LayerSignature(String name, String kind, List<TensorSpec> inputs) {
    public LayerSignature {
        inputs = List.copyOf(inputs);
    }

    /** The only input; fails when the layer has several. */
    public TensorSpec input() {
        if (inputs.size() != 1) throw error("expects one input, got " + inputs.size());
        return inputs.getFirst();
    }

    /** The only input's shape. */
    public Shape shape() { return input().shape(); }

    /** The float type parameters take: the input's, when it is a float type, else f32. */
    public DType floatType() {
        DType t = inputs.isEmpty() ? DType.F32 : inputs.getFirst().dtype();
        return t.isFloat() ? t : DType.F32;
    }

    /** Fails unless the only input has a rank in {@code [min, max]}. */
    public TensorSpec requireRank(int min, int max, String what) {
        TensorSpec in = input();
        if (in.rank() < min || in.rank() > max) {
            String want = min == max ? "rank " + min : "rank " + min + " to " + max;
            throw error("expects " + want + " (" + what + "), got input of shape " + in.shape());
        }
        return in;
    }

    /** Fails unless the only input has a float type. */
    public TensorSpec requireFloat() {
        TensorSpec in = input();
        if (!in.dtype().isFloat()) throw error("expects a float input, got " + in);
        return in;
    }

    /** A {@link JBurnException} naming this layer ({@code "dense_0 (dense)"}) with {@code reason}. */
    public JBurnException error(String reason) {
        return new JBurnException(name + " (" + kind + ")", reason);
    }
}
