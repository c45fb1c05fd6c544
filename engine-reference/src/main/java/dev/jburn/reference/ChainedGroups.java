package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.Graph;
import dev.jburn.graph.GraphRewriteCache;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
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
 * Element-wise groups whose results another group reads, run with it in one blocked pass. The fusion pass keeps a
 * group whose result is read twice as a node of its own: Adam's new moments {@code m'} and {@code v'} are the step's
 * outputs and the parameter update reads them, so each parameter takes three passes ({@code m'} from {@code m, g};
 * {@code v'} from {@code v, g}; {@code p'} from {@code p, m', v'}), which read {@code g} twice and {@code m', v'} back
 * from memory. {@link #rewrite} replaces a group with the groups producing its full-size operands by one fused node
 * whose outputs are all their results; {@link #run} computes each block of every part in turn with the parts' own
 * block kernels ({@link FusedKernels}), the consumer reading the producers' block while it is in cache. Each part
 * computes what its node computed, element by element, so the bits are the nodes'.
 */
final class ChainedGroups {
    private final Parallel parallel;
    private final FusedKernels fused;
    /** Off for the scalar oracle (no vector kernels): it runs every op as traced. */
    private final boolean enabled;
    private final GraphRewriteCache rewritten = new GraphRewriteCache(this::rewriteOnce);
    private final Map<Graph, Job> jobs = Collections.synchronizedMap(new java.util.WeakHashMap<>());

    ChainedGroups(Parallel parallel, FusedKernels fused, boolean enabled) {
        this.parallel = parallel;
        this.fused = fused;
        this.enabled = enabled;
    }

    /**
     * One group: its plan, and per input {@code k} of the group where the value comes from: {@code inputs[k] >= 0}, the
     * combined node's input; {@code < 0}, the result of part {@code -1 - inputs[k]}.
     */
    private record Part(FusedKernels.Plan plan, int[] inputs) {}

    /** The parts in order (producers first, the consumer last), each computing {@code size} F32 elements. */
    private record Job(List<Part> parts, long size) {}

    /** {@code g} with each consumer and its producers as one fused node, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) { return enabled ? rewritten.get(g) : g; }

    /** Runs a node made by {@link #rewrite}, or returns {@code null} when {@code node} is not one. */
    List<Buffer> run(Node node, List<Operand> in, List<Boolean> reusable) {
        Job job = GraphRewriteCache.planOf(node, jobs);
        if (job == null) return null;
        int nParts = job.parts.size();
        long bytes = job.size * Float.BYTES;
        MemorySegment[] inputs = new MemorySegment[in.size()];
        for (int k = 0; k < inputs.length; k++) inputs[k] = HostBuffer.of(in.get(k).buffer());
        Buffer[] outs = new Buffer[nParts];
        List<Buffer> scalars = new ArrayList<>();
        List<MemorySegment> tiles = new ArrayList<>();
        boolean done = false;
        try {
            boolean[] taken = new boolean[in.size()];
            for (int p = 0; p < nParts; p++) outs[p] = output(job, p, in, reusable, taken, bytes);
            MemorySegment[] out = new MemorySegment[nParts];
            MemorySegment[][] partIn = new MemorySegment[nParts][];
            long cost = 0;
            for (int p = 0; p < nParts; p++) {
                Part part = job.parts.get(p);
                out[p] = HostBuffer.of(outs[p]);
                int[] own = part.inputs.clone(), local = new int[own.length];
                List<Operand> operands = new ArrayList<>();
                MemorySegment[] sources = new MemorySegment[own.length];
                for (int k = 0; k < own.length; k++) {
                    // producers' results enter as extra sources after the node's inputs; the prologue never reads them
                    sources[k] = own[k] >= 0 ? inputs[own[k]] : out[-1 - own[k]];
                    operands.add(own[k] >= 0 ? in.get(own[k]) : null);
                    local[k] = k;
                }
                MemorySegment[] planIn = FusedKernels.planInputs(part.plan, local, sources, tiles);
                MemorySegment[] computed = fused.prologueScalars(part.plan, operands, scalars);
                if (computed != null) {
                    planIn = java.util.Arrays.copyOf(planIn, planIn.length + computed.length);
                    System.arraycopy(computed, 0, planIn, own.length, computed.length);
                }
                partIn[p] = planIn;
                cost += part.plan.cost();
            }
            long blocks = (job.size + FusedKernels.BLOCK - 1) / FusedKernels.BLOCK;
            parallel.forRange(blocks, cost * FusedKernels.BLOCK, (lo, hi) -> {
                MemorySegment[][] scratch = FusedKernels.scratches(job.parts.stream().map(Part::plan).toList());
                for (long blk = lo; blk < hi; blk++) {
                    long start = blk * FusedKernels.BLOCK, n = Math.min(FusedKernels.BLOCK, job.size - start);
                    for (int p = 0; p < nParts; p++) FusedKernels.runSteps(job.parts.get(p).plan, partIn[p], scratch[p], out[p], start, n);
                }
            });
            done = true;
            return List.of(outs);
        } finally {
            scalars.forEach(Buffer::release);
            for (MemorySegment t : tiles) NativeMemory.free(t);
            if (!done) for (Buffer b : outs) if (b != null) b.release();
        }
    }

    /**
     * Part {@code p}'s result buffer: the buffer of an input this node is the last to read that part {@code p} alone
     * reads (so no other part reads it after a block was overwritten) and no earlier part took; else a new one.
     */
    private static Buffer output(Job job, int p, List<Operand> in, List<Boolean> reusable, boolean[] taken, long bytes) {
        for (int k : job.parts.get(p).inputs) {
            if (k < 0 || taken[k] || !reusable.get(k)) continue;
            boolean alone = true;
            for (int q = 0; q < job.parts.size() && alone; q++) {
                if (q == p) continue;
                for (int j : job.parts.get(q).inputs) if (j == k) alone = false;
            }
            if (!alone) continue;
            Buffer b = FusedKernels.reusedInput(List.of(in.get(k)), List.of(true), DType.F32, bytes);
            if (b != null) {
                taken[k] = true;
                return b;
            }
        }
        return HostBuffer.uninitialized(bytes);
    }

    // ---- rewriting ----------------------------------------------------------------------------

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        Map<Node, Integer> position = FusedBodies.positions(g);
        Map<Node, Node> replaced = new IdentityHashMap<>();
        Map<Node, Boolean> dropped = new IdentityHashMap<>();
        Set<Node> used = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Node consumer : g.nodes()) {
            FusedKernels.Plan cp = elementwisePlan(consumer);
            if (cp == null || used.contains(consumer)) continue;
            List<Node> producers = new ArrayList<>();
            for (Value v : consumer.inputs()) {
                Node p = idx.producer(v);
                if (p != null && p != consumer && !used.contains(p) && !producers.contains(p) && v.shape().equals(consumer.outputs().getFirst().shape())) {
                    FusedKernels.Plan pp = elementwisePlan(p);
                    if (pp != null && pp.prologue() == null && pp.size() == cp.size()) producers.add(p);
                }
            }
            if (producers.isEmpty()) continue;
            int at = producers.stream().mapToInt(position::get).max().orElseThrow();
            if (!placeable(consumer, producers, at, idx, position)) continue;
            Node last = producers.stream().filter(p -> position.get(p) == at).findFirst().orElseThrow();
            replaced.put(last, combine(producers, consumer, cp));
            for (Node p : producers) if (p != last) dropped.put(p, true);
            dropped.put(consumer, true);
            used.addAll(producers);
            used.add(consumer);
        }
        return GraphRewriteCache.replace(g, replaced, dropped);
    }

    /** A single-output F32 fused group {@link FusedKernels} runs element-wise (no reduction), or {@code null}. */
    private static FusedKernels.Plan elementwisePlan(Node n) {
        if (!(n.prim() instanceof Prim.Fused f) || n.outputs().size() != 1 || n.outputs().getFirst().dtype() != DType.F32) return null;
        FusedKernels.Plan plan = FusedKernels.plan(f.body());
        return plan == null || plan.reduce() >= 0 || plan.dtype() != DType.F32 ? null : plan;
    }

    /**
     * Whether the consumer can run at position {@code at} (the last producer's): its other operands are ready there,
     * no producer's result is read before it by another node, and its scalar prologue reads no producer's result.
     */
    private static boolean placeable(Node consumer, List<Node> producers, int at, ChannelsLastConvGroups.Index idx, Map<Node, Integer> position) {
        Set<Node> ps = Collections.newSetFromMap(new IdentityHashMap<>());
        ps.addAll(producers);
        for (Value v : consumer.inputs()) {
            Node p = idx.producer(v);
            if (p != null && !ps.contains(p) && position.get(p) >= at) return false;
        }
        for (Node p : producers) {
            for (Node r : idx.readers(p.outputs().getFirst())) if (r != consumer && position.get(r) <= at) return false;
        }
        FusedKernels.Plan plan = FusedKernels.plan(((Prim.Fused) consumer.prim()).body());
        if (plan.prologue() != null) {
            for (int k : plan.prologueInputs()) if (ps.contains(idx.producer(consumer.inputs().get(k)))) return false;
        }
        return true;
    }

    /** One fused node computing the producers' results and then the consumer's, with the job that runs it. */
    private Node combine(List<Node> producers, Node consumer, FusedKernels.Plan consumerPlan) {
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
        List<Part> parts = new ArrayList<>();
        List<Node> all = new ArrayList<>(producers);
        all.add(consumer);
        for (Node n : all) {
            int[] map = new int[n.inputs().size()];
            for (int k = 0; k < map.length; k++) {
                Value v = n.inputs().get(k);
                Integer part = n == consumer ? partOf.get(v.id()) : null;
                map[k] = part != null ? -1 - part : at.get(v.id());
            }
            results.add(FusedBodies.inline(b, n, inner)); // a producer's result is what the consumer reads for it
            parts.add(new Part(n == consumer ? consumerPlan : FusedKernels.plan(((Prim.Fused) n.prim()).body()), map));
        }
        Graph body = b.build(results);
        jobs.put(body, new Job(List.copyOf(parts), consumerPlan.size()));
        return new Node(new Prim.Fused(body), ins, all.stream().map(n -> n.outputs().getFirst()).toList());
    }
}
