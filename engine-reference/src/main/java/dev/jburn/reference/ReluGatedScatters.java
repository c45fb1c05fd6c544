package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A max pool's gradient followed by its input ReLU's gradient, as one pass. A ReLU then a max pool differentiate to
 * {@code s = windowScatterMax(y, g, +0)} (the pool's) and {@code select(y > 0, s, +0)} (the ReLU's, read from its output
 * {@code y}, which the nn layers' ReLU does), the second a fused group that reads {@code y} and {@code s} whole and
 * writes as much again (1.1 ms of the small CNN's step for {@code [128,26,26,32]}). Every element the scatter does not
 * select is {@code +0} in both, and a selected one holds the window's maximum {@code y[i]}, so the ReLU's test is the
 * selected value's: {@link WindowKernels#reluGatedScatterMax} writes {@code +0} for a window whose maximum is not
 * {@code > 0} (NaN included), the same bits as the two ops. Before the engine interprets a graph, {@link #rewrite}
 * replaces each such pair (the scatter's result read by that group alone) with one fused node whose body is the pair;
 * {@link #run} executes it where the channels-last scatter applies, else the interpreter runs the body.
 */
final class ReluGatedScatters {
    private final WindowKernels windows;
    /** Off for the scalar oracle (no vector kernels): it runs every op as traced. */
    private final boolean enabled;
    private final dev.jburn.graph.GraphRewriteCache rewritten = new dev.jburn.graph.GraphRewriteCache(this::rewriteOnce);
    /** The pool's window of each body this class made. */
    private final Map<Graph, Prim.WindowScatter> plans = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    ReluGatedScatters(WindowKernels windows, boolean enabled) {
        this.windows = windows;
        this.enabled = enabled;
    }

    /** {@code g} with each (max-pool scatter, ReLU gradient) pair as one fused node, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) { return enabled ? rewritten.get(g) : g; }

    /** Runs a fused node made by {@link #rewrite}, or returns {@code null} (not ours, or the kernel does not apply). */
    List<Buffer> run(Node node, List<Operand> in) {
        Prim.WindowScatter ws = dev.jburn.graph.GraphRewriteCache.planOf(node, plans);
        if (ws == null) return null;
        Buffer out = windows.reluGatedScatterMax(in.get(0), in.get(1), ws.spec());
        return out == null ? null : List.of(out);
    }

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        Map<Node, Node> replaced = new IdentityHashMap<>(); // the ReLU gradient's group -> the fused node
        Map<Node, Boolean> dropped = new IdentityHashMap<>();
        for (Node gate : g.nodes()) {
            Pair pair = pairOf(gate, idx);
            if (pair == null || dropped.containsKey(pair.scatter)) continue;
            Node scatter = pair.scatter;
            Graph.Builder b = Graph.builder();
            List<Value> ins = new ArrayList<>();
            for (Value v : scatter.inputs()) ins.add(b.input(v.type()));
            Value s = b.add(scatter.prim(), ins).getFirst();
            Value zero = b.constant(new byte[Float.BYTES], DType.F32, dev.jburn.Shape.scalar());
            Value mask = b.add1(pair.greater.prim(), ins.get(0), zero);
            Graph fusedBody = b.build(List.of(b.add1(pair.select.prim(), mask, s, zero)));
            plans.put(fusedBody, (Prim.WindowScatter) scatter.prim());
            replaced.put(gate, new Node(new Prim.Fused(fusedBody), scatter.inputs(), gate.outputs()));
            dropped.put(scatter, true);
        }
        return dev.jburn.graph.GraphRewriteCache.replace(g, replaced, dropped);
    }

    /** A pool scatter and the {@code greater} and {@code select} nodes of the ReLU gradient's group that reads it. */
    private record Pair(Node scatter, Node greater, Node select) {}

    /**
     * The F32 {@code windowScatterMax(y, g, +0)} node whose result only {@code gate} reads, with that group's two nodes,
     * when {@code gate} is a fused group computing exactly {@code select(y > 0, s, +0)} of {@code (y, s)} (0 a +0.0
     * constant); else {@code null}.
     */
    private static Pair pairOf(Node gate, ChannelsLastConvGroups.Index idx) {
        if (!(gate.prim() instanceof Prim.Fused f) || gate.inputs().size() != 2 || gate.outputs().size() != 1) return null;
        Value y = gate.inputs().get(0), s = gate.inputs().get(1);
        Node scatter = idx.producer(s);
        if (scatter == null || !(scatter.prim() instanceof Prim.WindowScatter ws) || ws.op() != WindowOp.WINDOW_SCATTER_MAX
                || scatter.inputs().size() != 3 || !scatter.inputs().get(0).equals(y) || y.dtype() != DType.F32 || s.dtype() != DType.F32
                || !isZero(idx.producer(scatter.inputs().get(2))) || idx.soleReader(s) != gate || idx.isOutput(s)) return null;
        Graph body = f.body();
        List<Node> ops = body.nodes().stream().filter(x -> !(x.prim() instanceof Prim.Constant)).toList();
        if (ops.size() != 2 || body.outputs().size() != 1) return null;
        Node greater = ops.get(0), select = ops.get(1);
        Value by = body.inputs().get(0), bs = body.inputs().get(1);
        if (!(greater.prim() instanceof Prim.Binary gt) || gt.op() != BinaryOp.GREATER || greater.inputs().size() != 2
                || !greater.inputs().get(0).equals(by) || !isZero(producerIn(body, greater.inputs().get(1)))) return null;
        if (!(select.prim() instanceof Prim.Select) || select.inputs().size() != 3 || !select.inputs().get(0).equals(greater.outputs().getFirst())
                || !select.inputs().get(1).equals(bs) || !isZero(producerIn(body, select.inputs().get(2)))
                || !select.outputs().getFirst().equals(body.outputs().getFirst())) return null;
        return new Pair(scatter, greater, select);
    }

    private static Node producerIn(Graph body, Value v) {
        return body.nodes().stream().filter(x -> x.outputs().contains(v)).findFirst().orElse(null);
    }

    /** Whether {@code p} is an F32 scalar constant +0.0 ({@code null}: no). */
    private static boolean isZero(Node p) {
        return p != null && p.prim() instanceof Prim.Constant c && c.dtype() == DType.F32 && c.shape().rank() == 0
                && java.util.Arrays.equals(c.bytes(), new byte[Float.BYTES]);
    }
}
