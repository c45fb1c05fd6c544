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

        String entry = d == Dialect.GLSL ? "main" : CUDA_ENTRY;
        String code = Prelude.of(d, f) + d.openReduction(entry, k.producer().inputTypes(), k.outType(), acc) + body + d.closeReduction();
        return new KernelSource(entry, code, k.producer().inputTypes(), k.outType());
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
        DType in = k.producer().outType();
        boolean logical = switch (k.op()) {
            case ALL, ANY -> true;
            default -> false;
        };
        DType accType = logical ? DType.PRED : in;
        String acc = Types.compute(accType);
        body.append("    ").append(acc).append(" acc = ").append(identity(k, d, accType)).append(";\n");
        body.append("    for (idx_t r = idx_t(t); r < ").append(count).append("; r += idx_t(").append(GROUP).append(")) {\n");
        body.append(inner);
        body.append("      idx_t i = base + ").append(innerOffset).append(";\n");
        String v = Emitter.statements(k.producer(), d, f, "      ", body);
        String element = logical ? "(" + v + " != " + Types.compute(in) + "(0) ? 1u : 0u)" : v;
        body.append("      acc = ").append(combine(k, accType, "acc", element)).append(";\n");
        body.append("    }\n");
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
        String entry = d == Dialect.GLSL ? "main" : CUDA_ENTRY;
        String code = Prelude.of(d, f) + d.openReduction(entry, load.inputTypes(), out, acc) + body + d.closeReduction();
        return new KernelSource(entry, code, load.inputTypes(), out);
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
