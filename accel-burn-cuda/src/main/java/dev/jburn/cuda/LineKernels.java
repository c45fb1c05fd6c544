package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.op.CumulativeOp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hand-written kernels over lines along one axis — arg-reductions and inclusive scans, one thread
 * per line, each line walked in order exactly as the cpu engine walks it (so float results match
 * bit for bit) — and {@code iota}. The emitter covers element-wise math and reductions; these ops
 * are data movements with a sequential dependence, specific to this engine. Sources are made per
 * dtype from one template and kept, so the kernel cache sees the same string instances.
 */
final class LineKernels {
    static final int THREADS = 256;
    static final String ARG_ENTRY = "jburn_arg_reduce", SCAN_ENTRY = "jburn_scan", IOTA_ENTRY = "jburn_iota";

    private static final Map<String, String> SOURCES = new ConcurrentHashMap<>();

    private static final String COMMON = LineKernelsCommon.TEXT;



    private LineKernels() {}

    /** The C storage type of {@code t}: the shared emitter's CUDA dialect decides it, so both kinds of kernel agree. */
    static String storage(DType t) {
        return dev.jburn.kernels.Dialect.CUDA.storageType(t);
    }

    /** An expression reading element {@code idx} of {@code in} as a number to compare (double for floats). */
    private static String load(DType t, String idx) {
        return switch (t) {
            case F16 -> "(double)jb_f16(in[" + idx + "])";
            case BF16 -> "(double)jb_bf16(in[" + idx + "])";
            case F32, F64 -> "(double)in[" + idx + "]";
            case U64 -> "(u64)in[" + idx + "]";
            case PRED, U8, U16, U32, S8, S16, S32, S64 -> "(i64)in[" + idx + "]";
        };
    }

    /**
     * {@code argmax/argmin} per line, as the cpu engine: for floats every NaN takes the lead (the last
     * NaN wins) and no number replaces a leading NaN; ±0 compare equal; ties go to the first index, or
     * the last when {@code high}.
     */
    static String argReduce(DType in, DType out, boolean max, boolean high) {
        String key = "arg:" + in + ":" + out + ":" + max + ":" + high;
        return SOURCES.computeIfAbsent(key, k -> {
            String cmpT = in.isFloat() ? "double" : in == DType.U64 ? "u64" : "i64";
            String better = max ? (high ? "c >= 0" : "c > 0") : (high ? "c <= 0" : "c < 0");
            String cmp = "int c = v > bestValue ? 1 : (v < bestValue ? -1 : 0);";
            String body = in.isFloat()
                    ? """
                      if (v != v) { best = k; nan = true; }
                      else if (!nan) { %s if (best < 0 || %s) { best = k; bestValue = v; } }
                      """.formatted(cmp, better)
                    : """
                      { %s if (best < 0 || %s) { best = k; bestValue = v; } }
                      """.formatted(cmp, better);
            return COMMON + """
                    extern "C" __global__ void %s(const %s* __restrict__ in, %s* __restrict__ out, i64 lines, i64 n, i64 inner) {
                        for (i64 line = (i64)blockIdx.x * blockDim.x + threadIdx.x; line < lines; line += (i64)gridDim.x * blockDim.x) {
                            i64 start = (line / inner) * n * inner + line %% inner;
                            i64 best = -1; %s bestValue = 0; bool nan = false;
                            for (i64 k = 0; k < n; k++) {
                                %s v = %s;
                                %s
                            }
                            out[line] = (%s)best;
                            (void)nan;
                        }
                    }
                    """.formatted(ARG_ENTRY, storage(in), storage(out), cmpT, cmpT, load(in, "start + k * inner"), body, storage(out));
        });
    }

    /** Whether {@link #scan} has a kernel for {@code t}: the float types with their own C arithmetic, and integers. */
    static boolean scans(DType t) {
        return switch (t) {
            case F32, F64, U8, U16, U32, U64, S8, S16, S32, S64 -> true;
            case F16, BF16, PRED -> false;
        };
    }

    /**
     * An inclusive scan per line in the input type, as the cpu engine: floats in their own
     * arithmetic (NaN-propagating max/min with -0 below +0, as {@code Math.max/min}); integers in
     * wrapping 64-bit arithmetic stored truncated, which equals wrapping arithmetic in the type.
     */
    static String scan(CumulativeOp op, DType t, boolean reverse) {
        String key = "scan:" + op + ":" + t + ":" + reverse;
        return SOURCES.computeIfAbsent(key, k -> {
            String acc, combine;
            if (t.isFloat()) {
                acc = storage(t);
                // The sign bit through the bit-cast intrinsics (no math header needed under NVRTC).
                String neg = t == DType.F64 ? "(__double_as_longlong(a) < 0)" : "((int)__float_as_uint(a) < 0)";
                combine = switch (op) {
                    case CUMULATIVE_SUM -> "a + v";
                    case CUMULATIVE_PRODUCT -> "a * v";
                    case CUMULATIVE_MAX -> "(a != a) ? a : (v != v) ? v : (a == v ? (" + neg + " ? v : a) : (a > v ? a : v))";
                    case CUMULATIVE_MIN -> "(a != a) ? a : (v != v) ? v : (a == v ? (" + neg + " ? a : v) : (a < v ? a : v))";
                };
            } else {
                boolean unsigned = t.isUnsigned();
                acc = unsigned ? "u64" : "i64";
                combine = switch (op) {
                    case CUMULATIVE_SUM -> "(" + acc + ")((u64)a + (u64)v)";
                    case CUMULATIVE_PRODUCT -> "(" + acc + ")((u64)a * (u64)v)";
                    case CUMULATIVE_MAX -> "(v > a ? v : a)";
                    case CUMULATIVE_MIN -> "(v < a ? v : a)";
                };
            }
            return COMMON + """
                    extern "C" __global__ void %s(const %s* __restrict__ in, %s* __restrict__ out, i64 lines, i64 n, i64 inner) {
                        for (i64 line = (i64)blockIdx.x * blockDim.x + threadIdx.x; line < lines; line += (i64)gridDim.x * blockDim.x) {
                            i64 start = (line / inner) * n * inner + line %% inner;
                            %s a = 0;
                            for (i64 step = 0; step < n; step++) {
                                i64 idx = start + (%s) * inner;
                                %s v = (%s)in[idx];
                                a = step == 0 ? v : (%s)(%s);
                                out[idx] = (%s)a;
                            }
                        }
                    }
                    """.formatted(SCAN_ENTRY, storage(t), storage(t), acc, reverse ? "n - 1 - step" : "step", acc, acc, acc, combine, storage(t));
        });
    }

    /** Whether {@link #iota} has a kernel for {@code t}: integers and F32/F64 (C conversions round as Java's). */
    static boolean iotas(DType t) { return scans(t); }

    /** {@code (i / stride) % dim} stored as {@code t}. */
    static String iota(DType t) {
        return SOURCES.computeIfAbsent("iota:" + t, k -> COMMON + """
                extern "C" __global__ void %s(%s* __restrict__ out, i64 n, i64 stride, i64 dim) {
                    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
                        out[i] = (%s)((i / stride) %% dim);
                    }
                }
                """.formatted(IOTA_ENTRY, storage(t), storage(t)));
    }

    static int blocks(long threads) {
        return (int) Math.max(1, Math.min((threads + THREADS - 1) / THREADS, 1L << 16));
    }
}
