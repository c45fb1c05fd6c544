package dev.jburn.graph;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.spi.Buffer;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Replaces nodes whose inputs are all constants by constants, computed at compile time by the
 * target engine's own kernels (so folding never changes a result): views of constants always,
 * other prims when their outputs fit {@code maxBytes}. Creation-like nodes stay (a broadcast or
 * iota is cheaper to run than a large constant is to upload), as do control-flow nodes and nodes
 * whose kernel fails (an out-of-range gather index fails at run time, as it would eagerly).
 */
final class ConstantFolding implements Pass {
    private final Engine engine;
    private final long maxBytes;

    ConstantFolding(Engine engine, long maxBytes) {
        this.engine = engine;
        this.maxBytes = maxBytes;
    }

    @Override public String name() { return "fold"; }

    @Override
    public Graph run(Graph g, Consumer<String> changes) {
        return Rewriter.rewrite(g, (n, ins, b) -> {
            Prim p = n.prim();
            if (ins.isEmpty() || p instanceof Prim.Broadcast || p instanceof Prim.Cond || p instanceof Prim.WhileLoop || p instanceof Prim.Fused) return null;
            List<Prim.Constant> cs = new ArrayList<>(ins.size());
            for (Value v : ins) {
                Prim.Constant c = Rewriter.constantOf(b, v);
                if (c == null) return null;
                cs.add(c);
            }
            String what = GraphText.node(n, "");
            if (p instanceof Prim.Reshape || p instanceof Prim.Bitcast) {
                Value out = n.output();
                changes.accept("folded view " + what);
                return List.of(b.constant(cs.getFirst().bytes(), out.dtype(), out.shape()));
            }
            long bytes = 0;
            for (Value v : n.outputs()) bytes += v.type().byteSize();
            if (engine == null || bytes > maxBytes) return null;
            List<byte[]> values = evaluate(p, cs, ShapeInference.types(n.outputs()));
            if (values == null) return null;
            changes.accept("folded " + what);
            List<Value> outs = new ArrayList<>(values.size());
            for (int k = 0; k < values.size(); k++) {
                Value v = n.outputs().get(k);
                outs.add(b.constant(values.get(k), v.dtype(), v.shape()));
            }
            return outs;
        }, sub -> run(sub, changes));
    }

    /** The output bytes of {@code p} on the constants, or {@code null} when the kernel refuses them. */
    private List<byte[]> evaluate(Prim p, List<Prim.Constant> cs, List<TensorType> types) {
        Graph.Builder mini = Graph.builder();
        List<Value> ins = new ArrayList<>(cs.size());
        for (Prim.Constant c : cs) ins.add(mini.add1(c));
        Graph g = mini.build(mini.addTyped(p, ins, types));
        List<Buffer> bufs;
        try {
            bufs = Interpreter.execute(engine.backend(), g, List.of());
        } catch (JBurnException e) {
            return null;
        }
        List<byte[]> out = new ArrayList<>(bufs.size());
        try {
            for (int k = 0; k < bufs.size(); k++) {
                byte[] bytes = new byte[Math.toIntExact(types.get(k).byteSize())];
                if (bytes.length > 0) engine.backend().download(bufs.get(k), 0, MemorySegment.ofArray(bytes));
                out.add(bytes);
            }
        } finally {
            bufs.forEach(Buffer::release);
        }
        return out;
    }
}
