package dev.jburn.graph;

import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;
import dev.jburn.spi.Capabilities;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Groups chains of element-wise nodes into {@link Prim.Fused} nodes. A group has one root, the
 * last node of the chain: an element-wise node or a sum/max/min over trailing axes. Walking from
 * the root towards the graph inputs, a producer joins the group when it is element-wise (unary,
 * binary, select, cast) or a broadcast, produces the group's element shape (a broadcast may
 * change shape: its input becomes a group input), and has no reader outside the group. Rank-0
 * constants, the rank-0 element-wise computations {@link GroupCopies} picks, and the element-wise
 * nodes it recomputes rather than stores (one full-size input, like {@code x - mean}), are copied
 * into every group that reads them, however many readers they have. Every other producer ends the
 * chain there; the report says why (several readers, not element-wise, shape change), which scalar
 * nodes a group recomputes and which nodes are recomputed in several groups. A group of one node
 * stays that node, unless it recomputes a copied node (then the group saves that node's launch).
 *
 * <p>The body's inputs are the values the group reads from outside, in first-use order; its one
 * output is the root's. Fused bodies are not rewritten by later passes.
 */
final class FusionPass implements Pass {
    /** The ops the engine runs natively, for {@link GroupCopies}; {@code null} copies only scalar constants. */
    private final Capabilities rematerializable;
    /** Whether a sum over leading axes may end a group ({@link Capabilities#fusesLeadingSums()}). */
    private final boolean leadingSums;

    /** Fusion that copies rank-0 computations of the ops {@code rematerializable} supports ({@code null}: constants only) into their readers' groups. */
    FusionPass(Capabilities rematerializable) { this(rematerializable, false); }

    /** {@link #FusionPass(Capabilities)}; with {@code leadingSums}, a sum over leading axes may be a group's root too. */
    FusionPass(Capabilities rematerializable, boolean leadingSums) {
        this.rematerializable = rematerializable;
        this.leadingSums = leadingSums;
    }

    @Override public String name() { return "fusion"; }

    /** Each group's root, members (chain nodes, root last in graph order) and copied scalar nodes. */
    private record Groups(Map<Node, Node> rootOf, Map<Node, List<Node>> members, Map<Node, Set<Node>> copies) {}

    @Override
    public Graph run(Graph g, Consumer<String> changes) {
        List<Node> nodes = g.nodes();
        int[] users = new int[g.idLimit()];
        Map<Integer, Node> producer = new HashMap<>();
        for (Node n : nodes) {
            // readers, not reads: multiply(d, d) is one reader of d, which may join its group
            for (int k = 0; k < n.inputs().size(); k++) if (firstRead(n, k)) users[n.inputs().get(k).id()]++;
            for (Value v : n.outputs()) producer.put(v.id(), n);
        }
        for (Value v : g.outputs()) users[v.id()]++;

        GroupCopies copies = new GroupCopies(g, producer, rematerializable, n -> isRoot(n, leadingSums));
        List<String> report = new ArrayList<>();
        Groups groups = group(nodes, producer, users, copies, report);
        // A copy that a reader outside the groups needs is computed once instead; regroup until none is.
        while (copies.keepNeeded(groups.rootOf().keySet())) {
            report.clear();
            groups = group(nodes, producer, users, copies, report);
        }
        if (groups.members().isEmpty()) return withSubgraphsFused(g, changes);
        for (Node n : nodes) {
            if (!copies.isElementCopy(n)) continue;
            long in = groups.copies().values().stream().filter(c -> c.contains(n)).count();
            report.add("recomputes " + GraphText.ids(n.outputs()) + " = " + n.prim().name() + " " + n.output().type()
                    + " in " + in + (in == 1 ? " group" : " groups") + " instead of storing it");
        }
        report.forEach(changes);

        Graph.Builder b = Graph.builder();
        Value[] map = new Value[g.idLimit()];
        for (Value in : g.inputs()) map[in.id()] = b.input(in.type());
        for (Node n : nodes) {
            Node root = groups.rootOf().get(n);
            if (root != null && root != n) continue; // emitted with its root
            if (root == null && copies.isCopied(n) && !copies.alsoANode(n, groups.rootOf().keySet())) continue; // only copies run
            if (root == n) {
                List<Node> inBody = new ArrayList<>(groups.members().get(n));
                inBody.addAll(groups.copies().get(n));
                Body body = body(inBody, nodes);
                List<Value> ins = new ArrayList<>();
                for (Value v : body.external) ins.add(map[v.id()]);
                List<Value> outs = b.addTyped(new Prim.Fused(body.graph), ins, ShapeInference.types(n.outputs()));
                map[n.outputs().getFirst().id()] = outs.getFirst();
                continue;
            }
            List<Value> ins = new ArrayList<>();
            for (Value v : n.inputs()) ins.add(map[v.id()]);
            List<Value> outs = b.addTyped(Rewriter.withSubgraphs(n.prim(), sub -> run(sub, changes)), ins, ShapeInference.types(n.outputs()));
            for (int k = 0; k < outs.size(); k++) map[n.outputs().get(k).id()] = outs.get(k);
        }
        List<Value> outputs = new ArrayList<>();
        for (Value v : g.outputs()) outputs.add(map[v.id()]);
        return b.build(outputs);
    }

    /** Whether input {@code k} of {@code n} is the first of its inputs that reads that value. */
    private static boolean firstRead(Node n, int k) {
        for (int j = 0; j < k; j++) if (n.inputs().get(j).equals(n.inputs().get(k))) return false;
        return true;
    }

    /** Claims groups from the last node backwards so each root takes the longest chain; {@code report} gets a line per group. */
    private Groups group(List<Node> nodes, Map<Integer, Node> producer, int[] users, GroupCopies copies, List<String> report) {
        // A value a copy reads is read wherever the copy runs: it never joins a chain.
        boolean[] readByCopy = new boolean[users.length];
        for (Node n : nodes) if (copies.isCopied(n)) for (Value v : n.inputs()) readByCopy[v.id()] = true;
        Map<Node, Node> rootOf = new IdentityHashMap<>();
        Map<Node, List<Node>> groups = new IdentityHashMap<>();
        Map<Node, Set<Node>> copiesOf = new IdentityHashMap<>();
        Map<Node, Integer> position = new IdentityHashMap<>();
        for (int i = 0; i < nodes.size(); i++) position.put(nodes.get(i), i);
        for (int i = nodes.size() - 1; i >= 0; i--) {
            Node root = nodes.get(i);
            if (rootOf.containsKey(root) || copies.isCopied(root) || !isRoot(root, leadingSums)) continue;
            Shape elementShape = root.prim() instanceof Prim.Reduce ? root.inputs().getFirst().shape() : root.outputs().getFirst().shape();
            List<Node> members = new ArrayList<>();
            Set<Node> copied = Collections.newSetFromMap(new IdentityHashMap<>());
            List<String> breaks = new ArrayList<>();
            collect(root, elementShape, producer, users, readByCopy, copies, rootOf, members, copied, breaks);
            List<Node> recomputed = copied.stream().filter(n -> !GroupCopies.isScalarConstant(n))
                    .sorted(java.util.Comparator.comparing(position::get)).toList();
            if (members.size() < 2 && recomputed.isEmpty()) continue; // nothing worth fusing; members stay unclaimed
            List<Node> scalars = recomputed.stream().filter(n -> !copies.isElementCopy(n)).toList(); // the others get a line of their own
            for (Node m : members) rootOf.put(m, root);
            groups.put(root, members);
            copiesOf.put(root, copied);
            report.add("fused " + members.size() + " nodes into " + GraphText.ids(root.outputs()) + ": "
                    + String.join(" ", members.stream().map(m -> m.prim().name()).toList().reversed()));
            if (!scalars.isEmpty()) {
                report.add("  recomputes " + scalars.size() + " scalar nodes inside: "
                        + String.join(" ", scalars.stream().map(m -> GraphText.ids(m.outputs()) + "=" + m.prim().name()).toList()));
            }
            for (String b : breaks) report.add("  " + b);
        }
        return new Groups(rootOf, groups, copiesOf);
    }

    private Graph withSubgraphsFused(Graph g, Consumer<String> changes) {
        boolean any = g.nodes().stream().anyMatch(n -> n.prim() instanceof Prim.Cond || n.prim() instanceof Prim.WhileLoop);
        if (!any) return g;
        return Rewriter.rewrite(g, (n, ins, b) -> null, sub -> run(sub, changes));
    }

    /**
     * Adds {@code n}'s fusable producers (recursively) and {@code n} itself to {@code members}, and the
     * copied scalar nodes they read to {@code copied}.
     */
    private static void collect(Node n, Shape elementShape, Map<Integer, Node> producer, int[] users, boolean[] readByCopy, GroupCopies copies,
                                Map<Node, Node> claimed, List<Node> members, Set<Node> copied, List<String> breaks) {
        members.add(n);
        for (Value in : n.inputs()) {
            Node p = producer.get(in.id());
            if (p == null || claimed.containsKey(p) || members.contains(p)) continue;
            if (copies.isCopied(p)) {
                copies.addWithProducers(p, copied);
                continue;
            }
            if (p.prim() instanceof Prim.Constant || p.prim() instanceof Prim.Iota) continue; // plain data: an input
            String why = refusal(p, in, elementShape, users, readByCopy);
            if (why != null) {
                breaks.add("chain broken at " + GraphText.ids(p.outputs()) + " = " + p.prim().name() + ": " + why);
                continue;
            }
            collect(p, elementShape, producer, users, readByCopy, copies, claimed, members, copied, breaks);
        }
    }

    /** Why {@code p} (producing {@code v}) cannot join a group of {@code elementShape}, or {@code null}. */
    private static String refusal(Node p, Value v, Shape elementShape, int[] users, boolean[] readByCopy) {
        if (!isElementwise(p.prim()) && !(p.prim() instanceof Prim.Broadcast)) return p.prim().name() + " is not element-wise";
        if (users[v.id()] > 1) return "its result has " + users[v.id()] + " users";
        if (readByCopy[v.id()]) return "recomputed scalars read it";
        if (!v.shape().equals(elementShape)) return "shape change " + v.shape() + " -> " + elementShape;
        return null;
    }

    private static boolean isRoot(Node n, boolean leadingSums) {
        if (isElementwise(n.prim())) return true;
        if (n.prim() instanceof Prim.Reduce r && (r.op() == ReduceOp.SUM || r.op() == ReduceOp.REDUCE_MAX || r.op() == ReduceOp.REDUCE_MIN)) {
            int rank = n.inputs().getFirst().shape().rank();
            int[] axes = r.axes();
            boolean trailing = true, leading = axes.length > 0;
            for (int k = 0; k < axes.length; k++) {
                if (axes[k] != rank - axes.length + k) trailing = false;
                if (axes[k] != k) leading = false;
            }
            return trailing || leadingSums && leading && r.op() == ReduceOp.SUM;
        }
        return false;
    }

    static boolean isElementwise(Prim p) {
        return p instanceof Prim.Unary || p instanceof Prim.Binary || p instanceof Prim.Select || p instanceof Prim.Cast;
    }

    private record Body(Graph graph, List<Value> external) {}

    /** The members as a graph, in original order; reads from outside become inputs. */
    private static Body body(List<Node> members, List<Node> order) {
        IdentityHashMap<Node, Boolean> set = new IdentityHashMap<>();
        for (Node m : members) set.put(m, true);
        Graph.Builder b = Graph.builder();
        Map<Integer, Value> inner = new HashMap<>();
        LinkedHashMap<Integer, Value> external = new LinkedHashMap<>();
        java.util.Set<Integer> producedInside = new java.util.HashSet<>();
        for (Node n : order) if (set.containsKey(n)) for (Value v : n.outputs()) producedInside.add(v.id());
        for (Node n : order) {
            if (!set.containsKey(n)) continue;
            for (Value v : n.inputs()) {
                if (!producedInside.contains(v.id()) && !external.containsKey(v.id())) external.put(v.id(), v);
            }
        }
        for (Value v : external.values()) inner.put(v.id(), b.input(v.type()));
        Value last = null;
        for (Node n : order) {
            if (!set.containsKey(n)) continue;
            List<Value> ins = new ArrayList<>();
            for (Value v : n.inputs()) ins.add(inner.get(v.id()));
            List<Value> outs = b.addTyped(n.prim(), ins, ShapeInference.types(n.outputs()));
            for (int k = 0; k < outs.size(); k++) inner.put(n.outputs().get(k).id(), outs.get(k));
            last = outs.getFirst();
        }
        // The root is the last member in graph order (every other member feeds it).
        return new Body(b.build(List.of(last)), List.copyOf(external.values()));
    }
}
