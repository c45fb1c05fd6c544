package dev.jburn.graph;

import dev.jburn.JBurnException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** The walk every pass shares: copy a graph node by node into a new builder, letting a rule replace nodes. */
final class Rewriter {
    private Rewriter() {}

    /** A rule's answer that drops a node; nothing may read its outputs afterwards. */
    static final List<Value> DROP = List.of();

    /** Decides what replaces a node in the new graph. */
    interface Rule {
        /**
         * The values that stand for {@code original}'s outputs in the new graph (existing ones, or
         * ones the rule adds to {@code b}), {@link #DROP}, or {@code null} to copy the node.
         *
         * @param ins the node's inputs, already mapped into the new graph ({@code null} where a dropped
         *            node defined one; only a rule that drops this node too may see that)
         */
        List<Value> rewrite(Node original, List<Value> ins, Graph.Builder b);
    }

    /** {@code g} rewritten by {@code rule}; control-flow sub-graphs of copied nodes are mapped by {@code sub}. */
    static Graph rewrite(Graph g, Rule rule, UnaryOperator<Graph> sub) {
        Graph.Builder b = Graph.builder();
        Value[] map = new Value[g.idLimit()];
        for (Value in : g.inputs()) map[in.id()] = b.input(in.type());
        for (Node n : g.nodes()) {
            List<Value> ins = new ArrayList<>(n.inputs().size());
            for (Value v : n.inputs()) ins.add(v.id() < map.length ? map[v.id()] : null); // null: dropped (a dropped node reads it)
            List<Value> outs = rule.rewrite(n, ins, b);
            if (outs == DROP) continue;
            for (int k = 0; k < ins.size(); k++) if (ins.get(k) == null) mapped(map, n.inputs().get(k));
            if (outs == null) outs = b.addTyped(withSubgraphs(n.prim(), sub), ins, ShapeInference.types(n.outputs()));
            for (int k = 0; k < outs.size(); k++) map[n.outputs().get(k).id()] = outs.get(k);
        }
        List<Value> outputs = new ArrayList<>(g.outputs().size());
        for (Value v : g.outputs()) outputs.add(mapped(map, v));
        return b.build(outputs);
    }

    /** {@code p} with its sub-graphs (if any) mapped by {@code f}. */
    static Prim withSubgraphs(Prim p, UnaryOperator<Graph> f) {
        return switch (p) {
            case Prim.Cond c -> new Prim.Cond(f.apply(c.onTrue()), f.apply(c.onFalse()));
            case Prim.WhileLoop w -> new Prim.WhileLoop(f.apply(w.cond()), f.apply(w.body()));
            case Prim.Fused x -> x; // fused bodies are final: passes don't rewrite them
            default -> p;
        };
    }

    /** The constant that defines {@code v} in {@code b}, or {@code null}. */
    static Prim.Constant constantOf(Graph.Builder b, Value v) {
        Node n = b.producer(v);
        return n != null && n.prim() instanceof Prim.Constant c ? c : null;
    }

    private static Value mapped(Value[] map, Value v) {
        Value m = v.id() < map.length ? map[v.id()] : null;
        if (m == null) throw new JBurnException("jit", "internal: a pass dropped " + v + " but something still reads it");
        return m;
    }
}
