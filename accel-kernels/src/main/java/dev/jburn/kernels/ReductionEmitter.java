package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Source for a {@link ReductionKernel}: one workgroup of 256 threads per output element; each
 * thread folds a strided share of the reduced elements (computing the producer's chain on the
 * fly), then a tree in shared memory combines the 256 partial results. F16/BF16 accumulate in
 * F32; integers wrap. The element count parameter {@code n} is the number of outputs: launch
 * {@code n} workgroups (GLSL: x first, then y) or up to {@code n} blocks of 256 threads (CUDA).
 * The other forms ({@link #emitPerThread}, {@link #emitColumns}, {@link #emitSplit}) are what
 * {@link ReductionPlan} picks from the shape.
 */
public final class ReductionEmitter {
    private ReductionEmitter() {}

    /** The kernel's name in every generated CUDA and MSL reduction (GLSL's entry point is {@code main}). */
    public static final String CUDA_ENTRY = "jburn_reduce";

    /** Threads per workgroup. */
    public static final int GROUP = 256;

    /** Why {@code k} cannot be emitted for {@code d} on a device with {@code f}, or empty when it can. */
    public static Optional<String> unsupported(ReductionKernel k, Dialect d, DeviceFeatures f) {
        try {
            emit(k, d, f);
            return Optional.empty();
        } catch (Emitter.Unsupported u) {
            return Optional.of(u.getMessage());
        }
    }

    /** The reduction's source; throws {@code IllegalArgumentException} when {@link #unsupported} is not empty. */
    public static KernelSource emit(ReductionKernel k, Dialect d, DeviceFeatures f) {
        Emitter.requireStorage(k.outType(), f);
        StringBuilder body = new StringBuilder();
        // The decomposition statements go before the declaration that uses them.
        String baseOffset = offset("o", keptDims(k), keptStrides(k), "q", body);
        body.append("    idx_t base = ").append(baseOffset).append(";\n");
        StringBuilder inner = new StringBuilder();
        String innerOffset = offset("r", reducedDims(k), reducedStrides(k), "p", inner);
        String acc = foldAndCombine(k, d, f, "idx_t(" + k.reducedCount() + ")", inner, innerOffset, k.producer().inputTypes().size(), body);
        return perGroup(k, d, f, acc, body);
    }

    /** GLSL's entry point is {@code main}; CUDA's and MSL's kernels are named. */
    private static String entry(Dialect d) { return d == Dialect.GLSL ? "main" : CUDA_ENTRY; }

    /** A kernel of one workgroup per output ({@link Dialect#openReduction}) around {@code body}. */
    private static KernelSource perGroup(ReductionKernel k, Dialect d, DeviceFeatures f, String acc, CharSequence body) {
        String code = Prelude.of(d, f) + d.openReduction(entry(d), k.producer().inputTypes(), k.outType(), acc) + body + d.closeReduction();
        return new KernelSource(entry(d), code, k.producer().inputTypes(), k.outType());
    }

    /** A kernel of one thread per item ({@link Dialect#open}, one item per thread, no vector frame) around {@code body}. */
    private static KernelSource perThread(ReductionKernel k, Dialect d, DeviceFeatures f, CharSequence body) {
        String code = Prelude.of(d, f) + d.open(entry(d), k.producer().inputTypes(), k.outType()) + body + d.close();
        return new KernelSource(entry(d), code, k.producer().inputTypes(), k.outType());
    }

    /**
     * Appends what every reduction kernel shares, after the statements that define {@code base}:
     * each thread folds elements {@code t, t + 256, ...} below {@code count} (at input position
     * {@code base + innerOffset}, after {@code inner}'s statements), the shared-memory tree combines
     * the 256 partial results, and thread 0 stores output {@code o} at binding {@code outBinding}.
     * Returns the accumulator's type.
     */
    private static String foldAndCombine(ReductionKernel k, Dialect d, DeviceFeatures f, String count, CharSequence inner,
                                         String innerOffset, int outBinding, StringBuilder body) {
        return foldAndCombine(k, d, f, "idx_t(t)", count, inner, innerOffset, outBinding, body);
    }

    /** As above, with each thread's elements starting at {@code start} (an expression) instead of {@code t}. */
    private static String foldAndCombine(ReductionKernel k, Dialect d, DeviceFeatures f, String start, String count, CharSequence inner,
                                         String innerOffset, int outBinding, StringBuilder body) {
        String acc = fold(k, d, f, start, count, "idx_t(" + GROUP + ")", inner, innerOffset, body);
        DType accType = accumulatorType(k);
        body.append("    sh[t] = acc;\n");
        body.append("    ").append(d.barrier()).append('\n');
        body.append("    for (u32 s = ").append(GROUP / 2).append("u; s > 0u; s >>= 1) {\n");
        body.append("      if (t < s) sh[t] = ").append(combine(k, accType, "sh[t]", "sh[t + s]")).append(";\n");
        body.append("      ").append(d.barrier()).append('\n');
        body.append("    }\n");
        String stored = d.toStorage(k.outType(), Types.toStorageBits(k.outType(), Types.wrap(k.outType(), "sh[0]")));
        body.append("    if (t == 0u) ").append(d.write(outBinding, "o", stored)).append('\n');
        return acc;
    }

    /** The accumulator's type: PRED (0/1 in a u32) for ALL/ANY, the producer's type otherwise. */
    private static DType accumulatorType(ReductionKernel k) {
        return switch (k.op()) {
            case ALL, ANY -> DType.PRED;
            default -> k.producer().outType();
        };
    }

    /**
     * Appends {@code acc}'s declaration and the loop folding elements {@code start, start + step, ...}
     * below {@code count} (at input position {@code base + innerOffset}, after {@code inner}'s
     * statements, computing the producer's chain on the fly); returns the accumulator's type.
     */
    private static String fold(ReductionKernel k, Dialect d, DeviceFeatures f, String start, String count, String step,
                               CharSequence inner, String innerOffset, StringBuilder body) {
        DType in = k.producer().outType();
        DType accType = accumulatorType(k);
        boolean logical = accType == DType.PRED;
        String acc = Types.compute(accType);
        body.append("    ").append(acc).append(" acc = ").append(identity(k, d, accType)).append(";\n");
        body.append("    for (idx_t r = ").append(start).append("; r < ").append(count).append("; r += ").append(step).append(") {\n");
        body.append(inner);
        body.append("      idx_t i = base + ").append(innerOffset).append(";\n");
        String v = Emitter.statements(k.producer(), d, f, "      ", body);
        String element = logical ? "(" + v + " != " + Types.compute(in) + "(0) ? 1u : 0u)" : v;
        body.append("      acc = ").append(combine(k, accType, "acc", element)).append(";\n");
        body.append("    }\n");
        return acc;
    }

    /**
     * The same reduction with one thread per output, folding its elements in order (no shared memory,
     * no barrier): for outputs of few elements each (a pooling window, a row of ten logits), where
     * {@link #emit}'s 256 threads per output would mostly idle. Launched like an element-wise kernel
     * over {@code n} outputs, one per thread (CUDA: a grid-stride loop over {@code i}). CUDA and GLSL.
     */
    public static KernelSource emitPerThread(ReductionKernel k, Dialect d, DeviceFeatures f) {
        requireChunkedForms(d);
        Emitter.requireStorage(k.outType(), f);
        StringBuilder body = new StringBuilder("    idx_t o = i;\n");
        String baseOffset = offset("o", keptDims(k), keptStrides(k), "q", body);
        body.append("    idx_t base = ").append(baseOffset).append(";\n");
        StringBuilder inner = new StringBuilder();
        String innerOffset = offset("r", reducedDims(k), reducedStrides(k), "p", inner);
        fold(k, d, f, "idx_t(0)", "idx_t(" + k.reducedCount() + ")", "idx_t(1)", inner, innerOffset, body);
        String stored = d.toStorage(k.outType(), Types.toStorageBits(k.outType(), Types.wrap(k.outType(), "acc")));
        body.append("    ").append(d.write(k.producer().inputTypes().size(), "o", stored)).append('\n');
        return perThread(k, d, f, body);
    }

    /**
     * Whether {@link #emitSplit} takes {@code k}: float sums, products, maxima and minima whose
     * producer already has the output's type (the partial results are then stored exactly as the
     * accumulator holds them, so splitting changes only the order of a sum or product).
     */
    public static boolean splittable(ReductionKernel k) {
        boolean op = switch (k.op()) {
            case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN -> true;
            default -> false;
        };
        DType t = k.outType();
        return op && (t == DType.F32 || t == DType.F64) && k.producer().outType() == t;
    }

    /**
     * The first pass of a reduction split across {@code parts} workgroups per output, for few outputs
     * of many elements each (a batch-norm statistic: 32 channels of 100,352 elements), where
     * {@link #emit}'s one workgroup per output leaves most of the GPU idle. Workgroup {@code o} (of
     * {@code n = outputs · parts}) folds the {@code o % parts}-th contiguous chunk of output
     * {@code o / parts}'s elements, as {@link #emit} folds a whole output, and writes the partial
     * result {@code o}; a per-thread reduction of the {@code [outputs, parts]} partials
     * ({@link ReductionPlan#finishing}) finishes it. Requires {@link #splittable}. CUDA and GLSL.
     */
    public static KernelSource emitSplit(ReductionKernel k, Dialect d, DeviceFeatures f, int parts) {
        requireChunkedForms(d);
        if (!splittable(k) || parts < 1) throw new IllegalArgumentException("not a splittable reduction: " + k);
        Emitter.requireStorage(k.outType(), f);
        StringBuilder body = new StringBuilder();
        body.append("    idx_t oo = o / idx_t(").append(parts).append("), part = o % idx_t(").append(parts).append(");\n");
        StringBuilder inner = new StringBuilder();
        String innerOffset = chunk(k, parts, "oo", body, inner);
        String acc = foldAndCombine(k, d, f, "lo + idx_t(t)", "hi", inner, innerOffset, k.producer().inputTypes().size(), body);
        return perGroup(k, d, f, acc, body);
    }

    /**
     * Whether the input's innermost axis is kept: consecutive outputs then sit next to each other in memory (a
     * batch-norm statistic over {@code [N, H, W, C]}), and {@link #emitColumns} reads them coalesced.
     */
    public static boolean innermostKept(ReductionKernel k) {
        int last = k.inShape().rank() - 1;
        return last >= 0 && !k.isReduced(last) && k.inShape().dim(last) > 1;
    }

    /**
     * The first pass of a reduction split into {@code parts} chunks per output, one thread per (output, chunk):
     * thread {@code i} (of {@code n = outputs · parts}) folds chunk {@code i / outputs} of output
     * {@code i % outputs} in order and writes partial result {@code (i % outputs) · parts + i / outputs}, so a
     * reduction of the {@code [outputs, parts]} partials over their last axis finishes it. Neighbouring threads
     * take neighbouring outputs: where the innermost axis is kept ({@link #innermostKept}) each of their loads
     * is one coalesced access, where one 256-thread group per output ({@link #emit}) reads one element per
     * cache line. Requires {@link #splittable}. Launched like {@link #emitPerThread}. CUDA and GLSL.
     */
    public static KernelSource emitColumns(ReductionKernel k, Dialect d, DeviceFeatures f, int parts) {
        requireChunkedForms(d);
        if (!splittable(k) || parts < 1) throw new IllegalArgumentException("not a splittable reduction: " + k);
        Emitter.requireStorage(k.outType(), f);
        long outputs = k.outShape().size();
        StringBuilder body = new StringBuilder();
        body.append("    idx_t o = i % idx_t(").append(outputs).append("), part = i / idx_t(").append(outputs).append(");\n");
        StringBuilder inner = new StringBuilder();
        String innerOffset = chunk(k, parts, "o", body, inner);
        fold(k, d, f, "lo", "hi", "idx_t(1)", inner, innerOffset, body);
        String stored = d.toStorage(k.outType(), Types.toStorageBits(k.outType(), Types.wrap(k.outType(), "acc")));
        body.append("    ").append(d.write(k.producer().inputTypes().size(), "o * idx_t(" + parts + ") + part", stored)).append('\n');
        return perThread(k, d, f, body);
    }

    /**
     * What the chunked forms share: {@code base}, the input offset of output {@code output}, and {@code [lo, hi)},
     * the reduced elements of chunk {@code part} (of {@code parts}) appended to {@code body}; the inner offset's
     * statements go to {@code inner}, and its expression is returned.
     */
    private static String chunk(ReductionKernel k, int parts, String output, StringBuilder body, StringBuilder inner) {
        long count = k.reducedCount();
        long chunk = (count + parts - 1) / parts;
        String baseOffset = offset(output, keptDims(k), keptStrides(k), "q", body);
        body.append("    idx_t base = ").append(baseOffset).append(";\n");
        body.append("    idx_t lo = part * idx_t(").append(chunk).append("), hi = lo + idx_t(").append(chunk).append(");\n");
        body.append("    if (hi > idx_t(").append(count).append(")) hi = idx_t(").append(count).append(");\n");
        return offset("r", reducedDims(k), reducedStrides(k), "p", inner);
    }

    /** The per-thread and split forms are checked on CUDA (host-compiled) and GLSL (lavapipe); no Metal engine runs them yet. */
    private static void requireChunkedForms(Dialect d) {
        if (d == Dialect.METAL) throw new IllegalArgumentException("this reduction form is emitted for CUDA and GLSL only, not " + d.name());
    }

    /**
     * A reduction whose source does not depend on the shape, so one compiled kernel serves every
     * size: {@code op} over the last axis of a row-major {@code [rows, cols]} matrix of type
     * {@code in}. Inputs: the matrix (binding 0) and a one-element {@code u32} buffer holding
     * {@code cols} (binding 1); output (binding 2) of {@code rows} elements of type {@code out}; the
     * element count {@code n} is {@code rows}, launched as in {@link #emit}. Engines reduce any axes
     * with it after moving the reduced axes last. (Added for the Vulkan engine, where every distinct
     * source costs a shader compilation.)
     */
    public static KernelSource emitRows(ReduceOp op, DType in, DType out, Dialect d, DeviceFeatures f) {
        ElementwiseKernel load = new ElementwiseKernel(List.of(in, DType.U32), List.of(new KernelExpr.Load(0, null, in)), Shape.of(1));
        ReductionKernel k = new ReductionKernel(op, load, new int[] {0}, out);
        Emitter.requireStorage(out, f);
        StringBuilder body = new StringBuilder();
        body.append("    idx_t cols = idx_t(").append(d.read(1, "0")).append(");\n");
        body.append("    idx_t base = o * cols;\n");
        String acc = foldAndCombine(k, d, f, "cols", "", "r", 2, body);
        return perGroup(k, d, f, acc, body);
    }

    private static String identity(ReductionKernel k, Dialect d, DType t) {
        String ct = Types.compute(t);
        return switch (k.op()) {
            case SUM, ANY -> ct + "(0)";
            case PRODUCT, ALL -> ct + "(1)";
            case REDUCE_MAX -> extreme(d, t, false);
            case REDUCE_MIN -> extreme(d, t, true);
            case ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new IllegalStateException(k.op().opName());
        };
    }

    /** +Inf / -Inf for floats, the type's largest / smallest value for integers, as a compute value. */
    private static String extreme(Dialect d, DType t, boolean max) {
        if (t == DType.F64) return d.f64Bits(max ? 0x7FF0000000000000L : 0xFFF0000000000000L);
        if (t.isFloat()) return d.f32Bits(max ? 0x7F800000 : 0xFF800000);
        long v = t.isPred() ? (max ? 1 : 0) : (max ? t.maxLong() : t.minLong());
        return switch (t) {
            case U64, S64 -> d.int64Literal(v, t == DType.U64);
            case S8, S16, S32 -> String.format("i32(0x%08xu)", (int) v);
            default -> String.format("u32(0x%08xu)", (int) v);
        };
    }

    private static String combine(ReductionKernel k, DType t, String a, String b) {
        String ct = Types.compute(t);
        String u = Types.unsignedOf(t);
        return switch (k.op()) {
            case SUM -> t.isFloat() ? "(" + a + " + " + b + ")" : ct + "(" + u + "(" + a + ") + " + u + "(" + b + "))";
            case PRODUCT -> t.isFloat() ? "(" + a + " * " + b + ")" : ct + "(" + u + "(" + a + ") * " + u + "(" + b + "))";
            case REDUCE_MAX -> t.isFloat() ? "jb_max(" + a + ", " + b + ")" : "(" + b + " > " + a + " ? " + b + " : " + a + ")";
            case REDUCE_MIN -> t.isFloat() ? "jb_min(" + a + ", " + b + ")" : "(" + b + " < " + a + " ? " + b + " : " + a + ")";
            case ALL -> "((" + a + " != 0u && " + b + " != 0u) ? 1u : 0u)";
            case ANY -> "((" + a + " != 0u || " + b + " != 0u) ? 1u : 0u)";
            case ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new IllegalStateException(k.op().opName());
        };
    }

    /** Statements decomposing {@code var} over {@code dims} (last fastest) into {@code body}; returns the offset expression. */
    private static String offset(String var, long[] dims, long[] strides, String prefix, StringBuilder body) {
        if (dims.length == 0) return "idx_t(0)";
        boolean contiguous = true;
        long expect = strides[dims.length - 1];
        for (int j = dims.length - 1; j >= 0; j--) {
            contiguous &= strides[j] == expect || dims[j] == 1;
            expect *= dims[j];
        }
        if (contiguous) return strides[dims.length - 1] == 1 ? var : var + " * idx_t(" + strides[dims.length - 1] + ")";
        body.append("    idx_t ").append(prefix).append("_ = ").append(var).append(";\n");
        List<String> terms = new ArrayList<>();
        for (int j = dims.length - 1; j >= 0; j--) {
            String c = prefix + j;
            if (j == 0) body.append("    idx_t ").append(c).append(" = ").append(prefix).append("_;\n");
            else body.append("    idx_t ").append(c).append(" = ").append(prefix).append("_ % idx_t(").append(dims[j]).append("); ")
                    .append(prefix).append("_ = ").append(prefix).append("_ / idx_t(").append(dims[j]).append(");\n");
            terms.add(c + " * idx_t(" + strides[j] + ")");
        }
        return "(" + String.join(" + ", terms) + ")";
    }

    private static long[] rowMajorStrides(Shape s) {
        long[] st = new long[s.rank()];
        long acc = 1;
        for (int d = s.rank() - 1; d >= 0; d--) {
            st[d] = acc;
            acc *= s.dim(d);
        }
        return st;
    }

    private static long[] keptDims(ReductionKernel k) { return select(k, false, true); }

    private static long[] keptStrides(ReductionKernel k) { return select(k, false, false); }

    private static long[] reducedDims(ReductionKernel k) { return select(k, true, true); }

    private static long[] reducedStrides(ReductionKernel k) { return select(k, true, false); }

    private static long[] select(ReductionKernel k, boolean reduced, boolean dims) {
        Shape s = k.inShape();
        long[] st = rowMajorStrides(s);
        List<Long> out = new ArrayList<>();
        for (int d = 0; d < s.rank(); d++) {
            if (k.isReduced(d) == reduced) out.add(dims ? s.dim(d) : st[d]);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
