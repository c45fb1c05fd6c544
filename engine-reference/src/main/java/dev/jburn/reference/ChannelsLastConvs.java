package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Channels-last convolutions in Jit graphs. The front end runs every conv in the canonical layout,
 * so a channels-last layer's conv is traced as transpose → conv → transpose, and its gradient
 * likewise: on a small CNN those layout copies cost as much as the convs. Before the cpu engine
 * interprets a graph, {@link #rewrite} replaces each such group (an F32, ungrouped, undilated
 * conv whose transposes have no other reader) with a {@link Prim.Fused} node whose body is the
 * group itself; {@link #run} executes it with {@link ChannelsLastConvF32} straight on the
 * channels-last tensors. The groups are {@link ChannelsLastConvGroups}' (shared with the cuda engine), two shapes:
 * <ul>
 *   <li>input {@code [N, s..., C]} → {@code transpose [0, r-1, 1..]} → conv(·, kernel) →
 *       {@code transpose [0, 2.., 1]} (the forward conv and the input cotangent), and the add of a
 *       bias {@code [C_out]} that follows (a layer's) when it is the only reader, and then a ReLU: {@code max(z, 0)}
 *       (the nn layers' form), or {@code mask = z <= 0}, {@code select(mask, 0, z)} (the mask is an output too);</li>
 *   <li>conv({@code transpose(x, [r-1, 0..])}, {@code transpose(g, [r-1, 0..])}) →
 *       {@code transpose [2.., 0, 1]} (the kernel cotangent, HWIO).</li>
 * </ul>
 * If the kernel declines a group at run time, the interpreter runs its body: same results, old speed.
 */
final class ChannelsLastConvs {

    /**
     * {@code relu}: the group ends in a ReLU; {@code mask}: as {@code z <= 0} and {@code select(mask, 0, z)} (two outputs,
     * the mask kept for the backward pass), else as {@code max(z, 0)} (one output; nn layers' ReLU, whose gradient reads it).
     */
    private record Plan(Kind kind, Prim.Conv conv, boolean relu, boolean mask) {}

    private final Parallel parallel;
    private final boolean enabled;
    private final dev.jburn.graph.GraphRewriteCache rewritten = new dev.jburn.graph.GraphRewriteCache(this::rewriteOnce);
    /** The plan of each body this class made. */
    private final Map<Graph, Plan> plans = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    ChannelsLastConvs(Parallel parallel, boolean enabled) {
        this.parallel = parallel;
        this.enabled = enabled;
    }

    /** {@code g} with its channels-last conv groups as fused nodes, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) {
        if (!enabled) return g;
        return rewritten.get(g);
    }

    /** Runs a fused node made by {@link #rewrite}, or returns {@code null} (not ours, or declined). */
    List<Buffer> run(Node node, List<Operand> in) {
        if (!(node.prim() instanceof Prim.Fused f)) return null;
        Plan p = plans.get(f.body());
        if (p == null) return null;
        Operand a = in.get(0), b = in.get(1);
        List<Buffer> out = switch (p.kind) {
            case FORWARD -> {
                MemorySegment x = HostBuffer.of(a.buffer()), k = HostBuffer.of(b.buffer()), bias = in.size() > 2 ? HostBuffer.of(in.get(2).buffer()) : null;
                // Winograd first where it applies (null: a non-finite result, which the direct form computes); with AVX2
                // F(4×4, 3×3) before F(2×2, 3×3): a plain conv (the input cotangent) wherever it fits, one with a bias or
                // ReLU (the layer's forward) where F(2×2)'s applies, which weighs the products against the direct form's
                boolean plain = bias == null && !p.relu && !p.mask;
                boolean f2 = ChannelsLastWinogradF32.applies(a.shape(), b.shape(), p.conv.spec());
                List<Buffer> w = (plain || f2) && ChannelsLastWinograd4x4F32.applies(a.shape(), b.shape(), p.conv.spec())
                        ? ChannelsLastWinograd4x4F32.forward(x, a.shape(), k, b.shape(), bias, p.relu, p.mask, p.conv.spec(), parallel) : null;
                if (w == null && f2) w = ChannelsLastWinogradF32.forward(x, a.shape(), k, b.shape(), bias, p.relu, p.mask, p.conv.spec(), parallel);
                // then, with few input channels on AVX2 (conv 1), the form whose tile spans 32 filters (the same bits)
                if (w == null && ChannelsLastFewChannelsF32.applies(a.shape(), b.shape(), p.conv.spec())) {
                    w = ChannelsLastFewChannelsF32.forward(x, a.shape(), k, b.shape(), bias, p.relu, p.mask, p.conv.spec(), parallel);
                }
                yield w != null ? w : ChannelsLastConvF32.forward(x, a.shape(), k, b.shape(), bias, p.relu, p.mask, p.conv.spec(), parallel);
            }
            case KERNEL_GRADIENT -> {
                MemorySegment x = HostBuffer.of(a.buffer()), g = HostBuffer.of(b.buffer());
                // Winograd first where it applies (null: a non-finite result, which the direct form computes)
                HostBuffer k = ChannelsLastWinogradKernelCotangentF32.applies(a.shape(), b.shape(), p.conv.spec())
                        ? ChannelsLastWinogradKernelCotangentF32.kernelGradient(x, a.shape(), g, b.shape(), p.conv.spec(), parallel) : null;
                if (k == null) k = ChannelsLastConvF32.kernelGradient(x, a.shape(), g, b.shape(), p.conv.spec(), parallel);
                yield k == null ? null : List.of(k);
            }
        };
        return out;
    }

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        List<ChannelsLastConvGroups.Group> groups = ChannelsLastConvGroups.find(g, idx,
                n -> n.prim() instanceof Prim.Conv conv && conv.out() == DType.F32 && ChannelsLastConvF32.applies(conv.spec()));
        IdentityHashMap<Node, Node> replaced = new IdentityHashMap<>(); // conv -> its fused node
        IdentityHashMap<Node, Boolean> dropped = new IdentityHashMap<>();
        for (ChannelsLastConvGroups.Group gr : groups) {
            Node n = gr.conv(), after = gr.after();
            Node fusedNode;
            if (gr.kind() == Kind.FORWARD) {
                Node lhs = gr.operandMoves().getFirst();
                Node bias = biasAdd(after, idx);
                if (bias != null && !dropped.containsKey(bias)) {
                    // the layer's bias joins too, and its ReLU: applied to each image's output while it is in cache
                    Value b = bias.inputs().get(0).equals(after.outputs().getFirst()) ? bias.inputs().get(1) : bias.inputs().get(0);
                    List<Node> relu = relu(bias, idx);
                    if (relu == null) relu = reluMax(bias, idx);
                    if (relu != null && relu.stream().anyMatch(dropped::containsKey)) relu = null;
                    fusedNode = fused(Kind.FORWARD, gr.prim(), List.of(lhs), List.of(lhs.inputs().getFirst(), n.inputs().get(1), b), n, after, bias, relu,
                            null);
                    dropped.put(bias, true);
                    if (relu != null) relu.forEach(x -> dropped.put(x, true));
                } else if ((bias = fusedBiasRelu(after, idx)) != null && !dropped.containsKey(bias)) {
                    // the fusion pass grouped the bias and the ReLU: [add, max] of that group's body join the conv
                    Value b = bias.inputs().get(0).equals(after.outputs().getFirst()) ? bias.inputs().get(1) : bias.inputs().get(0);
                    List<Node> body = ((Prim.Fused) bias.prim()).body().nodes().stream().filter(x -> !(x.prim() instanceof Prim.Constant)).toList();
                    fusedNode = fused(Kind.FORWARD, gr.prim(), List.of(lhs), List.of(lhs.inputs().getFirst(), n.inputs().get(1), b), n, after,
                            body.get(0), List.of(body.get(1)), bias.outputs());
                    dropped.put(bias, true);
                } else {
                    fusedNode = fused(Kind.FORWARD, gr.prim(), List.of(lhs), gr.inputs(), n, after, null, null, null);
                }
            } else {
                fusedNode = fused(Kind.KERNEL_GRADIENT, gr.prim(), gr.operandMoves(), gr.inputs(), n, after, null, null, null);
            }
            gr.operandMoves().forEach(m -> dropped.put(m, true));
            replaced.put(n, fusedNode);
            dropped.put(after, true);
        }
        return dev.jburn.graph.GraphRewriteCache.replace(g, replaced, dropped);
    }

    /**
     * The fused node for {@code conv} (reading {@code operandTransposes}' outputs), taking {@code ins} and giving
     * {@code after}'s output, or {@code bias}'s (an add of {@code after}'s output and {@code ins}' third value) when given,
     * or the ReLU's; {@code outerOuts}, when given, are the values the fused node gives instead (those of a group that
     * held the bias and the ReLU).
     */
    private Node fused(Kind kind, Prim.Conv conv, List<Node> operandTransposes, List<Value> ins, Node convNode, Node after, Node bias,
                       List<Node> relu, List<Value> outerOuts) {
        Graph.Builder b = Graph.builder();
        List<Value> bodyIns = new ArrayList<>();
        for (Value v : ins) bodyIns.add(b.input(v.type()));
        List<Value> convIns = new ArrayList<>();
        if (kind == Kind.FORWARD) {
            convIns.add(b.add1(operandTransposes.getFirst().prim(), bodyIns.get(0)));
            convIns.add(bodyIns.get(1));
        } else {
            convIns.add(b.add1(operandTransposes.get(0).prim(), bodyIns.get(0)));
            convIns.add(b.add1(operandTransposes.get(1).prim(), bodyIns.get(1)));
        }
        Value y = b.add(conv, convIns).getFirst();
        Value z = b.add1(after.prim(), y);
        if (bias != null) z = b.add1(bias.prim(), z, bodyIns.get(2));
        List<Value> outs = List.of(z);
        List<Value> nodeOuts = (bias != null ? bias : after).outputs();
        if (relu != null && relu.size() == 2) {
            Value zero = b.constant(new byte[Float.BYTES], DType.F32, dev.jburn.Shape.scalar());
            Value mask = b.add1(relu.get(0).prim(), z, zero);
            outs = List.of(mask, b.add1(relu.get(1).prim(), mask, zero, z));
            nodeOuts = List.of(relu.get(0).outputs().getFirst(), relu.get(1).outputs().getFirst());
        } else if (relu != null) {
            Value zero = b.constant(new byte[Float.BYTES], DType.F32, dev.jburn.Shape.scalar());
            outs = List.of(b.add1(relu.getFirst().prim(), z, zero));
            nodeOuts = relu.getFirst().outputs();
        }
        if (outerOuts != null) nodeOuts = outerOuts;
        Graph body = b.build(outs);
        plans.put(body, new Plan(kind, conv, relu != null, relu != null && relu.size() == 2));
        return new Node(new Prim.Fused(body), ins, nodeOuts);
    }

    /**
     * The ReLU reading {@code bias}'s output {@code z} and nothing else reading it: {@code [mask, select]} for
     * {@code mask = lessEqual(z, 0)} and {@code select(mask, 0, z)} (0 a +0.0 scalar constant), as traced; else {@code null}.
     */
    private static List<Node> relu(Node bias, ChannelsLastConvGroups.Index idx) {
        Value z = bias.outputs().getFirst();
        List<Node> r = idx.readers(z);
        if (r.size() != 2 || idx.isOutput(z)) return null;
        Node le = r.get(0), sel = r.get(1);
        if (!(le.prim() instanceof Prim.Binary bin) || bin.op() != dev.jburn.op.BinaryOp.LESS_EQUAL || !bin.outShape().equals(z.shape())
                || !le.inputs().get(0).equals(z) || !isZero(le.inputs().get(1), idx)) return null;
        Value mask = le.outputs().getFirst();
        if (!(sel.prim() instanceof Prim.Select) || sel.inputs().size() != 3 || !sel.inputs().get(0).equals(mask)
                || !isZero(sel.inputs().get(1), idx) || !sel.inputs().get(2).equals(z) || !sel.outputs().getFirst().type().equals(z.type())) {
            return null;
        }
        return List.of(le, sel);
    }

    /** The ReLU {@code max(z, 0)} (0 a +0.0 scalar constant, either side) as the one reader of {@code bias}'s output {@code z}; else {@code null}. */
    private static List<Node> reluMax(Node bias, ChannelsLastConvGroups.Index idx) {
        Value z = bias.outputs().getFirst();
        Node max = idx.soleReader(z);
        if (max == null || idx.isOutput(z) || !(max.prim() instanceof Prim.Binary bin) || bin.op() != dev.jburn.op.BinaryOp.MAX
                || !bin.outShape().equals(z.shape()) || bin.out() != DType.F32 || max.inputs().size() != 2) return null;
        Value other = max.inputs().get(0).equals(z) ? max.inputs().get(1) : max.inputs().get(0);
        return isZero(other, idx) ? List.of(max) : null;
    }

    /**
     * The fused group that is the one reader of {@code after}'s output {@code y} and computes exactly
     * {@code max(y + bias, 0)} for an F32 {@code bias [O]} (0 a +0.0 constant): a layer's bias and ReLU as the fusion pass
     * groups them; else {@code null}.
     */
    private static Node fusedBiasRelu(Node after, ChannelsLastConvGroups.Index idx) {
        Value y = after.outputs().getFirst();
        Node f = idx.soleReader(y);
        if (f == null || !(f.prim() instanceof Prim.Fused fused) || f.inputs().size() != 2 || f.outputs().size() != 1) return null;
        Value other = f.inputs().get(0).equals(y) ? f.inputs().get(1) : f.inputs().get(0);
        if (other.equals(y) || !isF32(other) || other.shape().rank() != 1 || other.shape().dim(0) != y.shape().dim(y.shape().rank() - 1)) return null;
        Graph body = fused.body();
        List<Node> ops = body.nodes().stream().filter(x -> !(x.prim() instanceof Prim.Constant)).toList();
        if (ops.size() != 2 || body.outputs().size() != 1) return null;
        Node add = ops.get(0), max = ops.get(1);
        Value by = body.inputs().get(f.inputs().indexOf(y)), bb = body.inputs().get(1 - f.inputs().indexOf(y));
        if (!(add.prim() instanceof Prim.Binary a) || a.op() != dev.jburn.op.BinaryOp.ADD || a.out() != DType.F32
                || !a.outShape().equals(y.shape()) || !add.inputs().contains(by) || !add.inputs().contains(bb)) return null;
        Value z = add.outputs().getFirst();
        if (!(max.prim() instanceof Prim.Binary m) || m.op() != dev.jburn.op.BinaryOp.MAX || m.out() != DType.F32
                || !m.outShape().equals(y.shape()) || !max.outputs().getFirst().equals(body.outputs().getFirst())) return null;
        Value zero = max.inputs().get(0).equals(z) ? max.inputs().get(1) : max.inputs().get(0);
        if (!max.inputs().contains(z) || zero.equals(z)) return null;
        Node c = body.nodes().stream().filter(x -> x.outputs().getFirst().equals(zero)).findFirst().orElse(null);
        return isZeroConstant(c) ? f : null;
    }

    /** Whether {@code v} is an F32 scalar constant +0.0. */
    private static boolean isZero(Value v, ChannelsLastConvGroups.Index idx) {
        return isZeroConstant(idx.producer(v));
    }

    /** Whether {@code p} is an F32 scalar constant +0.0 ({@code null}: no). */
    private static boolean isZeroConstant(Node p) {
        return p != null && p.prim() instanceof Prim.Constant c && c.dtype() == DType.F32 && c.shape().rank() == 0
                && java.util.Arrays.equals(c.bytes(), new byte[Float.BYTES]);
    }

    /**
     * The node adding a bias {@code [O]} (F32) to {@code after}'s output {@code [N, o..., O]}, when that
     * is its one reader; else {@code null}.
     */
    private static Node biasAdd(Node after, ChannelsLastConvGroups.Index idx) {
        Value y = after.outputs().getFirst();
        Node add = idx.soleReader(y);
        if (add == null || !(add.prim() instanceof Prim.Binary bin) || bin.op() != dev.jburn.op.BinaryOp.ADD || bin.out() != DType.F32
                || !bin.outShape().equals(y.shape()) || add.inputs().size() != 2) return null;
        Value other = add.inputs().get(0).equals(y) ? add.inputs().get(1) : add.inputs().get(0);
        if (other.equals(y) || !isF32(other) || other.shape().rank() != 1 || other.shape().dim(0) != y.shape().dim(y.shape().rank() - 1)) return null;
        return add;
    }

    private static boolean isF32(Value v) { return v.dtype() == DType.F32; }
}
