package dev.jburn.nn;

import dev.jburn.Tensor;

import java.util.List;
import java.util.Map;

/**
 * The result of running a model in training mode: its outputs and its updated non-trainable
 * state (batch-norm statistics), by full name. Inference leaves state unchanged.
 *
 * @param outputs the model's outputs, in {@link Model#outputs} order
 * @param state   every piece of non-trainable state, updated where a layer updated it
 */
public record Forward(List<Tensor> outputs, Map<String, Tensor> state) {
    public Forward {
        outputs = List.copyOf(outputs);
        state = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(state));
    }

    /** The first (for most models, the only) output. */
    public Tensor output() { return outputs.getFirst(); }
}
