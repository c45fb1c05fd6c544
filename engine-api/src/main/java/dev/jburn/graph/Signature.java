package dev.jburn.graph;

import dev.jburn.Engine;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a compiled function is specialized on: the engine its inputs live on and their types.
 *
 * @param engine the inputs' engine (compared by identity)
 * @param inputs input types, in order
 */
public record Signature(Engine engine, List<TensorType> inputs) {
    public Signature {
        inputs = List.copyOf(inputs);
    }

    /** Why {@code next} needed a new trace after {@code previous} ({@code null}: the first call). */
    static String change(Signature previous, Signature next) {
        if (previous == null) return "first call, for " + next;
        List<String> why = new ArrayList<>();
        if (previous.engine != next.engine) why.add("engine changed from " + previous.engine.label() + " to " + next.engine.label());
        if (previous.inputs.size() != next.inputs.size()) {
            why.add("number of inputs changed from " + previous.inputs.size() + " to " + next.inputs.size());
        } else {
            for (int i = 0; i < next.inputs.size(); i++) {
                TensorType a = previous.inputs.get(i), b = next.inputs.get(i);
                if (a.dtype() != b.dtype()) why.add("input " + i + " dtype changed from " + a.dtype().shortName() + " to " + b.dtype().shortName());
                if (!a.shape().equals(b.shape())) why.add("input " + i + " shape changed from " + a.shape() + " to " + b.shape());
            }
        }
        return why.isEmpty() ? null : String.join("; ", why);
    }

    /** {@code cpu(f32[32,784], s32[32])}. */
    @Override
    public String toString() {
        return engine.label() + "(" + inputs.stream().map(TensorType::toString).collect(Collectors.joining(", ")) + ")";
    }
}
