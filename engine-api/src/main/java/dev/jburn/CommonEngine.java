package dev.jburn;

import java.util.Arrays;
import java.util.List;

/**
 * The operands of a multi-tensor op on one engine. Concrete tensors on two different engines are
 * refused (move one with {@code to(engine)}). While a function is traced, a tensor captured from
 * outside it (concrete) meets traced ones: the tracing engine wins and the concrete tensor is
 * moved onto it with {@code to}, which makes it a constant of the graph.
 *
 * <p>The returned tensors are the given ones or such lifted copies, which hold no memory; callers
 * must not close them.
 */
final class CommonEngine {
    private CommonEngine() {}

    /** {@code ts} on one engine, in order. */
    static Tensor[] of(String op, Tensor... ts) {
        Engine target = target(op, Arrays.asList(ts));
        Tensor[] out = ts.clone();
        for (int i = 0; i < out.length; i++) if (out[i].engine() != target) out[i] = out[i].to(target);
        return out;
    }

    /** {@code ts} on one engine, in order. */
    static List<Tensor> of(String op, List<Tensor> ts) {
        Engine target = target(op, ts);
        return ts.stream().map(t -> t.engine() == target ? t : t.to(target)).toList();
    }

    private static Engine target(String op, List<Tensor> ts) {
        Tensor first = ts.getFirst();
        Tensor traced = null;
        for (Tensor t : ts) {
            if (!t.engine().isTracing()) continue;
            if (traced != null && traced.engine() != t.engine()) {
                throw new JBurnException(op, "operands come from two different traces (" + traced.dtype().shortName() + traced.shape()
                        + " and " + t.dtype().shortName() + t.shape() + "); a traced tensor escaped the compiled function that made it");
            }
            traced = t;
        }
        if (traced != null) return traced.engine();
        for (Tensor t : ts) {
            if (t.engine() != first.engine()) {
                throw new JBurnException(op, "operands live on different engines: " + describe(first.engine()) + " ("
                        + first.dtype().shortName() + first.shape() + ") and " + describe(t.engine()) + " ("
                        + t.dtype().shortName() + t.shape() + "); move one with to(engine)");
            }
        }
        return first.engine();
    }

    private static String describe(Engine e) {
        return "'" + e.label() + "'@" + Integer.toHexString(System.identityHashCode(e));
    }
}
