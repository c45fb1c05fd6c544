package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.graph.ChainedFusedGroups;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.Graph;
import dev.jburn.graph.GraphRewriteCache;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.ReduceOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Column sums (F32 sums over leading axes, one per channel of a channels-last tensor) that read the same tensor, run
 * in one pass over it. Batch norm's backward pass over {@code [N, H, W, C]} has two such pairs: {@code sum(g)} and
 * {@code sum(g·(x − mean))}, which both read the cotangent {@code g} whole, and the input cotangent {@code dx} with
 * {@code sum(dx)} (the gradient of the conv bias before it), which reads {@code dx} again right after it was written.
 * Each extra pass over the small CNN's {@code [128,26,26,32]} is 11 MB from memory, ~0.65 ms of its step.
 *
 * <p>{@link #rewrite} replaces each pair with one fused node of two outputs whose body is the pair: an element-wise
 * fused group with a plain {@code sum} of its result, or two column sums (plain, or fused groups ending in one) of the
 * same rows and columns that share a full-size operand and do not depend on each other. {@link #run} walks the rows
 * once in the blocks and segments {@link FusedKernels}' column sums use, running each part's chain on a block while
 * the block is in cache, and adds each part's columns with the same operations in the same order as the part alone,
 * so every output has the bits the two nodes gave.
 */
final class ColumnSumSiblings {
    private final Parallel parallel;
    /** Off for the scalar oracle (no vector kernels): it runs every op as traced. */
    private final boolean enabled;
    private final GraphRewriteCache rewritten = new GraphRewriteCache(this::rewriteOnce);
    /** The job of each body this class made. */
    private final Map<Graph, Job> jobs = Collections.synchronizedMap(new java.util.WeakHashMap<>());

    ColumnSumSiblings(Parallel parallel, boolean enabled) {
        this.parallel = parallel;
        this.enabled = enabled;
    }

    /** One output of a combined node. */
    private sealed interface Part {}

    /** The column sums of the node's input {@code input} (a plain {@code sum} node). */
    private record InputSum(int input) implements Part {}

    /** A fused group ending in a column sum; {@code inputs[k]}: the node's input the group's input {@code k} is. */
    private record ChainSum(FusedKernels.Plan plan, int[] inputs) implements Part {}

    /** An element-wise fused group's full result. */
    private record Chain(FusedKernels.Plan plan, int[] inputs) implements Part {}

    /** The column sums of part {@code part}'s full result. */
    private record OutputSum(int part) implements Part {}

    /** A combined node: its parts (one per output), over {@code rows} rows of {@code width} F32 columns. */
    private record Job(List<Part> parts, long rows, int width) {}

    /** {@code g} with each pair as one fused node, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) { return enabled ? rewritten.get(g) : g; }

    // ---- running ------------------------------------------------------------------------------

    /** Runs a node made by {@link #rewrite}, or returns {@code null} when {@code node} is not one. */
    List<Buffer> run(Node node, List<Operand> in, List<Boolean> reusable) {
        Job job = GraphRewriteCache.planOf(node, jobs);
        if (job == null) return null;
        int w = job.width, nParts = job.parts.size();
        long n = job.rows;
        MemorySegment[] inputs = new MemorySegment[in.size()];
        for (int k = 0; k < inputs.length; k++) inputs[k] = HostBuffer.of(in.get(k).buffer());
        List<MemorySegment> tiles = new ArrayList<>();
        Buffer[] outs = new Buffer[nParts];
        boolean done = false;
        try {
            MemorySegment[][] chainIn = new MemorySegment[nParts][];
            MemorySegment[] full = new MemorySegment[nParts];
            long cost = 0;
            for (int p = 0; p < nParts; p++) {
                switch (job.parts.get(p)) {
                    case Chain c -> {
                        chainIn[p] = FusedKernels.planInputs(c.plan, c.inputs, inputs, tiles);
                        outs[p] = reusedOrNew(in, reusable, n * w * Float.BYTES, job.parts);
                        full[p] = HostBuffer.of(outs[p]);
                        cost += c.plan.cost();
                    }
                    case ChainSum c -> {
                        chainIn[p] = FusedKernels.planInputs(c.plan, c.inputs, inputs, tiles);
                        cost += c.plan.cost() + 1;
                    }
                    default -> cost += 1;
                }
            }
            long segments = VectorReductions.segments(n);
            float[][] partial = new float[nParts][];
            for (int p = 0; p < nParts; p++) if (!(job.parts.get(p) instanceof Chain)) partial[p] = new float[Math.toIntExact(segments * w)];
            int rowsPerBlock = FusedKernels.BLOCK / w;
            parallel.forRange(segments, cost * VectorReductions.FLUSH * w, (lo, hi) -> {
                MemorySegment[][] scratch = FusedKernels.scratches(job.parts.stream().map(ColumnSumSiblings::planOf).toList());
                float[][] acc = new float[nParts][];
                for (int p = 0; p < nParts; p++) if (!(job.parts.get(p) instanceof Chain)) acc[p] = new float[w];
                for (long k = lo; k < hi; k++) {
                    long from = VectorReductions.segmentStart(k), to = VectorReductions.segmentEnd(k, n);
                    for (float[] a : acc) if (a != null) java.util.Arrays.fill(a, 0f);
                    for (long r0 = from; r0 < to; r0 += rowsPerBlock) {
                        int rows = (int) Math.min(rowsPerBlock, to - r0);
                        long start = r0 * w;
                        for (int p = 0; p < nParts; p++) {
                            switch (job.parts.get(p)) {
                                case Chain c -> FusedKernels.runSteps(c.plan, chainIn[p], scratch[p], full[p], start, (long) rows * w);
                                case ChainSum c -> FusedKernels.runSteps(c.plan, chainIn[p], scratch[p], MemorySegment.NULL, start, (long) rows * w);
                                default -> { }
                            }
                        }
                        for (int p = 0; p < nParts; p++) {
                            MemorySegment values;
                            long at;
                            switch (job.parts.get(p)) {
                                case InputSum s -> { values = inputs[s.input]; at = start; }
                                case ChainSum c -> { values = scratch[p][c.plan.scratches() - 1]; at = 0; }
                                case OutputSum s -> { values = full[s.part]; at = start; }
                                case Chain c -> { continue; }
                            }
                            VectorReductions.addBlockRows(acc[p], values, at, r0 == 0, rows, w);
                        }
                    }
                    for (int p = 0; p < nParts; p++) if (acc[p] != null) System.arraycopy(acc[p], 0, partial[p], (int) (k * w), w);
                }
            });
            for (int p = 0; p < nParts; p++) {
                if (partial[p] == null) continue;
                outs[p] = HostBuffer.uninitialized((long) w * Float.BYTES);
                VectorReductions.addSegments(partial[p], n, w, HostBuffer.of(outs[p]), 0);
            }
            done = true;
            return List.of(outs);
        } finally {
            for (MemorySegment t : tiles) NativeMemory.free(t);
            if (!done) for (Buffer b : outs) if (b != null) b.release();
        }
    }

    /** The plan of a part that runs a chain, else {@code null}. */
    private static FusedKernels.Plan planOf(Part part) {
        return switch (part) {
            case Chain c -> c.plan;
            case ChainSum c -> c.plan;
            default -> null;
        };
    }

    /**
     * The buffer of a full-size input this node is the last to read (as {@link FusedKernels} takes one for its result),
     * when the node's only parts are one chain and the sums of its result (no other part reads an input); else a new one.
     */
    private static Buffer reusedOrNew(List<Operand> in, List<Boolean> reusable, long bytes, List<Part> parts) {
        boolean alone = parts.stream().allMatch(p -> p instanceof Chain || p instanceof OutputSum)
                && parts.stream().filter(p -> p instanceof Chain).count() == 1;
        Buffer reused = alone ? FusedKernels.reusedInput(in, reusable, DType.F32, bytes) : null;
        return reused != null ? reused : HostBuffer.uninitialized(bytes);
    }

    // ---- rewriting ----------------------------------------------------------------------------

    /** A node that sums F32 rows of {@code width} columns: its operand's shape, the sum's axes, its plan when fused. */
    private record ColumnSum(Node node, dev.jburn.Shape rows, int[] axes, int width, FusedKernels.Plan plan) {}

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        Map<Node, Integer> position = ChainedFusedGroups.positions(g);
        Map<Node, Node> replaced = new IdentityHashMap<>();
        Map<Node, Boolean> dropped = new IdentityHashMap<>();
        Set<Node> used = Collections.newSetFromMap(new IdentityHashMap<>());
        // An element-wise group and the plain sum of its result: the pair runs where the group ran.
        for (Node r : g.nodes()) {
            ColumnSum s = columnSum(r);
            if (s == null || s.plan != null) continue;
            Node p = idx.producer(r.inputs().getFirst());
            if (p == null || used.contains(p) || p.outputs().size() != 1 || !(p.prim() instanceof Prim.Fused f)) continue;
            FusedKernels.Plan plan = FusedKernels.plan(f.body());
            if (plan == null || plan.reduce() >= 0 || plan.prologue() != null || plan.dtype() != DType.F32
                    || plan.size() != s.rows.size()) continue;
            replaced.put(p, combine(p, r, true));
            dropped.put(r, true);
            used.add(p);
            used.add(r);
        }
        // Two column sums of the same rows that share a full-size operand and do not depend on each other.
        List<ColumnSum> sums = new ArrayList<>();
        for (Node n : g.nodes()) {
            ColumnSum s = used.contains(n) ? null : columnSum(n);
            if (s != null) sums.add(s);
        }
        for (int i = 0; i < sums.size(); i++) {
            ColumnSum a = sums.get(i);
            if (used.contains(a.node)) continue;
            for (int j = i + 1; j < sums.size(); j++) {
                ColumnSum b = sums.get(j);
                if (used.contains(b.node) || !a.rows.equals(b.rows) || !java.util.Arrays.equals(a.axes, b.axes)
                        || !sharesFullOperand(a, b) || dependsOn(b.node, a.node, idx, position)) continue;
                // one node at b's place: a's result must not be read before it
                int at = position.get(b.node);
                if (idx.readers(a.node.outputs().getFirst()).stream().anyMatch(x -> position.get(x) < at)) continue;
                replaced.put(b.node, combine(a.node, b.node, false));
                dropped.put(a.node, true);
                used.add(a.node);
                used.add(b.node);
                break;
            }
        }
        return GraphRewriteCache.replace(g, replaced, dropped);
    }

    /**
     * {@code n} as a column sum this class can run: an F32 {@code sum} over leading axes (some, not all) of rows of
     * 2 to {@link FusedKernels#BLOCK} columns, plain or as a fused group's last node (planned by {@link FusedKernels},
     * with no scalar prologue); else {@code null}.
     */
    private static ColumnSum columnSum(Node n) {
        if (n.outputs().size() != 1) return null;
        if (n.prim() instanceof Prim.Reduce r) {
            Value x = n.inputs().getFirst();
            int width = leadingSumWidth(r, x);
            return width < 0 ? null : new ColumnSum(n, x.shape(), r.axes(), width, null);
        }
        if (!(n.prim() instanceof Prim.Fused f) || f.body().outputs().size() != 1 || f.body().nodes().isEmpty()) return null;
        Node last = f.body().nodes().getLast();
        if (!(last.prim() instanceof Prim.Reduce r) || !last.outputs().getFirst().equals(f.body().outputs().getFirst())) return null;
        Value x = last.inputs().getFirst();
        int width = leadingSumWidth(r, x);
        if (width < 0) return null;
        FusedKernels.Plan plan = FusedKernels.plan(f.body());
        if (plan == null || !plan.columns() || plan.prologue() != null || plan.dtype() != DType.F32 || plan.rowLength() != width) return null;
        return new ColumnSum(n, x.shape(), r.axes(), width, plan);
    }

    /** The columns of an F32 sum over the leading axes {@code 0..k-1} of {@code x} (0 < k < rank), when 2 to BLOCK; else -1. */
    private static int leadingSumWidth(Prim.Reduce r, Value x) {
        int[] axes = r.axes();
        if (r.op() != ReduceOp.SUM || r.out() != DType.F32 || x.dtype() != DType.F32 || axes.length == 0
                || axes.length >= x.shape().rank() || x.shape().size() == 0) return -1;
        for (int i = 0; i < axes.length; i++) if (axes[i] != i) return -1;
        long w = 1;
        for (int a = axes.length; a < x.shape().rank(); a++) w *= x.shape().dim(a);
        return w < 2 || w > FusedKernels.BLOCK ? -1 : (int) w;
    }

    /** Whether {@code a} and {@code b} read one value of their rows' shape. */
    private static boolean sharesFullOperand(ColumnSum a, ColumnSum b) {
        for (Value v : a.node.inputs()) if (v.shape().equals(a.rows) && b.node.inputs().contains(v)) return true;
        return false;
    }

    /** Whether {@code later} reads, through any chain of nodes, a result of {@code earlier} (which comes first). */
    private static boolean dependsOn(Node later, Node earlier, ChannelsLastConvGroups.Index idx, Map<Node, Integer> position) {
        int stop = position.get(earlier);
        java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>(List.of(later));
        Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        while (!todo.isEmpty()) {
            for (Value v : todo.pop().inputs()) {
                Node p = idx.producer(v);
                if (p == earlier) return true;
                if (p != null && position.get(p) > stop && seen.add(p)) todo.push(p);
            }
        }
        return false;
    }

    /**
     * One fused node computing {@code a}'s and {@code b}'s results (in that order); with {@code chained}, {@code a} is an
     * element-wise group and {@code b} the sum of its result.
     */
    private Node combine(Node a, Node b, boolean chained) {
        LinkedHashMap<Integer, Value> operands = new LinkedHashMap<>();
        for (Value v : a.inputs()) operands.putIfAbsent(v.id(), v);
        if (!chained) for (Value v : b.inputs()) operands.putIfAbsent(v.id(), v);
        List<Value> ins = List.copyOf(operands.values());
        Map<Integer, Integer> at = new HashMap<>();
        for (int k = 0; k < ins.size(); k++) at.put(ins.get(k).id(), k);
        Graph.Builder builder = Graph.builder();
        Map<Integer, Value> inner = new HashMap<>();
        for (Value v : ins) inner.put(v.id(), builder.input(v.type()));
        Value ra = ChainedFusedGroups.inline(builder, a, inner), rb;
        List<Part> parts = new ArrayList<>();
        parts.add(part(a, at, chained));
        if (chained) {
            rb = builder.add1(b.prim(), ra);
            parts.add(new OutputSum(0));
        } else {
            rb = ChainedFusedGroups.inline(builder, b, inner);
            parts.add(part(b, at, false));
        }
        Graph body = builder.build(List.of(ra, rb));
        ColumnSum s = columnSum(chained ? b : a);
        jobs.put(body, new Job(List.copyOf(parts), s.rows.size() / s.width, s.width));
        return new Node(new Prim.Fused(body), ins, List.of(a.outputs().getFirst(), b.outputs().getFirst()));
    }

    /** The part computing {@code n}'s result from the combined node's operands (at their positions {@code at}). */
    private static Part part(Node n, Map<Integer, Integer> at, boolean elementwise) {
        if (n.prim() instanceof Prim.Reduce) return new InputSum(at.get(n.inputs().getFirst().id()));
        FusedKernels.Plan plan = FusedKernels.plan(((Prim.Fused) n.prim()).body());
        int[] map = n.inputs().stream().mapToInt(v -> at.get(v.id())).toArray();
        return elementwise ? new Chain(plan, map) : new ChainSum(plan, map);
    }
}
