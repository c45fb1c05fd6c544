package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.graph.ChainedFusedGroups;
import dev.jburn.graph.Graph;
import dev.jburn.graph.GraphRewriteCache;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

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

    /** The chains {@link FusedKernels} runs: F32 element-wise groups of one size, producers without a scalar prologue. */
    private Graph rewriteOnce(Graph g) {
        return ChainedFusedGroups.rewrite(g, new ChainedFusedGroups.Rules() {
            @Override public boolean consumer(Node n) { return elementwisePlan(n) != null; }

            @Override public boolean producer(Node p, Node consumer) {
                FusedKernels.Plan pp = elementwisePlan(p);
                return pp != null && pp.prologue() == null && pp.size() == elementwisePlan(consumer).size();
            }

            @Override public int[] readFirst(Node consumer) { // the scalar prologue reads its operands before any block
                FusedKernels.Plan plan = elementwisePlan(consumer);
                return plan.prologue() == null ? new int[0] : plan.prologueInputs();
            }

            @Override public void combined(Node node, List<Node> parts, List<int[]> inputs) {
                List<Part> ps = new ArrayList<>();
                for (int p = 0; p < parts.size(); p++) ps.add(new Part(elementwisePlan(parts.get(p)), inputs.get(p)));
                jobs.put(((Prim.Fused) node.prim()).body(), new Job(List.copyOf(ps), ps.getLast().plan().size()));
            }
        });
    }

    /** A single-output F32 fused group {@link FusedKernels} runs element-wise (no reduction), or {@code null}. */
    private static FusedKernels.Plan elementwisePlan(Node n) {
        if (!(n.prim() instanceof Prim.Fused f) || n.outputs().size() != 1 || n.outputs().getFirst().dtype() != DType.F32) return null;
        FusedKernels.Plan plan = FusedKernels.plan(f.body());
        return plan == null || plan.reduce() >= 0 || plan.dtype() != DType.F32 ? null : plan;
    }
}
