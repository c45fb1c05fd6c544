package dev.jburn.graph;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/** Drops nodes none of whose outputs reach a graph output (every prim is pure). */
final class DeadCodeElimination implements Pass {
    @Override public String name() { return "dce"; }

    @Override
    public Graph run(Graph g, Consumer<String> changes) {
        boolean[] live = new boolean[g.idLimit()];
        for (Value v : g.outputs()) live[v.id()] = true;
        Set<Node> kept = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Node> nodes = g.nodes();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            Node n = nodes.get(i);
            if (n.outputs().stream().noneMatch(v -> live[v.id()])) continue;
            kept.add(n);
            for (Value v : n.inputs()) live[v.id()] = true;
        }
        return Rewriter.rewrite(g, (n, ins, b) -> {
            if (kept.contains(n)) return null;
            changes.accept("removed " + GraphText.node(n, "").lines().findFirst().orElse(""));
            return Rewriter.DROP;
        }, sub -> run(sub, changes));
    }
}
