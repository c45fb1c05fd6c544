package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.spi.EngineConfig;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Interpreter;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs a {@link Prim.Fused} group in one pass over blocks of {@link #BLOCK} elements: each op of
 * the body runs on the block with the same Vector API loops as the eager kernels (so results
 * equal the unfused vector path bit for bit), reading the inputs in place, keeping
 * intermediates in small per-thread scratch that stays in cache, and storing only the group's
 * output. Blocks are split over the engine's threads.
 *
 * <p>Covered: F32 or F64 bodies (every value one dtype) of vector-kernel unary ops and
 * add/subtract/multiply/divide/min/max, whose inputs have the output's shape or are scalars
 * (directly, broadcast, or scalar constants) or blocks repeated over the output's leading axes
 * (directly or broadcast: a per-channel {@code [C]} or {@code [1, 1, 1, C]} on a channels-last
 * tensor, as batch norm has), optionally ending in a sum, max or min over the
 * trailing axes (or all axes): then each block's chain is reduced row by row as soon as it is
 * computed, so {@code sum((p - y)^2)} reads {@code p} and {@code y} once and writes only the sums.
 * Comparisons (into PRED scratch) and {@code select} on them or on PRED inputs are covered too.
 * Rank-0 element-wise nodes of a body whose output is not rank 0 (scalars the fusion pass copied into
 * the group, such as an optimizer's {@code 1 - β^t}) form a prologue computed once per call
 * ({@link ScalarPrologue}, else node by node through the backend as it would run unfused), and the
 * blocked pass reads their values as scalars.
 * Anything else (casts, integer or mixed float types, other broadcasts or reductions) returns
 * {@code null}, and the caller interprets the body.
 */
final class FusedKernels {
    /** Elements per block: a few blocks of scratch fit in L1/L2. */
    static final int BLOCK = 2048;

    private final Parallel parallel;
    private final EngineConfig config;
    /** Runs the scalar prologues. */
    private final Backend backend;
    /** Plans per body graph (graphs are immutable; identity is the key). */
    private final Map<Graph, Object> plans = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    private static final Object NO_PLAN = new Object();

    FusedKernels(Parallel parallel, EngineConfig config, Backend backend) {
        this.parallel = parallel;
        this.config = config;
        this.backend = backend;
    }

    /** A slot: where a body value lives during a block. */
    private sealed interface Slot {}
    /** A full-size input, read in place. */
    private record Full(int input) implements Slot {}
    /** A scalar input (rank 0 or one element), read once. */
    private record ScalarInput(int input) implements Slot {}
    /**
     * An input of {@code period} elements repeated over the output's leading axes (element {@code i} reads
     * {@code i % period}); {@link #run} passes it tiled to {@code BLOCK + period} elements, so a block reads
     * it contiguously from offset {@code start % period}, as the element-wise loops need.
     */
    private record Tiled(int input, long period) implements Slot {}
    /** An input of another shape: only a broadcast may read it (and makes it {@link Tiled} or declines). */
    private record Raw(int input) implements Slot {}
    /** A scalar constant of the body. */
    private record ScalarConst(double value) implements Slot {}
    /** Scratch array {@code index}. */
    private record Scratch(int index) implements Slot {}
    /** The group's output. */
    private record Out() implements Slot {}

    private sealed interface Step {}
    private record UnaryStep(VectorOps.Unary k, Slot x, Slot out) implements Step {}
    private record BinaryStep(VectorOps.Binary k, Slot a, Slot b, Slot out) implements Step {}
    /** {@code out = pred ? a : b}; {@code pred} is a block of PRED bytes (an input or a comparison's scratch). */
    private record SelectStep(Slot pred, Slot a, Slot b, Slot out) implements Step {}

    /**
     * @param size      elements the chain computes
     * @param reduce    {@code -1}, or the {@link VectorReductions} code of a trailing reduction
     * @param rowLength elements per reduced output (when {@code reduce >= 0}), or with {@code columns} the elements of a row
     * @param columns   the reduction is an F32 sum over leading axes: each of {@code rowLength} columns is summed over the rows
     * @param prologue  the body's rank-0 computations, or {@code null}: its outputs follow the body's inputs as
     *                  {@link ScalarInput}s; its inputs are the body inputs at {@code prologueInputs}
     */
    record Plan(DType dtype, long size, List<Step> steps, int scratches, long cost, int reduce, long rowLength, boolean columns,
                        long[] periods, Graph prologue, int[] prologueInputs) {
        long outputElements() { return reduce < 0 ? size : columns ? rowLength : size / rowLength; }
    }

    /**
     * Runs {@code node} (a fused group) fast, or returns {@code null} when the plan doesn't cover it.
     * {@code reusable.get(k)}: input {@code k}'s buffer may take the output.
     */
    List<Buffer> run(Node node, List<Operand> inputs, List<Boolean> reusable) {
        if (!config.vectorKernels() || !(node.prim() instanceof Prim.Fused f)) return null;
        Object p = plans.computeIfAbsent(f.body(), g -> {
            Plan plan = plan(g);
            return plan == null ? NO_PLAN : plan;
        });
        if (!(p instanceof Plan plan)) return null;
        Value outV = node.outputs().getFirst();
        long bytes = plan.outputElements() * plan.dtype.bits() / 8;
        Buffer out = reusedInput(inputs, reusable, outV.dtype(), bytes);
        List<Buffer> scalars = new ArrayList<>();
        MemorySegment[] computed = prologueScalars(plan, inputs, scalars);
        List<MemorySegment> tiles = new ArrayList<>();
        try {
            if (out == null) out = HostBuffer.uninitialized(bytes);
            int extra = computed == null ? 0 : computed.length;
            MemorySegment[] in = new MemorySegment[inputs.size() + extra];
            for (int k = 0; k < inputs.size(); k++) {
                in[k] = HostBuffer.of(inputs.get(k).buffer());
                if (plan.periods[k] > 0) {
                    in[k] = tiled(plan.dtype, in[k], plan.periods[k]);
                    tiles.add(in[k]);
                }
            }
            for (int k = 0; k < extra; k++) in[inputs.size() + k] = computed[k];
            runPlan(plan, in, HostBuffer.of(out));
            return List.of(out);
        } finally {
            scalars.forEach(Buffer::release);
            for (MemorySegment t : tiles) NativeMemory.free(t);
        }
    }

    /**
     * The values of {@code plan}'s scalar prologue for a node's {@code inputs}, in plain Java where that gives the
     * kernels' bits, else through the backend (whose buffers are added to {@code keep}, for the caller to release);
     * {@code null} when the plan has none. The plan reads them as inputs after the node's.
     */
    MemorySegment[] prologueScalars(Plan plan, List<Operand> inputs, List<Buffer> keep) {
        if (plan.prologue == null) return null;
        List<MemorySegment> pin = new ArrayList<>();
        for (int k : plan.prologueInputs) pin.add(HostBuffer.of(inputs.get(k).buffer()));
        MemorySegment[] computed = ScalarPrologue.evaluate(plan.prologue, pin);
        if (computed != null) return computed;
        List<Operand> ops = new ArrayList<>();
        for (int k : plan.prologueInputs) ops.add(inputs.get(k));
        List<Buffer> scalars = Interpreter.execute(backend, plan.prologue, ops);
        keep.addAll(scalars);
        return scalars.stream().map(HostBuffer::of).toArray(MemorySegment[]::new);
    }

    /**
     * The buffer of an input of {@code bytes} bytes and dtype {@code t} that the node reading it is the last to read
     * ({@code reusable}) and no view shares, retained for the node's result; {@code null} when none.
     */
    static Buffer reusedInput(List<Operand> inputs, List<Boolean> reusable, DType t, long bytes) {
        for (int k = 0; k < inputs.size(); k++) {
            Operand o = inputs.get(k);
            if (reusable.get(k) && o.dtype() == t && o.buffer().byteSize() == bytes
                    && o.buffer() instanceof HostBuffer hb && hb.soleReference()) {
                return o.buffer().retain();
            }
        }
        return null;
    }

    /**
     * A plan's inputs from a node's: plan input {@code k} is {@code inputs[map[k]]}, repeated blocks tiled as
     * {@link #run} passes them (the copies are added to {@code tiles}, for the caller to free).
     */
    static MemorySegment[] planInputs(Plan plan, int[] map, MemorySegment[] inputs, List<MemorySegment> tiles) {
        MemorySegment[] in = new MemorySegment[map.length];
        for (int k = 0; k < map.length; k++) {
            in[k] = inputs[map[k]];
            if (plan.periods[k] > 0) {
                in[k] = tiled(plan.dtype, in[k], plan.periods[k]);
                tiles.add(in[k]);
            }
        }
        return in;
    }

    private void runPlan(Plan plan, MemorySegment[] in, MemorySegment dst) {
        if (plan.reduce >= 0) {
            runReduction(plan, in, dst);
            return;
        }
        long blocks = (plan.size + BLOCK - 1) / BLOCK;
        parallel.forRange(blocks, plan.cost * BLOCK, (lo, hi) -> runBlocks(plan, in, dst, lo, hi));
    }

    /**
     * A chain ending in a trailing reduction: short rows go several to a block, each reduced from
     * the block's scratch; long rows are computed block by block and their partial results combined.
     */
    private void runReduction(Plan plan, MemorySegment[] in, MemorySegment dst) {
        if (plan.columns) {
            runColumnSums(plan, in, dst);
            return;
        }
        long rows = plan.outputElements();
        long len = plan.rowLength;
        int resultScratch = plan.scratches - 1;
        if (len <= BLOCK) {
            long perBlock = BLOCK / len;
            long blocks = (rows + perBlock - 1) / perBlock;
            parallel.forRange(blocks, plan.cost * perBlock * len, (lo, hi) -> {
                MemorySegment[] scratch = scratches(plan);
                for (long blk = lo; blk < hi; blk++) {
                    long r0 = blk * perBlock;
                    long nRows = Math.min(perBlock, rows - r0);
                    runSteps(plan, in, scratch, dst, r0 * len, nRows * len);
                    for (long r = 0; r < nRows; r++) store(plan, dst, r0 + r, reduceRun(plan, scratch[resultScratch], r * len, len));
                }
            });
            return;
        }
        parallel.forRange(rows, plan.cost * len, (lo, hi) -> {
            MemorySegment[] scratch = scratches(plan);
            for (long r = lo; r < hi; r++) {
                double acc = Double.NaN;
                for (long off = 0; off < len; off += BLOCK) {
                    long n = Math.min(BLOCK, len - off);
                    runSteps(plan, in, scratch, dst, r * len + off, n);
                    double part = reduceRun(plan, scratch[resultScratch], 0, n);
                    acc = off == 0 ? part : VectorReductions.combine(plan.reduce, acc, part);
                }
                store(plan, dst, r, acc);
            }
        });
    }

    /**
     * A chain ending in a sum over leading axes: rows of {@code w} columns. The rows are cut into the segments
     * {@link VectorReductions#columnSumsF32} uses (rows {@code [0, FLUSH]}, then each next {@code FLUSH}); each
     * segment's chain values are computed a block of whole rows at a time and added into the segment's float
     * column sums while in cache, then the segments are added in double in order. The same operations in the
     * same order as the unfused sum, so the bits are equal, whatever the thread count.
     */
    private void runColumnSums(Plan plan, MemorySegment[] in, MemorySegment dst) {
        int w = (int) plan.rowLength;
        long n = plan.size / w;
        long segments = VectorReductions.segments(n);
        int rowsPerBlock = BLOCK / w;
        int resultScratch = plan.scratches - 1;
        float[] partial = new float[Math.toIntExact(segments * w)];
        parallel.forRange(segments, plan.cost * VectorReductions.FLUSH * w, (lo, hi) -> {
            MemorySegment[] scratch = scratches(plan);
            float[] acc = new float[w];
            for (long k = lo; k < hi; k++) {
                long from = VectorReductions.segmentStart(k), to = VectorReductions.segmentEnd(k, n);
                java.util.Arrays.fill(acc, 0f);
                for (long r0 = from; r0 < to; r0 += rowsPerBlock) {
                    int rows = (int) Math.min(rowsPerBlock, to - r0);
                    runSteps(plan, in, scratch, dst, r0 * w, (long) rows * w);
                    VectorReductions.addBlockRows(acc, scratch[resultScratch], 0, r0 == 0, rows, w);
                }
                System.arraycopy(acc, 0, partial, (int) (k * w), w);
            }
        });
        VectorReductions.addSegments(partial, n, w, dst, 0);
    }

    /**
     * {@code src}'s {@code period} elements repeated over at least {@code BLOCK + period} elements: whole copies, in
     * native memory the caller frees (small, read by every thread; native for the reason {@link VectorElementwise#tile} gives).
     */
    static MemorySegment tiled(DType t, MemorySegment src, long period) {
        return VectorElementwise.tile(t, src, period, (BLOCK + 2 * period - 1) / period);
    }

    private static double reduceRun(Plan plan, MemorySegment s, long off, long n) {
        return plan.dtype == DType.F32 ? VectorReductions.runF32(s, off, n, plan.reduce) : VectorReductions.runF64(s, off, n, plan.reduce);
    }

    private static void store(Plan plan, MemorySegment dst, long row, double v) {
        if (plan.dtype == DType.F32) dst.setAtIndex(ValueLayout.JAVA_FLOAT, row, (float) v);
        else dst.setAtIndex(ValueLayout.JAVA_DOUBLE, row, v);
    }

    /** Each thread's scratch memory: see {@link #scratches(List)}. */
    private static final ThreadLocal<MemorySegment> SLAB = new ThreadLocal<>();

    /** {@code plan}'s scratch blocks: {@link #scratches(List)} of one plan. */
    static MemorySegment[] scratches(Plan plan) { return scratches(List.of(plan))[0]; }

    /**
     * The scratch blocks of each plan ({@code null} for a {@code null} plan), carved from the calling thread's slab,
     * 64-byte aligned, contents undefined (every step writes its scratch before a later step reads it). A task runs its
     * blocks to the end before the thread runs anything else that takes scratch (a leaf of {@link Parallel#forRange}
     * forks nothing), so one slab per thread serves every fused kernel: allocating and zeroing fresh scratch per task
     * cost more than the work on small tensors (an Adam update of 18K elements: 65 vs 38 µs). The slab only grows (to
     * the largest plans' need, ~100 KB for the training step's), in an automatic arena freed with its thread.
     */
    static MemorySegment[][] scratches(List<Plan> plans) {
        long need = 0;
        for (Plan p : plans) if (p != null) need += (long) p.scratches * BLOCK * (p.dtype.bits() / 8);
        MemorySegment slab = SLAB.get();
        if (slab == null || slab.byteSize() < need) {
            slab = Arena.ofAuto().allocate(Math.max(need, 64 * 1024), 64);
            SLAB.set(slab);
        }
        MemorySegment[][] out = new MemorySegment[plans.size()][];
        long at = 0;
        for (int k = 0; k < out.length; k++) {
            Plan p = plans.get(k);
            if (p == null) continue;
            long bytes = (long) BLOCK * (p.dtype.bits() / 8);
            out[k] = new MemorySegment[p.scratches];
            for (int i = 0; i < p.scratches; i++, at += bytes) out[k][i] = slab.asSlice(at, bytes);
        }
        return out;
    }

    /** The chain's steps for elements {@code [start, start + n)} ({@code n <= BLOCK}). */
    static void runSteps(Plan plan, MemorySegment[] in, MemorySegment[] scratch, MemorySegment dst, long start, long n) {
        for (Step s : plan.steps) {
            switch (s) {
                case UnaryStep u -> unary(plan.dtype, u.k(), seg(u.x(), in, scratch, dst), idx(u.x(), start),
                        seg(u.out(), in, scratch, dst), idx(u.out(), start), n);
                case BinaryStep b -> binary(plan.dtype, b, in, scratch, dst, start, n);
                case SelectStep c -> select(plan.dtype, c, in, scratch, dst, start, n);
            }
        }
    }

    private static void select(DType t, SelectStep c, MemorySegment[] in, MemorySegment[] scratch, MemorySegment dst, long start, long n) {
        MemorySegment p = seg(c.pred(), in, scratch, dst), o = seg(c.out(), in, scratch, dst);
        long pi = idx(c.pred(), start), oi = idx(c.out(), start);
        boolean sa = isScalar(c.a()), sb = isScalar(c.b());
        MemorySegment a = sa ? null : seg(c.a(), in, scratch, dst), b = sb ? null : seg(c.b(), in, scratch, dst);
        long ai = idx(c.a(), start), bi = idx(c.b(), start);
        if (t == DType.F32) {
            float ka = sa ? (float) scalarValue(t, c.a(), in) : 0, kb = sb ? (float) scalarValue(t, c.b(), in) : 0;
            long done = VectorF32.select(p, pi, a, ai, ka, b, bi, kb, o, oi, n);
            for (long i = done; i < n; i++) {
                boolean q = p.get(ValueLayout.JAVA_BYTE, pi + i) != 0;
                float v = q ? (sa ? ka : a.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, ai + i)) : (sb ? kb : b.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, bi + i));
                o.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, oi + i, v);
            }
        } else {
            double ka = sa ? scalarValue(t, c.a(), in) : 0, kb = sb ? scalarValue(t, c.b(), in) : 0;
            long done = VectorF64.select(p, pi, a, ai, ka, b, bi, kb, o, oi, n);
            for (long i = done; i < n; i++) {
                boolean q = p.get(ValueLayout.JAVA_BYTE, pi + i) != 0;
                double v = q ? (sa ? ka : a.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, ai + i)) : (sb ? kb : b.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, bi + i));
                o.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, oi + i, v);
            }
        }
    }

    private static void runBlocks(Plan plan, MemorySegment[] in, MemorySegment dst, long fromBlock, long toBlock) {
        MemorySegment[] scratch = scratches(plan);
        for (long blk = fromBlock; blk < toBlock; blk++) {
            long start = blk * BLOCK;
            runSteps(plan, in, scratch, dst, start, Math.min(BLOCK, plan.size - start));
        }
    }

    private static void binary(DType t, BinaryStep b, MemorySegment[] in, MemorySegment[] scratch, MemorySegment dst, long start, long n) {
        MemorySegment o = seg(b.out(), in, scratch, dst);
        long oi = idx(b.out(), start);
        boolean sa = isScalar(b.a()), sb = isScalar(b.b());
        if (!sa && !sb) {
            if (t == DType.F32) VectorF32.binary(b.k(), seg(b.a(), in, scratch, dst), idx(b.a(), start), seg(b.b(), in, scratch, dst), idx(b.b(), start), o, oi, n);
            else VectorF64.binary(b.k(), seg(b.a(), in, scratch, dst), idx(b.a(), start), seg(b.b(), in, scratch, dst), idx(b.b(), start), o, oi, n);
            return;
        }
        // One side is a scalar (the planner never makes both scalar): tensor-op-scalar, swapped when the scalar is on the left.
        VectorOps.Binary k = sb ? b.k() : b.k().swapped();
        Slot full = sb ? b.a() : b.b();
        Slot scalar = sb ? b.b() : b.a();
        double s = scalarValue(t, scalar, in);
        if (t == DType.F32) VectorF32.binaryScalar(k, seg(full, in, scratch, dst), idx(full, start), (float) s, o, oi, n);
        else VectorF64.binaryScalar(k, seg(full, in, scratch, dst), idx(full, start), s, o, oi, n);
    }

    private static void unary(DType t, VectorOps.Unary k, MemorySegment x, long xi, MemorySegment o, long oi, long n) {
        if (t == DType.F32) VectorF32.unary(k, x, xi, o, oi, n);
        else VectorF64.unary(k, x, xi, o, oi, n);
    }

    private static boolean isScalar(Slot s) { return s instanceof ScalarInput || s instanceof ScalarConst; }

    private static double scalarValue(DType t, Slot s, MemorySegment[] in) {
        return switch (s) {
            case ScalarConst c -> c.value();
            case ScalarInput i -> t == DType.F32 ? in[i.input()].get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0)
                    : in[i.input()].get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
            default -> throw new IllegalStateException("not a scalar slot: " + s);
        };
    }

    private static MemorySegment seg(Slot s, MemorySegment[] in, MemorySegment[] scratch, MemorySegment dst) {
        return switch (s) {
            case Full f -> in[f.input()];
            case Tiled f -> in[f.input()];
            case Scratch x -> scratch[x.index()];
            case Out o -> dst;
            case ScalarInput i -> throw new IllegalStateException("scalar slot has no block");
            case ScalarConst c -> throw new IllegalStateException("scalar slot has no block");
            case Raw r -> throw new IllegalStateException("raw slot has no block");
        };
    }

    /** Element index of the block start in slot {@code s}: scratch is per block, inputs and output are whole. */
    private static long idx(Slot s, long start) {
        return switch (s) {
            case Scratch x -> 0;
            case Tiled f -> start % f.period();
            default -> start;
        };
    }

    /** Whether {@link #run} runs {@code body} in one blocked pass (on a vector-kernel engine) rather than interpreting it. */
    static boolean covers(Graph body) { return plan(body) != null; }

    /** The block plan of {@code body}, or {@code null} when it has a node this runner doesn't cover. */
    static Plan plan(Graph body) {
        if (body.outputs().size() != 1) return null;
        Value result = body.outputs().getFirst();
        int reduce = -1;
        long rowLength = 0;
        Node last = body.nodes().isEmpty() ? null : body.nodes().getLast();
        boolean columns = false;
        if (last != null && last.outputs().getFirst().id() == result.id() && last.prim() instanceof Prim.Reduce r) {
            Value produced = last.inputs().getFirst();
            reduce = trailingReduction(r, produced);
            if (reduce < 0 && leadingSum(r, produced)) {
                // a sum over leading axes: rows of rowLength columns, each column summed
                if (produced.dtype() != DType.F32) return null;
                reduce = VectorReductions.SUM;
                columns = true;
            }
            if (reduce < 0 || r.out() != produced.dtype()) return null;
            rowLength = 1;
            if (columns) {
                for (int a = r.axes().length; a < produced.shape().rank(); a++) rowLength *= produced.shape().dim(a);
                if (rowLength > BLOCK) return null;
                if (rowLength == 1) { // one column: a sum of everything, as the unfused kernel takes it
                    columns = false;
                    rowLength = produced.shape().size();
                }
            } else {
                for (int a : r.axes()) rowLength *= produced.shape().dim(a);
            }
            if (rowLength == 0 || produced.shape().size() == 0) return null;
            body = Graph.of(body.inputs(), body.nodes().subList(0, body.nodes().size() - 1), List.of(produced));
            result = produced;
        }
        DType t = result.dtype();
        if (t != DType.F32 && t != DType.F64) return null;
        var shape = result.shape();
        Map<Integer, Slot> slots = new HashMap<>();
        long[] periods = new long[body.inputs().size()];
        Prologue prologue = shape.rank() == 0 ? null : Prologue.of(body);
        if (prologue != null) {
            for (int k = 0; k < prologue.graph.outputs().size(); k++) {
                Value v = prologue.graph.outputs().get(k);
                if (v.dtype() != t) return null;
                slots.put(v.id(), new ScalarInput(body.inputs().size() + k));
            }
            body = Graph.of(body.inputs(), body.nodes().stream().filter(n -> !prologue.moved.contains(n)).toList(), body.outputs());
        }
        java.util.Set<Integer> read = new java.util.HashSet<>();
        for (Node n : body.nodes()) for (Value v : n.inputs()) read.add(v.id());
        for (int i = 0; i < body.inputs().size(); i++) {
            Value v = body.inputs().get(i);
            if (!read.contains(v.id()) && v.id() != result.id()) continue; // read by the prologue alone
            if (v.dtype() != t && !(v.dtype() == DType.PRED && v.shape().equals(shape))) return null;
            if (v.shape().equals(shape)) slots.put(v.id(), new Full(i));
            else if (v.shape().size() == 1) slots.put(v.id(), new ScalarInput(i));
            else if (repeats(v.shape(), shape)) slots.put(v.id(), new Tiled(i, periods[i] = v.shape().size()));
            else slots.put(v.id(), new Raw(i));
        }
        List<Step> steps = new ArrayList<>();
        int scratches = 0;
        long cost = 0;
        for (Node n : body.nodes()) {
            Value v = n.outputs().getFirst();
            boolean comparison = n.prim() instanceof Prim.Binary cb && cb.op().isComparison();
            if (v.dtype() != t && !(comparison && v.dtype() == DType.PRED)) return null;
            boolean isResult = v.id() == result.id();
            switch (n.prim()) {
                case Prim.Constant c when c.shape().size() == 1 -> {
                    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(c.bytes()).order(java.nio.ByteOrder.nativeOrder());
                    slots.put(v.id(), new ScalarConst(t == DType.F32 ? bb.getFloat(0) : bb.getDouble(0)));
                    if (isResult) return null;
                    continue;
                }
                case Prim.Broadcast b -> {
                    Slot src = slots.get(n.inputs().getFirst().id());
                    if (isResult || src == null) return null;
                    if (isScalar(src)) {
                        slots.put(v.id(), src); // the op reads the scalar
                    } else if ((src instanceof Raw || src instanceof Tiled) && v.shape().equals(shape)
                            && repeats(aligned(n.inputs().getFirst().shape(), b), shape)) {
                        int i = src instanceof Raw r ? r.input() : ((Tiled) src).input();
                        slots.put(v.id(), new Tiled(i, periods[i] = n.inputs().getFirst().shape().size()));
                    } else {
                        return null;
                    }
                    continue;
                }
                default -> { }
            }
            if (!v.shape().equals(shape)) return null;
            Slot out = isResult ? new Out() : new Scratch(scratches++);
            switch (n.prim()) {
                case Prim.Unary u -> {
                    VectorOps.Unary k = VectorOps.Unary.of(u.op(), t);
                    Slot x = slots.get(n.inputs().getFirst().id());
                    if (k == null || u.out() != t || x == null || isScalar(x) || x instanceof Raw) return null;
                    steps.add(new UnaryStep(k, x, out));
                    cost += k.cost();
                }
                case Prim.Binary b -> {
                    VectorOps.Binary k = VectorOps.Binary.of(b.op(), n.inputs().get(0).dtype());
                    Slot x = slots.get(n.inputs().get(0).id()), y = slots.get(n.inputs().get(1).id());
                    if (k == null || n.inputs().get(0).dtype() != t || k.isComparison() != comparison
                            || x == null || y == null || isScalar(x) && isScalar(y) || x instanceof Raw || y instanceof Raw) return null;
                    steps.add(new BinaryStep(k, x, y, out));
                    cost += 1;
                }
                case Prim.Select sel -> {
                    Slot p = slots.get(n.inputs().get(0).id()), x = slots.get(n.inputs().get(1).id()), y = slots.get(n.inputs().get(2).id());
                    if (p == null || isScalar(p) || p instanceof Out || p instanceof Tiled || x == null || y == null
                            || x instanceof Raw || y instanceof Raw || !n.inputs().get(0).shape().equals(shape)) return null;
                    steps.add(new SelectStep(p, x, y, out));
                    cost += 1;
                }
                default -> {
                    return null;
                }
            }
            slots.put(v.id(), out);
        }
        if (steps.isEmpty() || !(slots.get(result.id()) instanceof Out)) return null;
        if (reduce >= 0) {
            // the chain's result goes to one more scratch, reduced row by row instead of stored
            Scratch r = new Scratch(scratches++);
            List<Step> toScratch = new ArrayList<>();
            for (Step step : steps) {
                toScratch.add(switch (step) {
                    case UnaryStep u -> u.out() instanceof Out ? new UnaryStep(u.k(), u.x(), r) : u;
                    case BinaryStep b -> b.out() instanceof Out ? new BinaryStep(b.k(), b.a(), b.b(), r) : b;
                    case SelectStep c -> c.out() instanceof Out ? new SelectStep(c.pred(), c.a(), c.b(), r) : c;
                });
            }
            if (toScratch.stream().anyMatch(FusedKernels::readsOut)) return null;
            return new Plan(t, shape.size(), List.copyOf(toScratch), scratches, cost, reduce, rowLength, columns, periods,
                    prologue == null ? null : prologue.graph, prologue == null ? null : prologue.inputs);
        }
        return new Plan(t, shape.size(), List.copyOf(steps), scratches, cost, -1, 0, false, periods,
                prologue == null ? null : prologue.graph, prologue == null ? null : prologue.inputs);
    }

    /**
     * A body's rank-0 element-wise nodes ({@code moved}) with the constants they read, as a graph of its own
     * whose outputs are the values the rest of the body reads; {@code inputs} are the body inputs it takes.
     */
    private record Prologue(Graph graph, java.util.Set<Node> moved, int[] inputs) {
        /** The prologue of {@code body} (whose result is not rank 0), or {@code null} when it has no rank-0 element-wise node. */
        static Prologue of(Graph body) {
            java.util.Set<Node> moved = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            java.util.Set<Integer> movedValues = new java.util.HashSet<>();
            for (Node n : body.nodes()) {
                boolean elementwise = n.prim() instanceof Prim.Unary || n.prim() instanceof Prim.Binary
                        || n.prim() instanceof Prim.Select || n.prim() instanceof Prim.Cast;
                if (elementwise && n.outputs().size() == 1 && n.outputs().getFirst().shape().rank() == 0) {
                    moved.add(n);
                    movedValues.add(n.outputs().getFirst().id());
                }
            }
            if (moved.isEmpty()) return null;
            java.util.Set<Integer> readByMoved = new java.util.HashSet<>(), readByRest = new java.util.HashSet<>();
            java.util.LinkedHashSet<Value> outputs = new java.util.LinkedHashSet<>();
            for (Node n : body.nodes()) {
                for (Value v : n.inputs()) {
                    if (moved.contains(n)) {
                        readByMoved.add(v.id());
                    } else {
                        readByRest.add(v.id());
                        if (movedValues.contains(v.id())) outputs.add(v);
                    }
                }
            }
            List<Node> nodes = body.nodes().stream()
                    .filter(n -> moved.contains(n) || n.prim() instanceof Prim.Constant && readByMoved.contains(n.outputs().getFirst().id())).toList();
            for (Node n : nodes) if (!readByRest.contains(n.outputs().getFirst().id())) moved.add(n); // a constant only the prologue reads
            List<Value> ins = new ArrayList<>();
            List<Integer> at = new ArrayList<>();
            for (int i = 0; i < body.inputs().size(); i++) {
                if (readByMoved.contains(body.inputs().get(i).id())) {
                    ins.add(body.inputs().get(i));
                    at.add(i);
                }
            }
            return new Prologue(Graph.of(ins, nodes, List.copyOf(outputs)), moved, at.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** The longest repeated block this runner tiles (its copy holds at least {@code BLOCK + period} elements). */
    static final long MAX_PERIOD = 1 << 16;

    /**
     * Whether {@code small} (broadcast to {@code out} by NumPy rules) is one block repeated over {@code out}'s
     * leading axes, short enough to tile.
     */
    private static boolean repeats(dev.jburn.Shape small, dev.jburn.Shape out) {
        return small != null && small.rank() <= out.rank() && small.size() > 1 && small.size() <= MAX_PERIOD
                && VectorElementwise.repeatsOverLeadingAxes(small, out);
    }

    /**
     * A broadcast's operand as the rank-{@code out} shape it becomes before repetition: its dims at the
     * broadcast's axes, 1 elsewhere ({@code null} unless the axes increase, which keeps the element order).
     */
    private static dev.jburn.Shape aligned(dev.jburn.Shape in, Prim.Broadcast b) {
        int[] d = new int[b.outShape().rank()];
        java.util.Arrays.fill(d, 1);
        int[] axes = b.axes();
        if (axes.length != in.rank()) return null;
        for (int i = 0; i < axes.length; i++) {
            if (axes[i] < 0 || axes[i] >= d.length || i > 0 && axes[i] <= axes[i - 1]) return null;
            d[axes[i]] = in.dim(i);
        }
        return dev.jburn.Shape.of(d);
    }

    private static boolean readsOut(Step s) {
        return switch (s) {
            case UnaryStep u -> u.x() instanceof Out;
            case BinaryStep b -> b.a() instanceof Out || b.b() instanceof Out;
            case SelectStep c -> c.pred() instanceof Out || c.a() instanceof Out || c.b() instanceof Out;
        };
    }

    /** Whether {@code r} sums {@code x} over its leading axes {@code 0..k-1}, some but not all of them. */
    private static boolean leadingSum(Prim.Reduce r, Value x) {
        int[] axes = r.axes();
        if (r.op() != dev.jburn.op.ReduceOp.SUM || axes.length == 0 || axes.length >= x.shape().rank()) return false;
        for (int i = 0; i < axes.length; i++) if (axes[i] != i) return false;
        return true;
    }

    /** The reduction code of a sum/max/min over the trailing axes of {@code x} (all axes included), or -1. */
    private static int trailingReduction(Prim.Reduce r, Value x) {
        int code = switch (r.op()) {
            case SUM -> VectorReductions.SUM;
            case REDUCE_MAX -> VectorReductions.MAX;
            case REDUCE_MIN -> VectorReductions.MIN;
            default -> -1;
        };
        int rank = x.shape().rank();
        int[] axes = r.axes();
        for (int i = 0; i < axes.length; i++) {
            if (axes[i] != rank - axes.length + i) return -1;
        }
        return axes.length == 0 ? -1 : code;
    }
}
