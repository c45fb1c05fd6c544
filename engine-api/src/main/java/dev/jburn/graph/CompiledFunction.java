package dev.jburn.graph;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.internal.JBurnInternals;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A function compiled by {@link Jit}: traced once per input signature (engine, dtypes, shapes),
 * optimized, cached, and run on the inputs' engine through {@link dev.jburn.spi.Backend#execute}.
 * Called while another function is being traced, it inlines into that trace.
 *
 * <pre>{@code
 * CompiledFunction f = Jit.compile(x -> x.multiply(x).sum());
 * Tensor y = f.apply(Tensor.of(1f, 2f, 3f));   // traces and compiles for f32[3]
 * f.apply(Tensor.of(4f, 5f, 6f));              // same signature: runs the cached graph
 * f.apply(Tensor.of(1f, 2f));                  // retraces
 * f.lastRecompileReason();                     // "input 0 shape changed from [3] to [2]"
 * }</pre>
 *
 * With {@link JitOptions#withDonation}, the donated input tensors are closed after each call
 * (their memory may hold an output now); using them afterwards throws.
 *
 * Thread-safe; tracing holds a lock, running does not.
 */
public final class CompiledFunction {
    private static final JBurnInternals.Access ACCESS = JBurnInternals.access();

    private final Function<List<Tensor>, List<Tensor>> fn;
    private final int arity;
    private final JitOptions options;
    private final LinkedHashMap<Signature, Compiled> cache = new LinkedHashMap<>(16, 0.75f, true);
    private Signature last;
    private Compiled lastCompiled;
    private String lastReason = "not called yet";
    private int traces;

    /** One signature's compilation. */
    private record Compiled(Signature signature, Graph traced, Graph graph, PassReport report, Duration traceTime, Duration optimizeTime,
                            int[] passedThrough) {
        Compiled(Signature signature, Graph traced, Graph graph, PassReport report, Duration traceTime, Duration optimizeTime) {
            this(signature, traced, graph, report, traceTime, optimizeTime, passedThrough(graph));
        }

        /** Per output, the input it is (returned unchanged), or -1. */
        private static int[] passedThrough(Graph g) {
            int[] at = new int[g.outputs().size()];
            for (int i = 0; i < at.length; i++) {
                at[i] = -1;
                for (int k = 0; k < g.inputs().size() && at[i] < 0; k++) if (g.inputs().get(k).id() == g.outputs().get(i).id()) at[i] = k;
            }
            return at;
        }
    }

    CompiledFunction(Function<List<Tensor>, List<Tensor>> fn, int arity, JitOptions options) {
        this.fn = fn;
        this.arity = arity;
        this.options = options;
    }

    /** Runs a one-input, one-output function. */
    public Tensor apply(Tensor x) { return single(apply(java.util.Arrays.asList(x))); }

    /** Runs a two-input, one-output function. */
    public Tensor apply(Tensor a, Tensor b) { return single(apply(java.util.Arrays.asList(a, b))); }

    /** Runs the function on {@code inputs}; returns new tensors the caller owns. */
    public List<Tensor> apply(List<Tensor> inputs) {
        if (inputs == null) throw new JBurnException("jit", "inputs must not be null");
        for (int i = 0; i < inputs.size(); i++) {
            if (inputs.get(i) == null) throw new JBurnException("jit", "input " + i + " is null");
        }
        if (arity >= 0 && inputs.size() != arity) {
            throw new JBurnException("jit", "this compiled function takes " + arity + " input" + (arity == 1 ? "" : "s") + ", got " + inputs.size());
        }
        List<Tensor> in = List.copyOf(inputs);
        Engine engine = engineOf(in);
        if (engine == null) return checkedOutputs(fn.apply(in)); // traced inputs: inline into the enclosing trace
        List<TensorType> types = in.stream().map(t -> new TensorType(t.dtype(), t.shape())).toList();
        Compiled c = compiled(new Signature(engine, types));
        List<Operand> ops = new ArrayList<>(in.size());
        for (Tensor t : in) ops.add(ACCESS.operand(t));
        boolean[] donated = new boolean[in.size()];
        boolean anyDonated = false;
        for (int i : options.donated()) {
            if (i >= in.size()) throw new JBurnException("jit", "input " + i + " is donated but the function was given " + in.size() + " inputs");
            donated[i] = true;
            anyDonated = true;
        }
        List<Buffer> outs = anyDonated ? engine.backend().execute(c.graph(), ops, donated) : engine.backend().execute(c.graph(), ops);
        // The caller gave the donated inputs up: close them, so a later use fails instead of reading overwritten memory.
        if (anyDonated) for (int i = 0; i < in.size(); i++) if (donated[i]) in.get(i).close();
        List<Tensor> result = new ArrayList<>(outs.size());
        int[] passed = c.passedThrough();
        for (int i = 0; i < outs.size(); i++) {
            Value v = c.graph().outputs().get(i);
            // an input returned as it came (an optimizer's learning rate) keeps what the host knows of its bytes
            result.add(passed[i] >= 0 ? ACCESS.wrapSame(engine, outs.get(i), in.get(passed[i])) : ACCESS.wrap(engine, outs.get(i), v.dtype(), v.shape()));
        }
        return List.copyOf(result);
    }

    /**
     * The engine all inputs live on (the default engine when there are none), or {@code null} to
     * inline: while a function is traced on this thread (nested compiled functions become part of
     * the enclosing graph, and may capture its tensors), or when an input is traced.
     */
    private static Engine engineOf(List<Tensor> in) {
        if (TraceContext.current() != null) return null;
        if (in.isEmpty()) return Engine.defaultEngine();
        Engine e = in.getFirst().engine();
        for (Tensor t : in) if (ACCESS.isTracing(t.engine())) return null;
        for (int i = 1; i < in.size(); i++) {
            if (in.get(i).engine() != e) {
                throw new JBurnException("jit", "inputs live on different engines: input 0 on '" + e.label() + "', input " + i + " on '"
                        + in.get(i).engine().label() + "'; move them with to(engine)");
            }
        }
        return e;
    }

    private synchronized Compiled compiled(Signature sig) {
        Compiled c = cache.get(sig);
        if (c == null) {
            String why = Signature.change(last, sig);
            if (why == null) why = "signature " + sig + " was dropped from the cache (limit " + options.cacheLimit() + ") and traced again";
            c = compile(sig);
            traces++;
            lastReason = why;
            cache.put(sig, c);
            if (cache.size() > options.cacheLimit()) {
                Iterator<Map.Entry<Signature, Compiled>> it = cache.entrySet().iterator();
                it.next();
                it.remove();
            }
        }
        last = sig;
        lastCompiled = c;
        return c;
    }

    private Compiled compile(Signature sig) {
        long t0 = System.nanoTime();
        Graph traced = Jit.trace(xs -> checkedOutputs(fn.apply(xs)), sig.inputs(), sig.engine());
        long t1 = System.nanoTime();
        Passes.Optimized o = options.optimize()
                ? Passes.optimize(traced, Passes.standard(sig.engine(), options), options.verifyEachPass())
                : new Passes.Optimized(traced, new PassReport(List.of()));
        long t2 = System.nanoTime();
        return new Compiled(sig, traced, o.graph(), o.report(), Duration.ofNanos(t1 - t0), Duration.ofNanos(t2 - t1));
    }

    private static List<Tensor> checkedOutputs(List<Tensor> out) {
        if (out == null) throw new JBurnException("jit", "the compiled function returned null instead of a list of tensors");
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) == null) throw new JBurnException("jit", "output " + i + " of the compiled function is null");
        }
        return out;
    }

    private static Tensor single(List<Tensor> out) {
        if (out.size() != 1) throw new JBurnException("jit", "the function returns " + out.size() + " tensors; call apply(List)");
        return out.getFirst();
    }

    // ---- introspection --------------------------------------------------------------------------

    /** Number of signatures compiled and cached now. */
    public synchronized int cacheSize() { return cache.size(); }

    /** Number of times the function has been traced. */
    public synchronized int traceCount() { return traces; }

    /**
     * Why the latest trace happened: {@code "first call, for cpu(f32[3])"}, {@code "input 1 shape changed
     * from [32, 784] to [17, 784]"}, {@code "input 0 dtype changed from f32 to f64"}, an engine change, or an
     * eviction from the cache; {@code "not called yet"} before the first call.
     */
    public synchronized String lastRecompileReason() { return lastReason; }

    /** The optimized graph of the most recent call. */
    public synchronized Graph graph() { return requireCalled().graph(); }

    /** The graph as traced (before the passes) for the most recent call's signature. */
    public synchronized Graph tracedGraph() { return requireCalled().traced(); }

    /** What the passes changed for the most recent call's signature. */
    public synchronized PassReport passReport() { return requireCalled().report(); }

    /** Time spent tracing and optimizing the most recent call's signature (measured once, when it was compiled). */
    public synchronized Duration compileTime() { return requireCalled().traceTime().plus(requireCalled().optimizeTime()); }

    /** The cache, the latest retrace and its reason, and the current graph with its pass report, as text. */
    public synchronized String explain() {
        StringBuilder sb = new StringBuilder();
        sb.append("compiled function: traced ").append(traces).append(traces == 1 ? " time" : " times").append(", ")
                .append(cache.size()).append(" signature(s) cached (limit ").append(options.cacheLimit()).append(")\n");
        sb.append("last trace: ").append(lastReason).append('\n');
        for (Compiled c : cache.values()) {
            sb.append("  ").append(c.signature()).append(": ").append(c.traced().totalNodeCount()).append(" traced nodes, ")
                    .append(c.graph().totalNodeCount()).append(" after passes, compiled in ")
                    .append(String.format(java.util.Locale.ROOT, "%.1f", c.traceTime().plus(c.optimizeTime()).toNanos() / 1e6)).append(" ms\n");
        }
        if (lastCompiled != null) {
            sb.append("graph for ").append(lastCompiled.signature()).append(":\n").append(lastCompiled.graph()).append('\n');
            sb.append("passes:\n").append(lastCompiled.report()).append('\n');
        }
        return sb.toString();
    }

    private Compiled requireCalled() {
        if (lastCompiled == null) throw new JBurnException("jit", "the compiled function has not been called yet");
        return lastCompiled;
    }
}
