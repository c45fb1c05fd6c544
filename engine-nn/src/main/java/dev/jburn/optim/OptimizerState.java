package dev.jburn.optim;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An optimizer's state as a named, ordered map of tensors: moments per parameter
 * ({@code "mu/dense_0.kernel"}), the step count ({@code "count"}) and hyperparameters as scalars
 * ({@code "learning_rate"}). Hyperparameters are tensors, not Java constants, so that a schedule
 * or a plateau callback changes them without recompiling a compiled step. Immutable.
 *
 * @param tensors the state, by name
 */
public record OptimizerState(Map<String, Tensor> tensors) {
    public OptimizerState {
        if (tensors == null) throw new JBurnException("optimizer", "the state map must not be null");
        tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
    }

    /** A tensor by name. */
    public Tensor get(String name) {
        Tensor t = tensors.get(name);
        if (t == null) throw new JBurnException("optimizer", "no state named '" + name + "'; names: " + tensors.keySet());
        return t;
    }

    /** The learning rate now ({@code "learning_rate"}, or the first {@code ".../learning_rate"} of a chain). */
    public double learningRate() {
        for (var e : tensors.entrySet()) {
            if (e.getKey().equals("learning_rate") || e.getKey().endsWith("/learning_rate")) return e.getValue().toDoubleArray()[0];
        }
        throw new JBurnException("optimizer", "this optimizer has no learning rate; names: " + tensors.keySet());
    }

    /** This state with every learning rate set to {@code lr} (what a schedule or plateau callback does). */
    public OptimizerState withLearningRate(double lr) {
        if (!(lr >= 0) || Double.isInfinite(lr)) throw new JBurnException("optimizer", "the learning rate must be finite and >= 0, got " + lr);
        Map<String, Tensor> m = new LinkedHashMap<>(tensors);
        boolean found = false;
        for (var e : tensors.entrySet()) {
            if (e.getKey().equals("learning_rate") || e.getKey().endsWith("/learning_rate")) {
                m.put(e.getKey(), Tensor.full(dev.jburn.Shape.scalar(), e.getValue().dtype(), lr, e.getValue().engine()));
                found = true;
            }
        }
        if (!found) throw new JBurnException("optimizer", "this optimizer has no learning rate; names: " + tensors.keySet());
        return new OptimizerState(m);
    }
}
