package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.graph.ChainedFusedGroups;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.Graph;
import dev.jburn.graph.GraphRewriteCache;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * An element-wise group and the max (or min) pool of its result, as one pass. Batch norm's scale-shift and ReLU write
 * {@code y = max(x·a + b, 0)} over a channels-last {@code [N, H, W, C]}, and the pool after it read all of {@code y}
 * back from memory ({@code [128,26,26,32]} in the small CNN: 11 MB, ~1 ms of its step). Where the pool's windows
 * tile the rows ({@code [1, kh, kw, 1]} windows with equal strides, no padding, no dilation, 8 channels or more),
 * {@link #rewrite} replaces the pair with one fused node of two outputs ({@code y} and the pool); {@link #run} computes
 * {@code y} a band of {@code kh} image rows at a time with the group's own block kernels ({@link FusedKernels}) and pools
 * the band while it is in cache, combining each window's vectors in the order {@link ChannelPooling} does, so both
 * outputs have the bits of the two nodes. Rows below the last whole band are computed and not pooled.
 */
final class PooledChains {
    private final Parallel parallel;
    /** Off for the scalar oracle (no vector kernels): it runs every op as traced. */
    private final boolean enabled;
    private final GraphRewriteCache rewritten = new GraphRewriteCache(this::rewriteOnce);
    private final Map<Graph, Job> jobs = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    PooledChains(Parallel parallel, boolean enabled) {
        this.parallel = parallel;
        this.enabled = enabled;
    }

    /** The group's plan over {@code [n, h, w, c]}, pooled by {@code kh × kw} windows with {@link ChannelPooling}'s op code. */
    private record Job(FusedKernels.Plan plan, int code, float identity, int n, int h, int w, int c, int kh, int kw) {}

    /** {@code g} with each (group, pool) pair as one fused node, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) { return enabled ? rewritten.get(g) : g; }

    /** Runs a node made by {@link #rewrite}, or returns {@code null} when {@code node} is not one. */
    List<Buffer> run(Node node, List<Operand> in, List<Boolean> reusable) {
        Job job = GraphRewriteCache.planOf(node, jobs);
        if (job == null) return null;
        int h = job.h, w = job.w, c = job.c, kh = job.kh, kw = job.kw, oh = h / kh, ow = w / kw;
        int bands = (h + kh - 1) / kh;
        long bytes = (long) job.n * h * w * c * Float.BYTES;
        MemorySegment[] inputs = new MemorySegment[in.size()];
        for (int k = 0; k < inputs.length; k++) inputs[k] = HostBuffer.of(in.get(k).buffer());
        int[] identityMap = new int[inputs.length];
        for (int k = 0; k < identityMap.length; k++) identityMap[k] = k;
        List<MemorySegment> tiles = new ArrayList<>();
        Buffer y = FusedKernels.reusedInput(in, reusable, DType.F32, bytes), pooled = null;
        try {
            if (y == null) y = HostBuffer.uninitialized(bytes);
            pooled = HostBuffer.uninitialized((long) job.n * oh * ow * c * Float.BYTES);
            MemorySegment[] chainIn = FusedKernels.planInputs(job.plan, identityMap, inputs, tiles);
            MemorySegment ys = HostBuffer.of(y), ps = HostBuffer.of(pooled);
            long bandCost = (job.plan.cost() + 1) * kh * w * c;
            parallel.forRange((long) job.n * bands, bandCost, (lo, hi) -> {
                MemorySegment[] scratch = FusedKernels.scratches(job.plan);
                for (long u = lo; u < hi; u++) {
                    long image = u / bands;
                    int band = (int) (u % bands), r0 = band * kh, rows = Math.min(kh, h - r0);
                    FusedKernels.runSteps(job.plan, chainIn, scratch, ys, ((image * h + r0) * w) * c, (long) rows * w * c);
                    if (band < oh) ChannelPooling.band(job.code, job.identity, ys, ps, image, band, h, w, c, kh, kw);
                }
            });
            return List.of(y, pooled);
        } catch (RuntimeException | Error e) {
            if (y != null) y.release();
            if (pooled != null) pooled.release();
            throw e;
        } finally {
            for (MemorySegment t : tiles) NativeMemory.free(t);
        }
    }

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        Map<Node, Node> replaced = new IdentityHashMap<>();
        Map<Node, Boolean> dropped = new IdentityHashMap<>();
        for (Node pool : g.nodes()) {
            if (!(pool.prim() instanceof Prim.WindowReduce wr) || pool.inputs().size() != 1) continue;
            Value y = pool.inputs().getFirst();
            Node group = idx.producer(y);
            if (group == null || replaced.containsKey(group) || group.outputs().size() != 1 || !(group.prim() instanceof Prim.Fused f)) continue;
            Job job = jobOf(wr, y, FusedKernels.plan(f.body()));
            if (job == null) continue;
            Graph.Builder b = Graph.builder();
            Map<Integer, Value> inner = new java.util.HashMap<>();
            for (Value v : group.inputs()) inner.putIfAbsent(v.id(), b.input(v.type()));
            Value by = ChainedFusedGroups.inline(b, group, inner);
            Graph body = b.build(List.of(by, b.add1(wr, by)));
            jobs.put(body, job);
            replaced.put(group, new Node(new Prim.Fused(body), group.inputs(), List.of(y, pool.outputs().getFirst())));
            dropped.put(pool, true);
        }
        return GraphRewriteCache.replace(g, replaced, dropped);
    }

    /**
     * The job for pooling {@code y} (the group's result, planned as {@code plan}) with {@code wr}, when the windows tile
     * channels-last rows as described above and a band of {@code kh} rows fits one of the group's blocks; else {@code null}.
     */
    private static Job jobOf(Prim.WindowReduce wr, Value y, FusedKernels.Plan plan) {
        if (plan == null || plan.reduce() >= 0 || plan.prologue() != null || plan.dtype() != DType.F32
                || (wr.op() != WindowOp.WINDOW_MAX && wr.op() != WindowOp.WINDOW_MIN)
                || y.dtype() != DType.F32 || y.shape().rank() != 4 || plan.size() != y.shape().size()) return null;
        WindowSpec s = wr.spec();
        int[] d = y.shape().dims();
        int kh = s.dims()[1], kw = s.dims()[2];
        for (int a = 0; a < 4; a++) {
            if (s.strides()[a] != s.dims()[a] || s.padLow()[a] != 0 || s.padHigh()[a] != 0 || s.dilations()[a] != 1) return null;
        }
        if (s.dims()[0] != 1 || s.dims()[3] != 1 || d[3] < 8 || kh > d[1] || kw > d[2] || d[0] == 0
                || (long) kh * d[2] * d[3] > FusedKernels.BLOCK) return null;
        dev.jburn.op.ReduceOp op = wr.op().reduction();
        return new Job(plan, ChannelPooling.opCode(op), (float) ReductionKernels.floatIdentity(op), d[0], d[1], d[2], d[3], kh, kw);
    }
}
