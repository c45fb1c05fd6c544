package dev.jburn.reference;

import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** What the cpu engine's multi-output rewrites ({@link ColumnSumSiblings}, {@link PooledChains}, {@link ChainedGroups}) share. */
final class FusedBodies {
    private FusedBodies() {}

    /** Each node's index in {@code g}'s order. */
    static Map<Node, Integer> positions(Graph g) {
        Map<Node, Integer> position = new IdentityHashMap<>();
        for (int i = 0; i < g.nodes().size(); i++) position.put(g.nodes().get(i), i);
        return position;
    }

    /**
     * {@code n}'s computation added to {@code b} (a fused group's body node by node, any other node as itself), its
     * operands read from {@code valueOf} (top-level value id -> value in {@code b}); its result, also put in {@code valueOf}.
     */
    static Value inline(Graph.Builder b, Node n, Map<Integer, Value> valueOf) {
        Value result;
        if (n.prim() instanceof Prim.Fused f) {
            Map<Integer, Value> body = new HashMap<>();
            for (int k = 0; k < n.inputs().size(); k++) body.put(f.body().inputs().get(k).id(), valueOf.get(n.inputs().get(k).id()));
            for (Node x : f.body().nodes()) {
                List<Value> outs = b.add(x.prim(), x.inputs().stream().map(v -> body.get(v.id())).toList());
                for (int k = 0; k < outs.size(); k++) body.put(x.outputs().get(k).id(), outs.get(k));
            }
            result = body.get(f.body().outputs().getFirst().id());
        } else {
            result = b.add(n.prim(), n.inputs().stream().map(v -> valueOf.get(v.id())).toList()).getFirst();
        }
        valueOf.put(n.outputs().getFirst().id(), result);
        return result;
    }
}
