package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.TensorScope;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code cond} and {@code whileLoop}: run directly in Java when no trace is open, recorded as
 * nodes holding sub-graphs when their operands are traced.
 */
final class ControlFlow {
    private ControlFlow() {}

    private static final String COND = "cond";
    private static final String WHILE = "whileLoop";

    // ---- cond -----------------------------------------------------------------------------------

    static List<Tensor> cond(Tensor pred, Supplier<List<Tensor>> onTrue, Supplier<List<Tensor>> onFalse) {
        requirePredScalar(COND, "predicate", pred);
        TraceContext ctx = TraceContext.current();
        if (ctx != null && pred.engine() == ctx.engine) return tracedCond(ctx, pred, onTrue, onFalse);
        // Concrete predicate (or a traced one outside its trace: reading it then fails with the trace's message).
        return branch(COND, pred.item().longValue() != 0 ? onTrue : onFalse);
    }

    private static List<Tensor> tracedCond(TraceContext ctx, Tensor pred, Supplier<List<Tensor>> onTrue, Supplier<List<Tensor>> onFalse) {
        TraceValue p = ctx.resolve(COND, pred);
        byte[] known = ctx.backend.constantValue(p);
        if (known != null) return checked(COND, (known[0] != 0 ? onTrue : onFalse).get()); // decided at trace time
        TraceContext.Level t = ctx.traceLevel(COND, List.of(), ignored -> checked(COND, onTrue.get()));
        TraceContext.Level f = ctx.traceLevel(COND, List.of(), ignored -> checked(COND, onFalse.get()));
        if (!t.outputTypes().equals(f.outputTypes())) {
            throw new JBurnException(COND, "both branches must return the same types, got " + t.outputTypes()
                    + " from the true branch and " + f.outputTypes() + " from the false branch");
        }
        List<TraceValue> captured = union(t.builder().capturedValues(), f.builder().capturedValues());
        Prim.Cond prim = new Prim.Cond(t.graph(captured), f.graph(captured));
        List<TraceValue> ins = new ArrayList<>();
        ins.add(p);
        ins.addAll(captured);
        return ctx.backend.current().record(prim, ins).stream().map(ctx::tensor).toList();
    }

    /** Runs a branch eagerly: temporaries made inside are freed; the results are new tensors the caller owns. */
    private static List<Tensor> branch(String op, Supplier<List<Tensor>> fn) {
        try (TensorScope scope = Tensor.scope()) {
            return owned(scope, checked(op, fn.get()));
        }
    }

    // ---- whileLoop ------------------------------------------------------------------------------

    static List<Tensor> whileLoop(List<Tensor> initial, Function<List<Tensor>, Tensor> cond, Function<List<Tensor>, List<Tensor>> body) {
        List<Tensor> init = checked(WHILE, initial);
        TraceContext ctx = TraceContext.current();
        if (ctx != null) return tracedWhile(ctx, init, cond, body);
        List<TensorType> types = types(init);
        List<Tensor> state = init;
        while (true) {
            List<Tensor> next;
            try (TensorScope scope = Tensor.scope()) {
                Tensor go = cond.apply(state);
                requirePredScalar(WHILE, "condition result", go);
                if (go.item().longValue() == 0) break;
                List<Tensor> out = checked(WHILE, body.apply(state));
                requireTypes(types, types(out));
                next = owned(scope, out);
            }
            if (state != init) state.forEach(Tensor::close);
            state = next;
        }
        if (state != init) return state;
        try (TensorScope scope = Tensor.scope()) {
            return owned(scope, init);
        }
    }

    private static List<Tensor> tracedWhile(TraceContext ctx, List<Tensor> initial, Function<List<Tensor>, Tensor> cond,
                                            Function<List<Tensor>, List<Tensor>> body) {
        List<TraceValue> init = initial.stream().map(t -> ctx.resolve(WHILE, t)).toList();
        List<TensorType> types = init.stream().map(TraceValue::type).toList();
        TraceContext.Level c = ctx.traceLevel(WHILE, types, state -> {
            Tensor go = cond.apply(state);
            requirePredScalar(WHILE, "condition result", go);
            return List.of(go);
        });
        TraceContext.Level b = ctx.traceLevel(WHILE, types, state -> checked(WHILE, body.apply(state)));
        requireTypes(types, b.outputTypes());
        List<TraceValue> captured = union(c.builder().capturedValues(), b.builder().capturedValues());
        Prim.WhileLoop prim = new Prim.WhileLoop(c.graph(captured), b.graph(captured));
        List<TraceValue> ins = new ArrayList<>(init);
        ins.addAll(captured);
        return ctx.backend.current().record(prim, ins).stream().map(ctx::tensor).toList();
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static void requirePredScalar(String op, String what, Tensor t) {
        if (t == null) throw new JBurnException(op, "the " + what + " is null");
        if (t.dtype() != DType.PRED || t.rank() != 0) {
            throw new JBurnException(op, "the " + what + " must be a pred scalar, got " + t.dtype().shortName() + t.shape());
        }
    }

    private static void requireTypes(List<TensorType> state, List<TensorType> next) {
        if (!state.equals(next)) {
            throw new JBurnException(WHILE, "the body must return the types of the loop state " + state + ", got " + next);
        }
    }

    private static List<Tensor> checked(String op, List<Tensor> ts) {
        if (ts == null) throw new JBurnException(op, "expected a list of tensors, got null");
        for (int i = 0; i < ts.size(); i++) if (ts.get(i) == null) throw new JBurnException(op, "tensor " + i + " of the list is null");
        return ts;
    }

    private static List<TensorType> types(List<Tensor> ts) {
        return ts.stream().map(t -> new TensorType(t.dtype(), t.shape())).toList();
    }

    /** New tensors sharing the buffers of {@code ts}, kept past {@code scope} (which frees everything else made in it). */
    private static List<Tensor> owned(TensorScope scope, List<Tensor> ts) {
        List<Tensor> out = new ArrayList<>(ts.size());
        for (Tensor t : ts) out.add(scope.keep(t.reshape(t.shape())));
        return List.copyOf(out);
    }

    private static List<TraceValue> union(List<TraceValue> a, List<TraceValue> b) {
        LinkedHashSet<TraceValue> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }
}
