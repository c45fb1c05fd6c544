package dev.jburn.train;

import dev.jburn.Engine;
import dev.jburn.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A metric as a mergeable state of sums: {@link #init} makes zeros, {@link #update} adds a batch
 * (tensor ops, so it runs inside a compiled step), {@link #result} reads the value on the host
 * only when it is logged, and {@link #merge} adds two states (what data-parallel training needs).
 * Sums are f32; a state covers one epoch.
 *
 * <pre>{@code
 * Metric acc = Metrics.accuracy();
 * Map<String, Tensor> s = acc.init(Engine.defaultEngine());
 * s = acc.update(s, logits, labels, null);
 * double a = acc.result(s);
 * }</pre>
 */
public interface Metric {
    /** The name in logs and histories ({@code "accuracy"}); validation values get a {@code "val_"} prefix. */
    String name();

    /** The zero state on {@code engine}. */
    Map<String, Tensor> init(Engine engine);

    /** The state after one more batch; {@code weights} ({@code [batch]}, 0 for padding rows) may be null. */
    Map<String, Tensor> update(Map<String, Tensor> state, Tensor predictions, Tensor targets, Tensor weights);

    /** The value of a state. */
    double result(Map<String, Tensor> state);

    /** Two states combined: element-wise sums. */
    default Map<String, Tensor> merge(Map<String, Tensor> a, Map<String, Tensor> b) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        a.forEach((k, v) -> m.put(k, v.add(b.get(k))));
        return m;
    }
}
