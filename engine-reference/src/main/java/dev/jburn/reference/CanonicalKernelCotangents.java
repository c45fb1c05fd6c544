package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.Graph;
import dev.jburn.graph.GraphRewriteCache;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Kernel cotangents of canonical-layout conv layers in Jit graphs. Autodiff traces one as {@code conv(transpose(x, [1,0,2..]),
 * transpose(g, [1,0,2..]))} → {@code transpose [1,0,2..]} (x {@code [N, C, s...]}, the output cotangent g {@code [N, O,
 * o...]}, the result {@code [O, C, k...]}): each transpose a 6.4 MB copy on the ResNet-like conv, before
 * {@link KernelCotangentConvF32} copies both operands again to channels-last. Before the cpu engine interprets a graph,
 * {@link #rewrite} replaces each such group (an F32 conv that {@link KernelCotangentConvF32#applies} takes, transposes with
 * no other reader) with a {@link Prim.Fused} node whose body is the group itself; {@link #run} executes it from {@code x}
 * and {@code g} directly: one channels-last copy of each, the result written in its final layout. If the kernel declines
 * at run time, the interpreter runs the body: same results, old speed. A 3×3 layer's kernel cotangent (unit strides,
 * padding at most 1) makes no copies at all: {@link WinogradKernelCotangentF32} reads the NCHW planes chunk by chunk.
 */
final class CanonicalKernelCotangents {
    private final Parallel parallel;
    private final boolean enabled;
    private final GraphRewriteCache rewritten = new GraphRewriteCache(this::rewriteOnce);
    /** The conv of each body this class made. */
    private final Map<Graph, Prim.Conv> plans = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    CanonicalKernelCotangents(Parallel parallel, boolean enabled) {
        this.parallel = parallel;
        this.enabled = enabled;
    }

    /** {@code g} with its canonical kernel-cotangent groups as fused nodes, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) {
        return enabled ? rewritten.get(g) : g;
    }

    /** Runs a fused node made by {@link #rewrite}, or returns {@code null} (not ours, or declined). */
    List<Buffer> run(Node node, List<Operand> in) {
        Prim.Conv conv = GraphRewriteCache.planOf(node, plans);
        if (conv == null) return null;
        Operand x = in.get(0), g = in.get(1);
        ConvGeometry geo = new ConvGeometry(swapped(x.shape()), swapped(g.shape()), conv.spec());
        HostBuffer out = HostBuffer.uninitialized(geo.outSize() * Float.BYTES);
        if (KernelCotangentConvF32.run(geo, HostBuffer.of(x.buffer()), HostBuffer.of(g.buffer()), out.segment(), parallel, true)) {
            return List.of(out);
        }
        out.release();
        return null;
    }

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        IdentityHashMap<Node, Node> replaced = new IdentityHashMap<>();
        IdentityHashMap<Node, Boolean> dropped = new IdentityHashMap<>();
        for (Node n : g.nodes()) {
            if (!(n.prim() instanceof Prim.Conv conv) || conv.out() != DType.F32 || n.inputs().size() != 2) continue;
            Value a = n.inputs().get(0), k = n.inputs().get(1);
            if (a.dtype() != DType.F32 || k.dtype() != DType.F32) continue;
            int r = a.shape().rank();
            Node lhs = idx.soleProducer(a), rhs = idx.soleProducer(k), after = idx.soleReader(n.outputs().getFirst());
            if (lhs == null || rhs == null || lhs == rhs || after == null || dropped.containsKey(lhs) || dropped.containsKey(rhs)
                    || !swaps(lhs, r) || !swaps(rhs, r) || !swaps(after, r)) continue;
            if (!KernelCotangentConvF32.applies(new ConvGeometry(a.shape(), k.shape(), conv.spec()))) continue;
            Graph.Builder b = Graph.builder();
            Value bx = b.input(lhs.inputs().getFirst().type()), bg = b.input(rhs.inputs().getFirst().type());
            Value y = b.add(conv, List.of(b.add1(lhs.prim(), bx), b.add1(rhs.prim(), bg))).getFirst();
            Graph body = b.build(List.of(b.add1(after.prim(), y)));
            plans.put(body, conv);
            replaced.put(n, new Node(new Prim.Fused(body), List.of(lhs.inputs().getFirst(), rhs.inputs().getFirst()), after.outputs()));
            dropped.put(lhs, true);
            dropped.put(rhs, true);
            dropped.put(after, true);
        }
        return GraphRewriteCache.replace(g, replaced, dropped);
    }

    /** Whether {@code n} transposes by {@code [1, 0, 2, ..., r-1]}. */
    private static boolean swaps(Node n, int r) {
        return n.prim() instanceof Prim.Transpose t && n.inputs().size() == 1
                && java.util.Arrays.equals(t.perm(), IntStream.range(0, r).map(i -> i < 2 ? 1 - i : i).toArray());
    }

    /** {@code s} with its first two axes swapped. */
    private static Shape swapped(Shape s) {
        int[] d = s.dims().clone();
        d[0] = s.dim(1);
        d[1] = s.dim(0);
        return Shape.of(d);
    }
}
