package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.ElementwiseOp;
import dev.jburn.spi.Capabilities;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The nodes that {@link FusionPass} copies into every fused group reading them, so that they run
 * inside those groups' kernels instead of as kernels of their own (rematerialization). A producer
 * with several readers ends a fusion chain; copying it into each reader's group recomputes it there.
 * Two kinds pay for that:
 * <ul>
 *   <li>Rank-0 values. An optimizer's scalars ({@code 1 - β1^t}, {@code 1 - β2^t}) are read by the
 *       update of every parameter; without copies each is a launch of its own, and a device step ends
 *       up bound by the host's launch rate.</li>
 *   <li>Element-wise nodes with one full-size input, such as batch norm's {@code d = x - mean}, read by
 *       the variance's {@code sum(d·d)} and the backward's {@code sum(g·d)}. Stored, {@code d} costs a
 *       write and a read per reader; recomputed, each reader's group reads {@code x} instead of
 *       {@code d} (the same bytes) and the write and the node go.</li>
 * </ul>
 *
 * <p>The rule:
 * <ul>
 *   <li>Rank-0 constants are always copied (as literals). They are also kept as nodes when a reader
 *       outside every group needs them.</li>
 *   <li>A rank-0 element-wise node (unary, binary, select, cast; its inputs are then rank 0 too) whose
 *       op the engine runs natively is copied when every reader is a member of a fused group or is
 *       itself copied, and it is no graph output. A value that has to exist anyway (an output, an
 *       operand of a dot or of a reduction, a lone element-wise node's operand) is computed once and
 *       read, not recomputed. An op the engine lacks stays a node: a group holding it could not run as
 *       one kernel there.</li>
 *   <li>At most {@link #MAX_NODES} element-wise nodes come into a group with one copied value (its
 *       copied producers included, shared ones counted once); a longer scalar computation is cut there
 *       and its value read. Adam's bias correction {@code 1 - pow(0·t + β, t)} is 5.</li>
 *   <li>An element-wise node of rank &gt; 0 is copied when exactly one of its inputs has its shape and
 *       every other is smaller (an implicitly broadcast operand or a scalar); its {@code k} copies
 *       read no more bytes than writing the result and reading it {@code k} times (a {@code pred}
 *       mask computed from {@code f32} values stays stored); that input is stored anyway (a graph input
 *       or output, or read by another node too); it is no graph output; and it has two or more
 *       readers, each of which takes it into a group (an element-wise node of its shape, or a sum,
 *       max or min that may root a group over its shape) and none of which is copied itself: no chains
 *       of copies in this version, so its full-size input is read as it is.</li>
 * </ul>
 * Recomputing costs a few operations where the group's kernel is bound by memory traffic, and rounds
 * exactly as the separate kernel did (the same ops on the same values), so results do not change.
 * Engines that interpret bodies compute the rank-0 part once per group call.
 */
final class GroupCopies {
    /** The most element-wise nodes one copied value brings into a group. */
    static final int MAX_NODES = 8;

    private final Map<Integer, Node> producer;
    /** Per value id, the nodes reading it (a node once per value, however often it reads it). */
    private final Map<Integer, List<Node>> readers = new HashMap<>();
    private final Set<Integer> outputs = new HashSet<>();
    private final Set<Node> copied = Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * The copies of {@code g}: every rank-0 constant, and (with {@code natives} non-null) every rank-0
     * element-wise node whose op {@code natives} supports, within the size bound, and every element-wise
     * node worth recomputing in its readers' groups ({@code groupRoot}: which reductions may root a
     * group). {@link #keepNeeded} then drops those a reader outside the groups needs.
     */
    GroupCopies(Graph g, Map<Integer, Node> producer, Capabilities natives, Predicate<Node> groupRoot) {
        this.producer = producer;
        for (Value v : g.outputs()) outputs.add(v.id());
        for (Node n : g.nodes()) {
            for (Value in : new HashSet<>(n.inputs())) readers.computeIfAbsent(in.id(), k -> new ArrayList<>()).add(n);
        }
        Map<Node, Set<Node>> closures = new IdentityHashMap<>();
        for (Node n : g.nodes()) {
            if (isScalarConstant(n)) {
                copied.add(n);
            } else if (natives != null && isScalarElementwise(n) && nativeOn(n, natives)) {
                Set<Node> closure = Collections.newSetFromMap(new IdentityHashMap<>());
                closure.add(n);
                for (Value in : n.inputs()) {
                    Node p = producer.get(in.id());
                    if (p != null && closures.containsKey(p)) closure.addAll(closures.get(p));
                }
                if (closure.size() <= MAX_NODES) {
                    copied.add(n);
                    closures.put(n, closure);
                }
            }
        }
        // readers first: a node that a copy reads stays a node
        if (natives != null) for (Node n : g.nodes().reversed()) if (recomputedPerGroup(n, groupRoot)) copied.add(n);
    }

    /** Whether element-wise {@code n} of rank &gt; 0 is recomputed in each reader's group (the last case of the rule). */
    private boolean recomputedPerGroup(Node n, Predicate<Node> groupRoot) {
        if (!FusionPass.isElementwise(n.prim()) || n.outputs().size() != 1 || outputs.contains(n.output().id())) return false;
        Shape shape = n.output().shape();
        if (shape.rank() == 0 || shape.isOpen()) return false;
        Value full = null; // the one input of n's shape
        for (Value in : new HashSet<>(n.inputs())) {
            if (!in.shape().equals(shape)) {
                if (in.shape().isOpen() || in.shape().size() >= shape.size()) return false;
            } else if (full != null) {
                return false;
            } else {
                full = in;
            }
        }
        List<Node> rs = readers.getOrDefault(n.output().id(), List.of());
        if (full == null || rs.size() < 2) return false;
        // An input that n alone reads is stored only for n: n's own group may take its producer, or an engine may
        // finish that producer's kernel with n (a conv's bias add); copies would make it a stored value read k times.
        if (producer.containsKey(full.id()) && !outputs.contains(full.id()) && readers.get(full.id()).size() == 1) return false;
        // k copies read the full-size input k times; storing writes the result once and reads it k times (so a
        // byte mask computed from floats stays stored)
        long k = rs.size();
        if (k * full.type().byteSize() > (k + 1) * n.output().type().byteSize()) return false;
        for (Node r : rs) {
            boolean takesIt = FusionPass.isElementwise(r.prim()) ? r.output().shape().equals(shape)
                    : r.prim() instanceof Prim.Reduce && groupRoot.test(r) && r.inputs().getFirst().shape().equals(shape);
            if (!takesIt || copied.contains(r)) return false;
        }
        return true;
    }

    /** Whether {@code n} is a copied node of rank &gt; 0 (one recomputed per group, not a scalar). */
    boolean isElementCopy(Node n) { return copied.contains(n) && n.output().shape().rank() > 0; }

    /** Whether {@code n} is copied into the groups that read it. */
    boolean isCopied(Node n) { return copied.contains(n); }

    /** Adds {@code n} and the copied nodes it reads, transitively, to {@code into}. */
    void addWithProducers(Node n, Set<Node> into) {
        if (!into.add(n)) return;
        for (Value in : n.inputs()) {
            Node p = producer.get(in.id());
            if (p != null && copied.contains(p)) addWithProducers(p, into);
        }
    }

    /**
     * Stops copying the element-wise nodes that a reader outside the groups ({@code grouped}) needs, or
     * that are graph outputs; returns whether any changed (the groups are then formed again).
     */
    boolean keepNeeded(Set<Node> grouped) {
        List<Node> keep = new ArrayList<>();
        for (Node n : copied) {
            if (!isScalarConstant(n) && alsoANode(n, grouped)) keep.add(n);
        }
        keep.forEach(copied::remove);
        return !keep.isEmpty();
    }

    /**
     * Whether copied {@code n} must also run as a node of its own: it is a graph output, or a node outside
     * the groups ({@code grouped}: their members) that is not copied itself reads it.
     */
    boolean alsoANode(Node n, Set<Node> grouped) {
        if (outputs.contains(n.output().id())) return true;
        for (Node r : readers.getOrDefault(n.output().id(), List.of())) {
            if (!grouped.contains(r) && !copied.contains(r)) return true;
        }
        return false;
    }

    static boolean isScalarConstant(Node n) {
        return n.prim() instanceof Prim.Constant c && c.shape().rank() == 0;
    }

    private static boolean isScalarElementwise(Node n) {
        return FusionPass.isElementwise(n.prim()) && n.outputs().size() == 1 && n.output().shape().rank() == 0;
    }

    /** Whether the engine runs {@code n}'s op natively on its operand types (else a group holding it would fall apart there). */
    private static boolean nativeOn(Node n, Capabilities natives) {
        DType in = n.inputs().get(n.prim() instanceof Prim.Select ? 1 : 0).dtype();
        return switch (n.prim()) {
            case Prim.Unary u -> natives.supports(u.op(), in);
            case Prim.Binary b -> natives.supports(b.op(), in);
            case Prim.Select s -> natives.supports(ElementwiseOp.SELECT, in);
            case Prim.Cast c -> natives.supports(ElementwiseOp.AS_TYPE, in) && natives.supports(ElementwiseOp.AS_TYPE, c.to());
            default -> false;
        };
    }
}
