package dev.jburn.graph;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The tracing compiler. {@link #compile} turns a Java function over tensors into a
 * {@link CompiledFunction}: the first call with a new input signature runs the function once on
 * symbolic tensors, recording every primitive into a {@link Graph}; the graph is optimized
 * ({@link Passes}) and handed to the engine, and later calls with that signature run the graph.
 *
 * <pre>{@code
 * CompiledFunction mlp = Jit.compileList(xs -> {
 *     Tensor x = xs.get(0), w1 = xs.get(1), w2 = xs.get(2);
 *     Tensor h = x.dot(w1).maximum(0.0);
 *     return List.of(h.dot(w2));
 * });
 * Tensor logits = mlp.apply(List.of(x, w1, w2)).getFirst();
 * }</pre>
 *
 * Java code in the function runs once per trace: loops unroll, {@code if}s on Java values pick a
 * path. Reading a traced tensor's data ({@code item()}, {@code toFloatArray()}) fails, except for
 * values computed from constants alone; branch and loop on data with {@link #cond} and
 * {@link #whileLoop}, which also run eagerly outside a trace. Tensors created inside the function
 * ({@code Tensor.of}, {@code Prng.key}) and concrete tensors it captures become constants of
 * the graph. An op on captured concrete tensors alone ({@code w.max()} for a captured {@code w})
 * runs eagerly, once per trace, and its result is a concrete tensor like any other: nothing closes
 * it but its cleaner, so compute it outside the function, or close it inside (the graph keeps a copy):
 *
 * <pre>{@code
 * CompiledFunction scaled = Jit.compile(x -> {
 *     try (Tensor m = w.max()) {
 *         return x.divide(m);
 *     }
 * });
 * }</pre>
 */
public final class Jit {
    private Jit() {}

    /** Compiles a one-input, one-output function. */
    public static CompiledFunction compile(Function<Tensor, Tensor> fn) { return compile(fn, JitOptions.defaults()); }

    /** Compiles a one-input, one-output function with {@code options}. */
    public static CompiledFunction compile(Function<Tensor, Tensor> fn, JitOptions options) {
        nonNull(fn, options);
        return new CompiledFunction(xs -> Arrays.asList(fn.apply(xs.getFirst())), 1, options);
    }

    /** Compiles a two-input, one-output function. */
    public static CompiledFunction compile(BiFunction<Tensor, Tensor, Tensor> fn) { return compile(fn, JitOptions.defaults()); }

    /** Compiles a two-input, one-output function with {@code options}. */
    public static CompiledFunction compile(BiFunction<Tensor, Tensor, Tensor> fn, JitOptions options) {
        nonNull(fn, options);
        return new CompiledFunction(xs -> Arrays.asList(fn.apply(xs.get(0), xs.get(1))), 2, options);
    }

    /** Compiles a function of any number of inputs and outputs; call it with {@link CompiledFunction#apply(List)}. */
    public static CompiledFunction compileList(Function<List<Tensor>, List<Tensor>> fn) { return compileList(fn, JitOptions.defaults()); }

    /** Compiles a function of any number of inputs and outputs with {@code options}. */
    public static CompiledFunction compileList(Function<List<Tensor>, List<Tensor>> fn, JitOptions options) {
        nonNull(fn, options);
        return new CompiledFunction(fn, -1, options);
    }

    private static void nonNull(Object fn, JitOptions options) {
        if (fn == null) throw new JBurnException("jit", "the function must not be null");
        if (options == null) throw new JBurnException("jit", "options must not be null");
    }

    /**
     * Traces {@code fn} on symbolic inputs of {@code inputs} into a verified graph, without
     * optimizing or running it. Values computed from constants alone that the function reads are
     * evaluated on {@code target}.
     */
    public static Graph trace(Function<List<Tensor>, List<Tensor>> fn, List<TensorType> inputs, Engine target) {
        if (fn == null || inputs == null || target == null) throw new JBurnException("jit", "trace needs a function, input types and an engine");
        try (TraceContext ctx = TraceContext.open(target)) {
            TraceBuilder root = ctx.backend.root();
            List<TraceValue> ins = inputs.stream().map(root::input).toList();
            List<Tensor> out = fn.apply(ins.stream().map(ctx::tensor).toList());
            if (out == null) throw new JBurnException("jit", "the traced function returned null instead of a list of tensors");
            List<TraceValue> outs = out.stream().map(t -> ctx.resolve("jit", t)).toList();
            Graph g = root.build(ins, outs);
            Verifier.verify(g);
            return g;
        }
    }

    /** {@link #trace(Function, List, Engine)} with the engine of the enclosing trace, or the default engine. */
    public static Graph trace(Function<List<Tensor>, List<Tensor>> fn, List<TensorType> inputs) {
        TraceContext ctx = TraceContext.current();
        return trace(fn, inputs, ctx != null ? ctx.target : Engine.defaultEngine());
    }

    /** A graph traced inside the current trace, and the enclosing trace's tensors it captured. */
    public record NestedTrace(Graph graph, List<Tensor> captures) {}

    /**
     * Traces {@code fn} at a nested level of the trace open on this thread (as a {@code cond}
     * branch is traced): tensors of the enclosing trace that {@code fn} uses become extra graph
     * inputs after the explicit ones, in first-use order, returned as {@code captures} (tensors
     * of the enclosing trace). Replaying the graph with {@link Interpreter#run} on the tracing
     * engine inlines it. How {@code dev.jburn.autodiff} differentiates inside {@link #compile}.
     */
    public static NestedTrace traceNested(Function<List<Tensor>, List<Tensor>> fn, List<TensorType> inputs) {
        if (fn == null || inputs == null) throw new JBurnException("jit", "traceNested needs a function and input types");
        TraceContext ctx = TraceContext.current();
        if (ctx == null) throw new JBurnException("jit", "traceNested needs an open trace; use trace outside one");
        TraceContext.Level level = ctx.traceLevel("jit", inputs, fn);
        List<TraceValue> captured = level.builder().capturedValues();
        Graph g = level.graph(captured);
        Verifier.verify(g);
        return new NestedTrace(g, captured.stream().map(ctx::tensor).toList());
    }

    /** Whether a function is being traced on this thread. */
    public static boolean isTracing() { return TraceContext.current() != null; }

    /** Whether {@code t} is symbolic (a tensor of a trace) rather than holding data. */
    public static boolean isTraced(Tensor t) { return TraceContext.ACCESS.isTracing(t.engine()); }

    // ---- control flow ---------------------------------------------------------------------------

    /**
     * {@code pred ? onTrue() : onFalse()} for a PRED scalar {@code pred}. Eagerly, only the chosen
     * branch runs. While tracing, both branches are traced into a {@code cond} node (they must
     * return tensors of equal dtype and shape); tensors they capture become operands of the node.
     *
     * <pre>{@code
     * Tensor y = Jit.cond(x.sum().greater(0), () -> x.log(), () -> x.negate());
     * }</pre>
     */
    public static Tensor cond(Tensor pred, Supplier<Tensor> onTrue, Supplier<Tensor> onFalse) {
        if (onTrue == null || onFalse == null) throw new JBurnException("cond", "both branches are required");
        return ControlFlow.cond(pred, () -> Arrays.asList(onTrue.get()), () -> Arrays.asList(onFalse.get())).getFirst();
    }

    /** {@link #cond} with several outputs per branch. */
    public static List<Tensor> condList(Tensor pred, Supplier<List<Tensor>> onTrue, Supplier<List<Tensor>> onFalse) {
        if (onTrue == null || onFalse == null) throw new JBurnException("cond", "both branches are required");
        return ControlFlow.cond(pred, onTrue, onFalse);
    }

    /**
     * {@code while (cond(state)) state = body(state)} with one tensor of state; {@code cond} returns a
     * PRED scalar; {@code body} returns the state's dtype and shape.
     *
     * <pre>{@code
     * Tensor n = Jit.whileLoop(Tensor.scalar(1), i -> i.less(100), i -> i.multiply(2));   // 128
     * }</pre>
     */
    public static Tensor whileLoop(Tensor initial, Function<Tensor, Tensor> cond, UnaryOperator<Tensor> body) {
        if (cond == null || body == null) throw new JBurnException("whileLoop", "cond and body are required");
        return ControlFlow.whileLoop(Arrays.asList(initial), s -> cond.apply(s.getFirst()),
                s -> Arrays.asList(body.apply(s.getFirst()))).getFirst();
    }

    /**
     * {@code while (cond(state)) state = body(state)} over several tensors of state. Eagerly, the loop
     * runs in Java (temporaries made by {@code cond} and {@code body} are freed every iteration);
     * while tracing, it becomes one {@code whileLoop} node.
     */
    public static List<Tensor> whileLoop(List<Tensor> initial, Function<List<Tensor>, Tensor> cond,
                                         Function<List<Tensor>, List<Tensor>> body) {
        if (cond == null || body == null) throw new JBurnException("whileLoop", "cond and body are required");
        return ControlFlow.whileLoop(initial, cond, body);
    }
}
