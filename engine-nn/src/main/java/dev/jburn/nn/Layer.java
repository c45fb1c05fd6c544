package dev.jburn.nn;

import dev.jburn.Tensor;

import java.util.List;

/**
 * One node kind of a {@link Model}: a shape rule, the parameters and state it owns, and its
 * computation. Layers are immutable option records ({@code dev.jburn.nn.layers}); a model
 * names each instance ({@code dense_0}) and owns its tensors in a {@link ModelState}.
 * Implement it for a custom layer and add it with {@link Model#apply(Layer)}:
 *
 * <pre>{@code
 * record Scale() implements Layer {
 *     public String kind() { return "scale"; }
 *     public TensorSpec output(LayerSignature in) { return in.requireFloat(); }
 *     public List<ParamSpec> parameters(LayerSignature in) {
 *         return List.of(new ParamSpec("gamma", Shape.of(in.shape().dim(-1)), in.floatType(), Initializers.ones()));
 *     }
 *     public Tensor apply(LayerCall call) { return call.input().multiply(call.param("gamma")); }
 * }
 * Model m = Model.input("x", Shape.of(-1, 8)).apply(new Scale());
 * }</pre>
 *
 * {@link #apply} must be a pure function of its inputs, parameters, state and key built from
 * tensor ops, so that models run eagerly, under {@code Jit} and under {@code Autodiff}.
 */
public interface Layer {
    /** The kind, in snake case ({@code "dense"}, {@code "batch_norm"}); names default to {@code kind_i}. */
    String kind();

    /**
     * The output's spec for these inputs. Validates: a wrong rank, feature size or dtype throws
     * {@link LayerSignature#error} naming the layer and the shapes.
     */
    TensorSpec output(LayerSignature in);

    /** The trainable parameters this layer owns for these inputs (default none). */
    default List<ParamSpec> parameters(LayerSignature in) { return List.of(); }

    /** The non-trainable state this layer owns (batch-norm statistics; default none). */
    default List<ParamSpec> state(LayerSignature in) { return List.of(); }

    /** Whether the layer draws random numbers in training mode ({@link LayerCall#key()}). */
    default boolean usesKey() { return false; }

    /**
     * Whether the layer keeps its declared float type under a mixed-precision call (see
     * {@link Model#call(java.util.Map, java.util.Map, java.util.List, boolean, Tensor, dev.jburn.DType)}):
     * its inputs and parameters stay in the type they were declared with, and only its output goes on in
     * the compute type. True for the normalization layers, whose mean and variance lose too much in
     * 16-bit floats (Keras does the same); default false.
     */
    default boolean keepsFullPrecision() { return false; }

    /** The computation. */
    Tensor apply(LayerCall call);
}
