package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.internal.JBurnInternals;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a graph node by node through an engine's {@link Backend} primitives, freeing each
 * intermediate as soon as its last reader has run. This is {@link Backend#execute}'s default; an
 * engine may override that to compile the graph whole. On a tracing engine it replays the graph
 * into the trace being recorded (how a graph is inlined into another).
 *
 * <pre>{@code
 * List<Tensor> out = Interpreter.run(graph, Engine.select("cpu"), List.of(x));
 * }</pre>
 */
public final class Interpreter {
    private Interpreter() {}

    /**
     * Runs {@code graph} on {@code engine}'s backend ({@link Backend#execute}) with tensors of the
     * graph's input types; returns new tensors the caller owns. On a tracing engine, concrete
     * inputs become constants of the trace.
     */
    public static List<Tensor> run(Graph graph, Engine engine, List<Tensor> inputs) {
        JBurnInternals.Access acc = JBurnInternals.access();
        if (inputs.size() != graph.inputs().size()) {
            throw new JBurnException("jit", "the graph takes " + graph.inputs().size() + " inputs, got " + inputs.size());
        }
        List<Operand> ops = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            Tensor t = inputs.get(i);
            Value v = graph.inputs().get(i);
            if (t.dtype() != v.dtype() || !t.shape().equals(v.shape())) {
                throw new JBurnException("jit", "input " + i + " must be " + v.type() + ", got " + t.dtype().shortName() + t.shape());
            }
            if (t.engine() != engine) {
                if (!acc.isTracing(engine)) {
                    throw new JBurnException("jit", "input " + i + " lives on engine '" + t.engine().label() + "', not '" + engine.label()
                            + "'; move it with to(engine)");
                }
                t = t.to(engine);
            }
            ops.add(acc.operand(t));
        }
        List<Buffer> outs = engine.backend().execute(graph, ops);
        List<Tensor> result = new ArrayList<>(outs.size());
        for (int i = 0; i < outs.size(); i++) {
            Value v = graph.outputs().get(i);
            result.add(acc.wrap(engine, outs.get(i), v.dtype(), v.shape()));
        }
        return List.copyOf(result);
    }

    /**
     * Evaluates {@code graph} on {@code backend} with operands of the graph's input types. Returns
     * one new buffer reference per graph output (an input returned as an output is retained); the
     * inputs are not released.
     */
    public static List<Buffer> execute(Backend backend, Graph graph, List<Operand> inputs) {
        return execute(backend, graph, inputs, new boolean[inputs.size()], null);
    }

    /**
     * Runs one node in an engine's own way (a fused group in one pass, say), or declines.
     * {@code reusable.get(k)} is true when input {@code k}'s buffer may be overwritten by an output
     * of this node: nothing reads that value afterwards, it is no graph output, no other input of
     * the node or of the graph shares its buffer, and it is an intermediate or a donated input.
     * The engine must still check that no other tensor holds the buffer (a view may share it).
     */
    @FunctionalInterface
    public interface NodeRunner {
        /** The node's output buffers (new references), or {@code null} to let the interpreter run it. */
        List<Buffer> run(Node node, List<Operand> inputs, List<Boolean> reusable);
    }

    /**
     * {@link #execute(Backend, Graph, List)} where {@code runner} may take over nodes and may write
     * outputs into the buffers of inputs marked in {@code donated} (after the call their contents
     * are unspecified). A {@code null} runner interprets every node.
     */
    public static List<Buffer> execute(Backend backend, Graph graph, List<Operand> inputs, boolean[] donated, NodeRunner runner) {
        if (inputs.size() != graph.inputs().size()) {
            throw new JBurnException("jit", "the graph takes " + graph.inputs().size() + " inputs, got " + inputs.size());
        }
        int[] last = graph.lastUses();
        Operand[] env = new Operand[last.length];
        boolean[] owned = new boolean[last.length];
        boolean[] donatedId = new boolean[last.length];
        for (int i = 0; i < inputs.size(); i++) {
            int id = graph.inputs().get(i).id();
            env[id] = inputs.get(i);
            if (i < donated.length && donated[i]) donatedId[id] = true;
        }
        // A buffer passed as two graph inputs (one tensor given twice) is never reused.
        java.util.IdentityHashMap<Buffer, Integer> inputBuffers = new java.util.IdentityHashMap<>();
        for (Operand o : inputs) inputBuffers.merge(o.buffer(), 1, Integer::sum);
        boolean timed = NodeProfile.ENABLED && NodeProfile.enter();
        try {
            List<Node> nodes = graph.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                Node n = nodes.get(i);
                long start = timed ? System.nanoTime() : 0;
                List<Operand> args = new ArrayList<>(n.inputs().size());
                for (Value v : n.inputs()) args.add(env[v.id()]);
                List<Buffer> outs = null;
                if (runner != null && !(backend instanceof TracingBackend)) {
                    List<Boolean> reusable = new ArrayList<>(args.size());
                    for (int k = 0; k < args.size(); k++) {
                        int id = n.inputs().get(k).id();
                        boolean ok = last[id] == i && (owned[id] || donatedId[id] && inputBuffers.get(args.get(k).buffer()) == 1);
                        for (int j = 0; ok && j < args.size(); j++) if (j != k && args.get(j).buffer() == args.get(k).buffer()) ok = false;
                        if (ok && owned[id] && inputBuffers.containsKey(args.get(k).buffer())) ok = false;
                        reusable.add(ok);
                    }
                    outs = runner.run(n, args, reusable);
                }
                if (outs == null) outs = call(backend, n.prim(), args, runner);
                if (timed) {
                    if (NodeProfile.SYNC) backend.synchronize();
                    NodeProfile.record(n, System.nanoTime() - start);
                }
                if (outs.size() != n.outputs().size()) {
                    outs.forEach(Buffer::release);
                    throw new JBurnException(n.prim().name(), "the backend returned " + outs.size() + " results for " + n.outputs().size() + " outputs");
                }
                for (int k = 0; k < outs.size(); k++) {
                    Value v = n.outputs().get(k);
                    env[v.id()] = new Operand(outs.get(k), v.dtype(), v.shape());
                    owned[v.id()] = true;
                }
                for (Value v : n.inputs()) if (last[v.id()] == i) free(env, owned, v.id());
                for (Value v : n.outputs()) if (last[v.id()] < 0) free(env, owned, v.id());
            }
            List<Buffer> result = new ArrayList<>(graph.outputs().size());
            for (Value v : graph.outputs()) result.add(env[v.id()].buffer().retain());
            return result;
        } finally {
            if (NodeProfile.ENABLED) NodeProfile.exit();
            for (int id = 0; id < env.length; id++) free(env, owned, id);
        }
    }

    private static void free(Operand[] env, boolean[] owned, int id) {
        if (owned[id] && env[id] != null) env[id].buffer().release();
        env[id] = null;
        owned[id] = false;
    }

    /** One primitive on the backend; a fresh buffer reference per output. */
    private static List<Buffer> call(Backend b, Prim prim, List<Operand> in, NodeRunner runner) {
        if (b instanceof TracingBackend tb) return tb.record(prim, in);
        return switch (prim) {
            case Prim.Constant c -> List.of(b.upload(MemorySegment.ofArray(c.bytes())));
            case Prim.Iota i -> List.of(b.iota(i.shape(), i.dtype(), i.axis()));
            case Prim.Unary u -> List.of(b.unary(u.op(), in.get(0), u.out()));
            case Prim.Binary x -> List.of(b.binary(x.op(), in.get(0), in.get(1), x.outShape(), x.out()));
            case Prim.Select s -> List.of(b.select(in.get(0), in.get(1), in.get(2), s.outShape()));
            case Prim.Cast c -> List.of(b.cast(in.get(0), c.to()));
            case Prim.Reduce r -> List.of(b.reduce(r.op(), in.get(0), r.axes(), r.out()));
            case Prim.ArgReduce a -> List.of(b.argReduce(a.op(), in.get(0), a.axis(), a.tieBreakHigh(), a.out()));
            case Prim.Cumulative c -> List.of(b.cumulative(c.op(), in.get(0), c.axis(), c.reverse()));
            case Prim.Transpose t -> List.of(b.transpose(in.get(0), t.perm()));
            case Prim.Broadcast x -> List.of(b.broadcast(in.get(0), x.outShape(), x.axes()));
            case Prim.Slice s -> List.of(b.slice(in.get(0), s.starts(), s.lengths(), s.strides()));
            case Prim.PutSlice s -> List.of(b.putSlice(in.get(0), s.starts(), in.get(1)));
            case Prim.Pad p -> List.of(b.pad(in.get(0), in.get(1), p.lo(), p.hi(), p.interior()));
            case Prim.Reverse r -> List.of(b.reverse(in.get(0), r.axes()));
            case Prim.Concatenate c -> List.of(b.concatenate(in, c.axis()));
            case Prim.Gather g -> List.of(b.gather(in.get(0), in.get(1), g.axes()));
            case Prim.IndexedUpdate u -> List.of(b.indexedUpdate(in.get(0), in.get(1), in.get(2), u.axes(), u.accumulate()));
            case Prim.Sort s -> List.of(b.sort(in.get(0), s.axis(), s.descending()));
            case Prim.Argsort s -> List.of(b.argsort(in.get(0), s.axis(), s.descending(), s.indexType()));
            case Prim.Dot d -> List.of(b.dot(in.get(0), d.contractA(), d.batchA(), in.get(1), d.contractB(), d.batchB(), d.out()));
            case Prim.Conv c -> List.of(b.conv(in.get(0), in.get(1), c.spec(), c.out()));
            case Prim.WindowReduce w -> List.of(b.windowReduce(w.op(), in.get(0), w.spec()));
            case Prim.WindowScatter w -> List.of(b.windowScatter(w.op(), in.get(0), in.get(1), in.get(2), w.spec()));
            case Prim.Cholesky c -> List.of(b.cholesky(in.get(0)));
            case Prim.TriangularSolve t -> List.of(b.triangularSolve(in.get(0), in.get(1), t.lower(), t.leftSide(), t.transposeA()));
            case Prim.Lu l -> b.lu(in.get(0));
            case Prim.Qr q -> b.qr(in.get(0), q.complete());
            case Prim.Eigh e -> b.eigh(in.get(0));
            case Prim.Svd s -> b.svd(in.get(0), s.fullMatrices());
            case Prim.Reshape r -> List.of(in.get(0).buffer().retain());
            case Prim.Bitcast c -> List.of(in.get(0).buffer().retain());
            case Prim.GradientMark m -> List.of(in.getLast().buffer().retain());
            case Prim.Cond c -> sub(b, readPred(b, in.get(0)) ? c.onTrue() : c.onFalse(), in.subList(1, in.size()), runner);
            case Prim.WhileLoop w -> whileLoop(b, w, in, runner);
            case Prim.Fused f -> execute(b, f.body(), in);
        };
    }

    /** A sub-graph run with the same node runner (its inputs are never donated). */
    private static List<Buffer> sub(Backend b, Graph g, List<Operand> in, NodeRunner runner) {
        return execute(b, g, in, new boolean[in.size()], runner);
    }

    private static List<Buffer> whileLoop(Backend b, Prim.WhileLoop w, List<Operand> in, NodeRunner runner) {
        int k = w.stateCount();
        List<Operand> captured = in.subList(k, in.size());
        List<Operand> state = in.subList(0, k);
        boolean ownsState = false;
        try {
            while (true) {
                List<Operand> args = new ArrayList<>(state);
                args.addAll(captured);
                Buffer go = sub(b, w.cond(), args, runner).getFirst();
                boolean again;
                try {
                    again = readPred(b, new Operand(go, DType.PRED, Shape.scalar()));
                } finally {
                    go.release();
                }
                if (!again) break;
                List<Buffer> next = sub(b, w.body(), args, runner);
                if (ownsState) state.forEach(o -> o.buffer().release());
                List<Operand> nextState = new ArrayList<>(k);
                for (int i = 0; i < k; i++) {
                    Value v = w.body().outputs().get(i);
                    nextState.add(new Operand(next.get(i), v.dtype(), v.shape()));
                }
                state = nextState;
                ownsState = true;
            }
            List<Buffer> out = new ArrayList<>(k);
            for (Operand o : state) out.add(ownsState ? o.buffer() : o.buffer().retain());
            ownsState = false;
            return out;
        } finally {
            if (ownsState) state.forEach(o -> o.buffer().release());
        }
    }

    private static boolean readPred(Backend b, Operand pred) {
        MemorySegment one = MemorySegment.ofArray(new byte[1]);
        b.download(pred.buffer(), 0, one);
        return one.get(ValueLayout.JAVA_BYTE, 0) != 0;
    }
}
