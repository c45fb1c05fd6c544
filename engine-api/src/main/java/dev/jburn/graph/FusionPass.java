package dev.jburn.graph;

import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Groups chains of element-wise nodes into {@link Prim.Fused} nodes. A group has one root, the
 * last node of the chain: an element-wise node or a sum/max/min over trailing axes. Walking from
 * the root towards the graph inputs, a producer joins the group when it is element-wise (unary,
 * binary, select, cast) or a broadcast, produces the group's element shape (a broadcast may
 * change shape: its input becomes a group input), and has no reader outside the group. Scalar
 * constants are copied into the body. Every other producer ends the chain there; the report
 * says why (several readers, not element-wise, shape change). Groups of one node stay as they are.
 *
 * <p>The body's inputs are the values the group reads from outside, in first-use order; its one
 * output is the root's. Fused bodies are not rewritten by later passes.
 */
final class FusionPass implements Pass {
    @Override public String name() { return "fusion"; }

    @Override
    public Graph run(Graph g, Consumer<String> changes) {
        List<Node> nodes = g.nodes();
        int[] users = new int[g.idLimit()];
        Map<Integer, Node> producer = new HashMap<>();
        for (Node n : nodes) {
            for (Value v : n.inputs()) users[v.id()]++;
            for (Value v : n.outputs()) producer.put(v.id(), n);
        }
        for (Value v : g.outputs()) users[v.id()]++;

        // Claim groups from the last node backwards so each root takes the longest chain.
        Map<Node, Node> rootOf = new IdentityHashMap<>();
        Map<Node, List<Node>> groups = new IdentityHashMap<>();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            Node root = nodes.get(i);
            if (rootOf.containsKey(root) || !isRoot(root)) continue;
            Shape elementShape = root.prim() instanceof Prim.Reduce ? root.inputs().getFirst().shape() : root.outputs().getFirst().shape();
            List<Node> members = new ArrayList<>();
            List<String> breaks = new ArrayList<>();
            collect(root, elementShape, producer, users, rootOf, members, breaks);
            if (members.size() < 2 || members.stream().allMatch(FusionPass::isScalarConstant)
                    || members.stream().filter(m -> !isScalarConstant(m)).count() < 2) {
                continue; // nothing worth fusing; members stay unclaimed
            }
            for (Node m : members) rootOf.put(m, root);
            groups.put(root, members);
            StringBuilder line = new StringBuilder("fused ");
            line.append(members.stream().filter(m -> !isScalarConstant(m)).count()).append(" nodes into ")
                    .append(GraphText.ids(root.outputs())).append(": ")
                    .append(String.join(" ", members.stream().filter(m -> !isScalarConstant(m)).map(m -> m.prim().name()).toList().reversed()));
            changes.accept(line.toString());
            for (String b : breaks) changes.accept("  " + b);
        }
        if (groups.isEmpty()) return withSubgraphsFused(g, changes);

        Graph.Builder b = Graph.builder();
        Value[] map = new Value[g.idLimit()];
        for (Value in : g.inputs()) map[in.id()] = b.input(in.type());
        for (Node n : nodes) {
            Node root = rootOf.get(n);
            if (root != null && root != n && !(isScalarConstant(n) && users[n.outputs().getFirst().id()] > 1)) continue; // emitted with its root
            if (root == n) {
                List<Node> members = groups.get(n);
                Body body = body(members, nodes);
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

    private Graph withSubgraphsFused(Graph g, Consumer<String> changes) {
        boolean any = g.nodes().stream().anyMatch(n -> n.prim() instanceof Prim.Cond || n.prim() instanceof Prim.WhileLoop);
        if (!any) return g;
        return Rewriter.rewrite(g, (n, ins, b) -> null, sub -> run(sub, changes));
    }

    /** Adds {@code n}'s fusable producers (recursively) and {@code n} itself to {@code members}. */
    private static void collect(Node n, Shape elementShape, Map<Integer, Node> producer, int[] users, Map<Node, Node> claimed,
                                List<Node> members, List<String> breaks) {
        members.add(n);
        for (Value in : n.inputs()) {
            Node p = producer.get(in.id());
            if (p == null || claimed.containsKey(p) || members.contains(p)) continue;
            if (isScalarConstant(p)) {
                members.add(p);
                continue;
            }
            if (p.prim() instanceof Prim.Constant || p.prim() instanceof Prim.Iota) continue; // plain data: an input
            String why = refusal(p, in, elementShape, users);
            if (why != null) {
                breaks.add("chain broken at " + GraphText.ids(p.outputs()) + " = " + p.prim().name() + ": " + why);
                continue;
            }
            collect(p, elementShape, producer, users, claimed, members, breaks);
        }
    }

    /** Why {@code p} (producing {@code v}) cannot join a group of {@code elementShape}, or {@code null}. */
    private static String refusal(Node p, Value v, Shape elementShape, int[] users) {
        if (!isElementwise(p.prim()) && !(p.prim() instanceof Prim.Broadcast)) return p.prim().name() + " is not element-wise";
        if (users[v.id()] > 1) return "its result has " + users[v.id()] + " users";
        if (!v.shape().equals(elementShape)) return "shape change " + v.shape() + " -> " + elementShape;
        return null;
    }

    private static boolean isRoot(Node n) {
        if (isElementwise(n.prim())) return true;
        if (n.prim() instanceof Prim.Reduce r && (r.op() == ReduceOp.SUM || r.op() == ReduceOp.REDUCE_MAX || r.op() == ReduceOp.REDUCE_MIN)) {
            int rank = n.inputs().getFirst().shape().rank();
            int[] axes = r.axes();
            for (int k = 0; k < axes.length; k++) if (axes[k] != rank - axes.length + k) return false;
            return true;
        }
        return false;
    }

    static boolean isElementwise(Prim p) {
        return p instanceof Prim.Unary || p instanceof Prim.Binary || p instanceof Prim.Select || p instanceof Prim.Cast;
    }

    private static boolean isScalarConstant(Node n) {
        return n.prim() instanceof Prim.Constant c && c.shape().rank() == 0;
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
