package dev.jburn.graph;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.internal.JBurnInternals;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Function;

/**
 * A trace in progress on this thread: its tracing engine, backend and the engine the graph will
 * run on. While open, {@code Engine.defaultEngine()} on this thread is the tracing engine. Traces
 * nest (a compiled function called with concrete inputs inside another trace traces its own graph).
 */
final class TraceContext implements AutoCloseable {
    private static final ThreadLocal<ArrayDeque<TraceContext>> OPEN = ThreadLocal.withInitial(ArrayDeque::new);
    static final JBurnInternals.Access ACCESS = JBurnInternals.access();

    final TracingBackend backend;
    final Engine engine;
    final Engine target;
    private final Engine previousDefault;
    private boolean closed;

    private TraceContext(Engine target) {
        this.target = target;
        this.backend = new TracingBackend(target);
        this.engine = ACCESS.tracingEngine("trace", backend);
        this.previousDefault = ACCESS.swapThreadDefault(engine);
        OPEN.get().push(this);
    }

    /** Opens a trace whose graph will run on {@code target}. */
    static TraceContext open(Engine target) {
        if (ACCESS.isTracing(target)) throw new IllegalStateException("the target of a trace must be a concrete engine");
        return new TraceContext(target);
    }

    /** The innermost trace open on this thread, or {@code null}. */
    static TraceContext current() { return OPEN.get().peek(); }

    /** A tensor on the tracing engine standing for {@code v}. */
    Tensor tensor(TraceValue v) {
        return ACCESS.wrap(engine, backend.bufferOf(v), v.type().dtype(), v.type().shape());
    }

    /** The value of the current level that {@code t} stands for; a concrete tensor becomes a constant. */
    TraceValue resolve(String op, Tensor t) {
        if (t == null) throw new JBurnException(op, "a traced function returned a null tensor");
        if (t.engine() != engine) {
            if (ACCESS.isTracing(t.engine())) {
                throw new JBurnException(op, "a tensor " + t.dtype().shortName() + t.shape() + " from another trace was returned; "
                        + "a traced tensor escaped the compiled function that made it");
            }
            t = t.to(engine);
        }
        return backend.resolve(ACCESS.operand(t));
    }

    /** Traces {@code fn} on new inputs of {@code types} at a new nested level (a branch or loop graph). */
    Level traceLevel(String op, List<TensorType> types, Function<List<Tensor>, List<Tensor>> fn) {
        TraceBuilder b = backend.push();
        try {
            List<TraceValue> ins = types.stream().map(b::input).toList();
            List<Tensor> out = fn.apply(ins.stream().map(this::tensor).toList());
            if (out == null) throw new JBurnException(op, "a traced function returned null instead of a list of tensors");
            return new Level(b, ins, out.stream().map(t -> resolve(op, t)).toList());
        } finally {
            backend.pop(b);
        }
    }

    /** A traced nested level: its builder, explicit inputs and outputs. */
    record Level(TraceBuilder builder, List<TraceValue> inputs, List<TraceValue> outputs) {
        List<TensorType> outputTypes() { return outputs.stream().map(TraceValue::type).toList(); }

        /** The level's graph taking its explicit inputs, then one input per value of {@code captured}. */
        Graph graph(List<TraceValue> captured) {
            List<TraceValue> all = new java.util.ArrayList<>(inputs);
            for (TraceValue c : captured) all.add(builder.captureInput(c));
            return builder.build(all, outputs);
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        OPEN.get().remove(this);
        ACCESS.swapThreadDefault(previousDefault);
        backend.finish();
    }
}
