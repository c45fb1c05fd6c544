package dev.jburn.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * For engines that rewrite a graph before they interpret it (the cpu and cuda engines' channels-last convolutions, the
 * cpu engine's ReLU-gated pooling gradient): the rewritten graph of each graph seen, since graphs are immutable and a
 * compiled function runs the same graph every call, so a rewrite runs once per graph. A graph the rewrite leaves alone
 * maps to a marker, not to itself: a weak map's value that holds its key keeps both forever.
 *
 * <pre>{@code
 * GraphRewriteCache cache = new GraphRewriteCache(g -> GraphRewriteCache.replace(g, replacements(g), Map.of()));
 * Graph run = cache.get(graph);
 * }</pre>
 */
public final class GraphRewriteCache {
    private static final Object UNCHANGED = new Object();
    private final Map<Graph, Object> rewritten = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    private final UnaryOperator<Graph> once;

    /** A cache of {@code once}, which returns its argument itself when it changes nothing. */
    public GraphRewriteCache(UnaryOperator<Graph> once) { this.once = once; }

    /** {@code g} rewritten, or {@code g} itself. */
    public Graph get(Graph g) {
        Object r = rewritten.computeIfAbsent(g, k -> {
            Graph done = once.apply(k);
            return done == k ? UNCHANGED : done;
        });
        return r == UNCHANGED ? g : (Graph) r;
    }

    /** The plan an engine rewrite stored for {@code node}'s fused body, or {@code null} when {@code node} is not such a node. */
    public static <P> P planOf(Node node, Map<Graph, P> plans) {
        return node.prim() instanceof Prim.Fused f ? plans.get(f.body()) : null;
    }

    /** {@code g} with each key of {@code replaced} swapped for its value and each key of {@code dropped} left out; {@code g} when nothing is replaced. */
    public static Graph replace(Graph g, Map<Node, Node> replaced, Map<Node, Boolean> dropped) {
        if (replaced.isEmpty()) return g;
        List<Node> out = new ArrayList<>(g.nodes().size());
        for (Node n : g.nodes()) {
            Node f = replaced.get(n);
            if (f != null) out.add(f);
            else if (!dropped.containsKey(n)) out.add(n);
        }
        return Graph.of(g.inputs(), out, g.outputs());
    }
}
