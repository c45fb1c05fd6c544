package dev.jburn.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Channels-last convolutions in a graph, for engines that run them without layout copies. The front end
 * runs every conv in the canonical layout, so a channels-last layer's conv and its gradients trace as
 * layout moves around a canonical conv; an engine with a channels-last kernel replaces each group found
 * here with one fused node (the cpu and cuda engines do), and keeps the group as the node's body, so
 * declining at run time costs nothing but speed. Two shapes of group:
 * <ul>
 *   <li>{@link Kind#FORWARD}: {@code x [N, s..., C]} → move {@code [0, r-1, 1..]} → conv(·, kernel) →
 *       move {@code [0, 2.., 1]} (a forward conv, and an input cotangent);</li>
 *   <li>{@link Kind#KERNEL_GRADIENT}: conv(move{@code (x, [r-1, 0..])}, move{@code (g, [r-1, 0..])}) →
 *       move {@code [2.., 0, 1]} (a kernel cotangent, {@code [k..., C, O]}).</li>
 * </ul>
 * A move is a transpose by that permutation, or a reshape that is one (moving only size-1 axes, as a
 * one-channel input's is traced). Every move must have the group as its one reader and be no graph output.
 *
 * <pre>{@code
 * Index idx = ChannelsLastConvGroups.index(graph);
 * for (Group g : ChannelsLastConvGroups.find(graph, idx, conv -> conv.out() == DType.F32)) { ... }
 * }</pre>
 */
public final class ChannelsLastConvGroups {
    private ChannelsLastConvGroups() {}

    /** The two shapes of group. */
    public enum Kind { FORWARD, KERNEL_GRADIENT }

    /**
     * One group: its conv node, the moves that feed it (one for a forward group: the input's; two for a
     * kernel gradient) and the move after it. Its inputs are {@link #inputs()}, its output {@code after}'s.
     */
    public record Group(Kind kind, Node conv, Prim.Conv prim, List<Node> operandMoves, Node after) {
        /** Forward: the channels-last input and the conv's kernel operand; kernel gradient: the two channels-last operands. */
        public List<Value> inputs() {
            return kind == Kind.FORWARD
                    ? List.of(operandMoves.getFirst().inputs().getFirst(), conv.inputs().get(1))
                    : List.of(operandMoves.get(0).inputs().getFirst(), operandMoves.get(1).inputs().getFirst());
        }

        /** A body for the fused node: the group's own nodes, over {@link #inputs()}, returning {@code after}'s value. */
        public Graph body() {
            Graph.Builder b = Graph.builder();
            List<Value> ins = new ArrayList<>();
            for (Value v : inputs()) ins.add(b.input(v.type()));
            List<Value> convIns = kind == Kind.FORWARD
                    ? List.of(b.add1(operandMoves.getFirst().prim(), ins.get(0)), ins.get(1))
                    : List.of(b.add1(operandMoves.get(0).prim(), ins.get(0)), b.add1(operandMoves.get(1).prim(), ins.get(1)));
            return b.build(List.of(b.add1(after.prim(), b.add(prim, convIns).getFirst())));
        }
    }

    /** Who produces and who reads each value of a graph, and which values it returns. */
    public static final class Index {
        private final Map<Integer, Node> producer = new HashMap<>();
        private final Map<Integer, List<Node>> readers = new HashMap<>();
        private final Set<Integer> outputs = new HashSet<>();

        private Index(Graph g) {
            for (Node n : g.nodes()) {
                for (Value v : n.inputs()) readers.computeIfAbsent(v.id(), i -> new ArrayList<>()).add(n);
                for (Value v : n.outputs()) producer.put(v.id(), n);
            }
            for (Value v : g.outputs()) outputs.add(v.id());
        }

        /** The node producing {@code v}, or null for a graph input. */
        public Node producer(Value v) { return producer.get(v.id()); }

        /** The nodes reading {@code v}, in graph order. */
        public List<Node> readers(Value v) { return readers.getOrDefault(v.id(), List.of()); }

        /** Whether the graph returns {@code v}. */
        public boolean isOutput(Value v) { return outputs.contains(v.id()); }

        /** The one node reading {@code v}, when {@code v} is no graph output; else null. */
        public Node soleReader(Value v) {
            List<Node> r = readers(v);
            return r.size() != 1 || isOutput(v) ? null : r.getFirst();
        }

        /** The single-output node producing {@code v}, when {@code v} has one reader and is no graph output; else null. */
        public Node soleProducer(Value v) {
            Node p = producer(v);
            return p == null || soleReader(v) == null || p.outputs().size() != 1 ? null : p;
        }
    }

    /** The index of {@code g}. */
    public static Index index(Graph g) { return new Index(g); }

    /**
     * The groups of {@code g} whose conv node {@code accepts}, in graph order; a node belongs to one group at
     * most (a 1-D conv's output move can be the next one's input move: the first group keeps it).
     */
    public static List<Group> find(Graph g, Index idx, Predicate<Node> accepts) {
        List<Group> groups = new ArrayList<>();
        IdentityHashMap<Node, Boolean> taken = new IdentityHashMap<>();
        for (Node n : g.nodes()) {
            if (!(n.prim() instanceof Prim.Conv conv) || !accepts.test(n)) continue;
            int r = n.outputs().getFirst().shape().rank();
            Node after = idx.soleReader(n.outputs().getFirst());
            Node lhs = idx.soleProducer(n.inputs().get(0));
            Node rhs = idx.soleProducer(n.inputs().get(1));
            if (after == null || lhs == null || taken.containsKey(lhs) || taken.containsKey(after)) continue;
            Group group;
            if (moves(lhs, channelsFirst(r)) && moves(after, channelsLast(r))) {
                group = new Group(Kind.FORWARD, n, conv, List.of(lhs), after);
            } else if (rhs != null && !taken.containsKey(rhs) && moves(lhs, channelsToBatch(r)) && moves(rhs, channelsToBatch(r))
                    && moves(after, spatialFirst(r))) {
                group = new Group(Kind.KERNEL_GRADIENT, n, conv, List.of(lhs, rhs), after);
            } else {
                continue;
            }
            group.operandMoves().forEach(m -> taken.put(m, true));
            taken.put(after, true);
            groups.add(group);
        }
        return groups;
    }

    /**
     * {@code g} with each of {@code groups} replaced by one {@link Prim.Fused} node whose body is the group's own
     * nodes ({@link Group#body()}), over {@link Group#inputs()}; {@code onGroup} sees each body with its group first
     * (an engine remembers there how it runs that body). {@code g} itself when there are no groups.
     */
    public static Graph fuse(Graph g, List<Group> groups, java.util.function.BiConsumer<Graph, Group> onGroup) {
        if (groups.isEmpty()) return g;
        IdentityHashMap<Node, Node> replaced = new IdentityHashMap<>();
        IdentityHashMap<Node, Boolean> dropped = new IdentityHashMap<>();
        for (Group gr : groups) {
            Graph body = gr.body();
            onGroup.accept(body, gr);
            replaced.put(gr.conv(), new Node(new Prim.Fused(body), gr.inputs(), gr.after().outputs()));
            gr.operandMoves().forEach(m -> dropped.put(m, true));
            dropped.put(gr.after(), true);
        }
        return GraphRewriteCache.replace(g, replaced, dropped);
    }

    /**
     * Whether {@code n} moves its one input by {@code perm}: a {@code Transpose} by {@code perm}, or a
     * {@code Reshape} whose result is the input transposed by {@code perm} with the axes longer than 1 in order
     * (moving a size-1 axis changes no element's position).
     */
    public static boolean moves(Node n, int[] perm) {
        if (n.inputs().size() != 1 || n.outputs().size() != 1) return false;
        if (n.prim() instanceof Prim.Transpose t) return Arrays.equals(t.perm(), perm);
        if (!(n.prim() instanceof Prim.Reshape)) return false;
        dev.jburn.Shape in = n.inputs().getFirst().shape(), out = n.outputs().getFirst().shape();
        if (in.rank() != perm.length || out.rank() != perm.length) return false;
        int last = -1;
        for (int i = 0; i < perm.length; i++) {
            if (out.dim(i) != in.dim(perm[i])) return false;
            if (in.dim(perm[i]) > 1) {
                if (perm[i] < last) return false;
                last = perm[i];
            }
        }
        return true;
    }

    /** {@code [0, r-1, 1, .., r-2]}: channels-last to canonical. */
    public static int[] channelsFirst(int r) {
        int[] p = new int[r];
        p[1] = r - 1;
        for (int i = 2; i < r; i++) p[i] = i - 1;
        return p;
    }

    /** {@code [0, 2, .., r-1, 1]}: canonical to channels-last. */
    public static int[] channelsLast(int r) {
        int[] p = new int[r];
        for (int i = 1; i < r - 1; i++) p[i] = i + 1;
        p[r - 1] = 1;
        return p;
    }

    /** {@code [r-1, 0, .., r-2]}: channels-last to {@code [C, N, s...]}. */
    public static int[] channelsToBatch(int r) {
        int[] p = new int[r];
        p[0] = r - 1;
        for (int i = 1; i < r; i++) p[i] = i - 1;
        return p;
    }

    /** {@code [2, .., r-1, 0, 1]}: {@code [C, O, k...]} to {@code [k..., C, O]}. */
    public static int[] spatialFirst(int r) {
        int[] p = new int[r];
        for (int i = 0; i < r - 2; i++) p[i] = i + 2;
        p[r - 2] = 0;
        p[r - 1] = 1;
        return p;
    }
}
