package dev.jburn.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Element-wise fused groups whose results another group reads, combined with it into one fused node of several
 * outputs, for engines that run such a node in one pass (the cpu engine block by block, the Vulkan engine as one
 * kernel). The fusion pass keeps a group whose result is read twice as a node of its own: Adam's new moments
 * {@code m'} and {@code v'} are a step's outputs and the parameter update reads them, so each parameter takes three
 * passes (three kernels on a GPU) that read the gradient twice and {@code m'}, {@code v'} back from memory. The
 * combined node's body computes each producer's group and then the consumer's; its outputs are the producers' results
 * and the consumer's, in that order, so every value is computed as the nodes computed it (the same bits).
 *
 * <pre>{@code
 * Graph chained = ChainedFusedGroups.rewrite(graph, new ChainedFusedGroups.Rules() {
 *     public boolean consumer(Node n) { return isElementwiseGroup(n); }
 *     public boolean producer(Node p, Node c) { return isElementwiseGroup(p); }
 * });
 * }</pre>
 */
public final class ChainedFusedGroups {
    private ChainedFusedGroups() {}

    /** What an engine can run in one combined node. */
    public interface Rules {
        /** Whether {@code n}, a single-output {@link Prim.Fused} node, may consume producers' results in one pass. */
        boolean consumer(Node n);

        /**
         * Whether {@code p}, a single-output {@link Prim.Fused} node whose result {@code consumer} reads (of the
         * consumer's output shape), may be computed in the same pass.
         */
        boolean producer(Node p, Node consumer);

        /** Input positions of {@code consumer} read before any part runs (so they may not be producers' results). */
        default int[] readFirst(Node consumer) { return new int[0]; }

        /**
         * Called for each combined node: its parts (the producers, then the consumer) and, per part, where each of
         * its inputs comes from: {@code k >= 0}, input {@code k} of the combined node; {@code < 0}, the result of
         * part {@code -1 - k}.
         */
        default void combined(Node node, List<Node> parts, List<int[]> inputs) {}
    }

    /** {@code g} with each consumer and its producers as one fused node, or {@code g} itself when it has none. */
    public static Graph rewrite(Graph g, Rules rules) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        Map<Node, Integer> position = positions(g);
        Map<Node, Node> replaced = new IdentityHashMap<>();
        Map<Node, Boolean> dropped = new IdentityHashMap<>();
        Set<Node> used = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Node consumer : g.nodes()) {
            if (!singleFused(consumer) || used.contains(consumer) || !rules.consumer(consumer)) continue;
            List<Node> producers = new ArrayList<>();
            for (Value v : consumer.inputs()) {
                Node p = idx.producer(v);
                if (p != null && p != consumer && !used.contains(p) && !producers.contains(p) && singleFused(p)
                        && v.shape().equals(consumer.outputs().getFirst().shape()) && rules.producer(p, consumer)) {
                    producers.add(p);
                }
            }
            if (producers.isEmpty()) continue;
            int at = producers.stream().mapToInt(position::get).max().orElseThrow();
            if (!placeable(consumer, producers, at, idx, position, rules.readFirst(consumer))) continue;
            Node last = producers.stream().filter(p -> position.get(p) == at).findFirst().orElseThrow();
            replaced.put(last, combine(producers, consumer, rules));
            for (Node p : producers) if (p != last) dropped.put(p, true);
            dropped.put(consumer, true);
            used.addAll(producers);
            used.add(consumer);
        }
        return GraphRewriteCache.replace(g, replaced, dropped);
    }

    private static boolean singleFused(Node n) { return n.prim() instanceof Prim.Fused && n.outputs().size() == 1; }

    /**
     * Whether the consumer can run at position {@code at} (the last producer's): its other operands are ready there,
     * no producer's result is read before it by another node, and what it reads first is no producer's result.
     */
    private static boolean placeable(Node consumer, List<Node> producers, int at, ChannelsLastConvGroups.Index idx,
                                     Map<Node, Integer> position, int[] readFirst) {
        Set<Node> ps = Collections.newSetFromMap(new IdentityHashMap<>());
        ps.addAll(producers);
        for (Value v : consumer.inputs()) {
            Node p = idx.producer(v);
            if (p != null && !ps.contains(p) && position.get(p) >= at) return false;
        }
        for (Node p : producers) {
            for (Node r : idx.readers(p.outputs().getFirst())) if (r != consumer && position.get(r) <= at) return false;
        }
        for (int k : readFirst) if (ps.contains(idx.producer(consumer.inputs().get(k)))) return false;
        return true;
    }

    /** One fused node computing the producers' results and then the consumer's. */
    private static Node combine(List<Node> producers, Node consumer, Rules rules) {
        Map<Integer, Integer> partOf = new HashMap<>(); // a producer's result -> its part
        for (int p = 0; p < producers.size(); p++) partOf.put(producers.get(p).outputs().getFirst().id(), p);
        LinkedHashMap<Integer, Value> operands = new LinkedHashMap<>();
        for (Node p : producers) for (Value v : p.inputs()) operands.putIfAbsent(v.id(), v);
        for (Value v : consumer.inputs()) if (!partOf.containsKey(v.id())) operands.putIfAbsent(v.id(), v);
        List<Value> ins = List.copyOf(operands.values());
        Map<Integer, Integer> at = new HashMap<>();
        for (int k = 0; k < ins.size(); k++) at.put(ins.get(k).id(), k);
        Graph.Builder b = Graph.builder();
        Map<Integer, Value> inner = new HashMap<>();
        for (Value v : ins) inner.put(v.id(), b.input(v.type()));
        List<Value> results = new ArrayList<>();
        List<int[]> maps = new ArrayList<>();
        List<Node> all = new ArrayList<>(producers);
        all.add(consumer);
        for (Node n : all) {
            int[] map = new int[n.inputs().size()];
            for (int k = 0; k < map.length; k++) {
                Value v = n.inputs().get(k);
                Integer part = n == consumer ? partOf.get(v.id()) : null;
                map[k] = part != null ? -1 - part : at.get(v.id());
            }
            results.add(inline(b, n, inner)); // a producer's result is what the consumer reads for it
            maps.add(map);
        }
        Node node = new Node(new Prim.Fused(b.build(results)), ins, all.stream().map(n -> n.outputs().getFirst()).toList());
        rules.combined(node, List.copyOf(all), List.copyOf(maps));
        return node;
    }

    /** Each node's index in {@code g}'s order. */
    public static Map<Node, Integer> positions(Graph g) {
        Map<Node, Integer> position = new IdentityHashMap<>();
        for (int i = 0; i < g.nodes().size(); i++) position.put(g.nodes().get(i), i);
        return position;
    }

    /**
     * {@code n}'s computation added to {@code b} (a fused group's body node by node, any other node as itself), its
     * operands read from {@code valueOf} (top-level value id -> value in {@code b}); its result, also put in {@code valueOf}.
     */
    public static Value inline(Graph.Builder b, Node n, Map<Integer, Value> valueOf) {
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
