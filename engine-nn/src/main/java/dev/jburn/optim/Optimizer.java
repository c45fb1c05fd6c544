package dev.jburn.optim;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pure gradient transformation (Optax's shape): {@link #init} makes its state for a set of
 * parameters, {@link #update} turns gradients into updates and the next state. Both are built from
 * tensor ops, so a training step that calls them traces into one {@code Jit} graph. Parameters
 * move by {@code params + updates} ({@link Update#applyTo}).
 *
 * <pre>{@code
 * Optimizer opt = Optimizers.adam(1e-3);
 * OptimizerState s = opt.init(params);
 * Update u = opt.update(grads, s, params);
 * params = u.applyTo(params);
 * s = u.state();
 * }</pre>
 */
public interface Optimizer {
    /** The state for {@code params} (moments of zeros, a step count of 0, hyperparameters). */
    OptimizerState init(Map<String, Tensor> params);

    /** The updates for {@code grads} (same names as the parameters) and the next state. */
    Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params);

    /**
     * The updates and the next state of one {@link Optimizer#update}.
     *
     * @param updates what to add to each parameter, by name
     * @param state   the next optimizer state
     */
    record Update(Map<String, Tensor> updates, OptimizerState state) {
        public Update {
            updates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(updates));
        }

        /** {@code params + updates}, for the parameters that have an update; the others unchanged. */
        public Map<String, Tensor> applyTo(Map<String, Tensor> params) {
            Map<String, Tensor> out = new LinkedHashMap<>(params);
            updates.forEach((k, u) -> {
                Tensor p = params.get(k);
                if (p == null) throw new JBurnException("optimizer", "an update for '" + k + "', which is not a parameter");
                out.put(k, p.add(u).asType(p.dtype()));
            });
            return out;
        }
    }

    /**
     * Transformations applied in order, each to the previous one's updates (Optax's {@code chain}):
     * {@code Optimizer.chain(Optimizers.clipByGlobalNorm(1.0), Optimizers.adam(1e-3))}. Each part's state
     * is kept under {@code "i/"}.
     */
    static Optimizer chain(Optimizer... parts) {
        if (parts == null || parts.length == 0) throw new JBurnException("chain", "needs at least one optimizer");
        List<Optimizer> ps = List.of(parts);
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) {
                Map<String, Tensor> m = new LinkedHashMap<>();
                for (int i = 0; i < ps.size(); i++) {
                    String pre = i + "/";
                    ps.get(i).init(params).tensors().forEach((k, v) -> m.put(pre + k, v));
                }
                return new OptimizerState(m);
            }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Map<String, Tensor> u = grads, next = new LinkedHashMap<>();
                for (int i = 0; i < ps.size(); i++) {
                    String pre = i + "/";
                    Map<String, Tensor> own = new LinkedHashMap<>();
                    state.tensors().forEach((k, v) -> { if (k.startsWith(pre)) own.put(k.substring(pre.length()), v); });
                    Update r = ps.get(i).update(u, new OptimizerState(own), params);
                    u = r.updates();
                    r.state().tensors().forEach((k, v) -> next.put(pre + k, v));
                }
                return new Update(u, new OptimizerState(next));
            }

            @Override public Schedule schedule() {
                for (Optimizer o : ps) if (o.schedule() != null) return o.schedule();
                return null;
            }

            @Override public String toString() { return "chain" + ps; }
        };
    }

    /**
     * The learning-rate schedule, or null for a constant rate. A training loop sets the state's
     * {@code "learning_rate"} to {@code schedule().at(step)} before each step
     * ({@link OptimizerState#withLearningRate}); {@code Trainer} does.
     */
    default Schedule schedule() { return null; }

    /** {@code chain(this, next)}. */
    default Optimizer then(Optimizer next) { return chain(this, next); }

    /** Names of {@code m} in order, for building per-parameter state. */
    static List<String> names(Map<String, Tensor> m) { return new ArrayList<>(m.keySet()); }
}
