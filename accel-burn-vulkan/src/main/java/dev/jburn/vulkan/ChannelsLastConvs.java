package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;
import dev.jburn.graph.Graph;
import dev.jburn.graph.GraphRewriteCache;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.kernels.DirectConvPlan;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Channels-last convolutions in Jit graphs on the Vulkan engine. The front end runs every conv in the canonical
 * layout, so a channels-last layer's conv and its gradients trace as layout moves around a canonical conv
 * ({@link ChannelsLastConvGroups}); before the engine interprets a graph, {@link #rewrite} replaces each ungrouped
 * f32 group with a {@link Prim.Fused} node whose body is the group, and {@link #run} executes it as one
 * implicit GEMM ({@link ConvGemmShader}) that reads the channels-last operands and writes the channels-last result
 * in place, through strides:
 * <ul>
 *   <li>{@link Kind#FORWARD}, {@code x [N, s..., C]} and the conv's kernel {@code [O, C, k...]} to
 *       {@code [N, o..., O]} (a forward conv and an input cotangent);</li>
 *   <li>{@link Kind#KERNEL_GRADIENT}, {@code x [N, s..., C]} and the cotangent {@code g [N, a..., O]} to
 *       {@code [k..., C, O]}.</li>
 * </ul>
 * Why: the small CNN's step spent 11 of its ~170 dispatches on those layout moves, each a full pass over an
 * activation. If {@link #run} declines (a limit of the shader or the device), the interpreter runs the body: the
 * same results, the old speed. {@code -Djburn.vulkan.channelsLast=false} leaves graphs as they are, to compare.
 */
final class ChannelsLastConvs {
    /** How a body this class made runs: its kind and the conv's canonical operand shapes and spec. */
    record Plan(Kind kind, ConvSpec spec, Shape convInput, Shape convKernel) {}

    private final ConvKernels convs;
    private final boolean on = !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.channelsLast"));
    private final GraphRewriteCache rewritten = new GraphRewriteCache(this::rewriteOnce);
    private final Map<Graph, Plan> plans = Collections.synchronizedMap(new WeakHashMap<>());
    /** Groups run as strided implicit GEMMs, by kind (for tests: which ran). */
    final java.util.concurrent.atomic.AtomicLong forwardRuns = new java.util.concurrent.atomic.AtomicLong(),
            kernelGradientRuns = new java.util.concurrent.atomic.AtomicLong();

    ChannelsLastConvs(ConvKernels convs) { this.convs = convs; }

    /** {@code g} with its channels-last conv groups as fused nodes, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) { return on ? rewritten.get(g) : g; }

    /** Runs a fused node made by {@link #rewrite}, or returns {@code null} (not ours, or declined). */
    List<Buffer> run(Node node, List<Operand> in) {
        if (!(node.prim() instanceof Prim.Fused f)) return null;
        Plan p = plans.get(f.body());
        if (p == null) return null;
        Operand x = in.get(0), other = in.get(1);
        if (x.dtype() != DType.F32 || other.dtype() != DType.F32) return null;
        int[] words = DirectConvPlan.params(p.convInput, p.convKernel, p.spec);
        if (words == null) return null;
        Shape outShape = node.outputs().getFirst().shape();
        if (DirectConvPlan.outputSize(words) != outShape.size()) return null;
        DeviceBuffer r = convs.strided(x, other, words, strides(p.kind, x.shape(), other.shape(), outShape));
        if (r == null) return null;
        (p.kind == Kind.FORWARD ? forwardRuns : kernelGradientRuns).incrementAndGet();
        return List.of(r);
    }

    /**
     * The strides through which the canonical conv of a group of {@code kind} reads {@code x [N, s..., C]} and the
     * other operand and writes the group's output {@code out}, in {@link ConvGemmShader.Strides}' terms.
     */
    static ConvGemmShader.Strides strides(Kind kind, Shape x, Shape other, Shape out) {
        int r = x.rank() - 2;
        long c = x.dim(r + 1);
        long[] xs = channelsLast(x), os = channelsLast(other);
        if (kind == Kind.FORWARD) {
            // input (n, c, s) = x[n, s, c]; kernel canonical; output (n, o, q) = out[n, q, o]
            long[] k = new long[r];
            for (int d = 0; d < r; d++) k[d] = other.dim(2 + d);
            return new ConvGemmShader.Strides(xs, ConvGemmShader.Strides.rowMajor(other.dim(1), k), channelsLast(out));
        }
        // input (c, n, s) = x[n, s, c]; kernel (o, n, a) = g[n, a, o]; output (c, o, k) = out[k, c, o]
        long[] in = xs.clone(), w = os.clone(), y = new long[r + 2];
        in[0] = xs[1];
        in[1] = xs[0];
        w[0] = os[1];
        w[1] = os[0];
        long step = 1;
        y[1] = step; // o
        step *= out.dim(r + 1);
        y[0] = step; // c
        step *= c;
        for (int d = r - 1; d >= 0; d--) {
            y[2 + d] = step;
            step *= out.dim(d);
        }
        return new ConvGemmShader.Strides(in, w, y);
    }

    /** Strides of {@code t [n, s..., c]} in the canonical order {@code (n, c, s...)}. */
    private static long[] channelsLast(Shape t) {
        int r = t.rank() - 2;
        long[] st = new long[r + 2];
        long step = 1;
        st[1] = step;
        step *= t.dim(r + 1);
        for (int d = r - 1; d >= 0; d--) {
            st[2 + d] = step;
            step *= t.dim(1 + d);
        }
        st[0] = step;
        return st;
    }

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        List<ChannelsLastConvGroups.Group> groups = ChannelsLastConvGroups.find(g, idx, n -> n.prim() instanceof Prim.Conv c
                && c.out() == DType.F32 && c.spec().featureGroups() == 1 && c.spec().batchGroups() == 1
                && c.spec().spatialRank() >= 1 && c.spec().spatialRank() <= DirectConvPlan.MAX_RANK);
        return ChannelsLastConvGroups.fuse(g, groups, (body, gr) -> plans.put(body, new Plan(gr.kind(), gr.prim().spec(),
                gr.conv().inputs().get(0).shape(), gr.conv().inputs().get(1).shape())));
    }
}
