package dev.jburn.cuda;

import dev.jburn.DType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code windowMax/Min} in one kernel: each thread walks its window of {@code x} (row-major order, padding skipped,
 * as the identity it stands for changes nothing) and folds it with the generated reductions' {@code jb_max/jb_min}
 * rules (a NaN wins; of -0 and +0 the max is +0 and the min -0), so the result equals {@link WindowPlan}'s padded
 * gather and reduction. On the H200 that plan took 165 µs for the small CNN's first 2×2 pool at batch 1024: it pads,
 * writes every window's elements out ([1024,13,13,32,1,2,2,1], 88 MB) and reduces them; this reads {@code x} once.
 * Covers F32, F64 and the integer types, windows of up to {@link #MAX_WINDOW} positions, 32-bit indices
 * ({@link WindowScatterKernels#fits32}); the rest takes the plan.
 * Arguments: {@code x, out, int windows, int rank, JbDivs in, JbDivs outD, JbDivs win, JbInts st, JbInts dil, JbInts lo, int windowSize}.
 */
final class WindowExtremeKernels {
    static final String ENTRY = "jburn_window_extreme", UNPADDED_ENTRY = "jburn_window_extreme_unpadded";
    /** Window sizes this kernel walks per thread; larger windows (global pooling) take the plan's parallel reduction. */
    static final long MAX_WINDOW = 64;

    private static final Map<String, String> SOURCES = new ConcurrentHashMap<>();

    private WindowExtremeKernels() {}

    /** Whether the kernel takes elements of type {@code t}. */
    static boolean covers(DType t) {
        return switch (t) {
            case F32, F64, U8, U16, U32, U64, S8, S16, S32, S64 -> true;
            case F16, BF16, PRED -> false;
        };
    }

    /** The kernel for elements of type {@code t}: the window maximum, or the minimum. */
    static String source(DType t, boolean max) {
        return SOURCES.computeIfAbsent(t + ":" + max, k -> {
            Fold f = Fold.of(t, max);
            return LineKernelsCommon.TEXT + FastDivisors.CUDA + """
                    extern "C" __global__ void %s(const %s* __restrict__ x, %s* __restrict__ out, int windows, int rank,
                                                   JbDivs in, JbDivs outD, JbDivs win, JbInts st, JbInts dil, JbInts lo, int windowSize) {
                        for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < windows; w += gridDim.x * blockDim.x) {
                    %s
                            %s acc = %s;
                    %s
                            out[w] = (%s)acc;
                        }
                    }
                    """.formatted(ENTRY, f.storage, f.storage, WindowScatterKernels.coordinates32("w", "outD", "oc"), f.ct, f.identity,
                    WindowScatterKernels.walk32("oc[d] * st.v[d] + kc * dil.v[d] - lo.v[d]", f.body()), f.storage);
        });
    }

    /**
     * The same fold for unpadded windows ({@link WindowGeometry#unpadded}), walked by strides alone
     * ({@link WindowScatterKernels#windowWalk}). Arguments: {@code x, out, int windows, int rank, JbDivs outD,
     * JbInts wstep, JbInts pstep, JbInts win, int windowSize}.
     */
    static String unpadded(DType t, boolean max) {
        return SOURCES.computeIfAbsent("unpadded:" + t + ":" + max, k -> {
            Fold f = Fold.of(t, max);
            return LineKernelsCommon.TEXT + FastDivisors.CUDA + """
                    extern "C" __global__ void %s(const %s* __restrict__ x, %s* __restrict__ out, int windows, int rank,
                                                   JbDivs outD, JbInts wstep, JbInts pstep, JbInts win, int windowSize) {
                        for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < windows; w += gridDim.x * blockDim.x) {
                    %s
                            %s acc = %s;
                    %s
                            out[w] = (%s)acc;
                        }
                    }
                    """.formatted(UNPADDED_ENTRY, f.storage, f.storage, WindowScatterKernels.windowBase(false), f.ct, f.identity,
                    WindowScatterKernels.windowWalk(f.body(), false), f.storage);
        });
    }

    /** The compute type, the identity and the fold of {@code v} into {@code acc}: jb_max/jb_min of the generated reductions. */
    private record Fold(String storage, String ct, String identity, String fold) {
        static Fold of(DType t, boolean max) {
            String storage = LineKernels.storage(t);
            if (t.isFloat()) {
                String identity = t == DType.F64 ? (max ? "__longlong_as_double(0xfff0000000000000ll)" : "__longlong_as_double(0x7ff0000000000000ll)")
                        : (max ? "__uint_as_float(0xff800000u)" : "__uint_as_float(0x7f800000u)");
                String fold = "if (isnan(acc) || isnan(v)) acc = acc + v; else if (" + (max ? "v > acc" : "v < acc") + ") acc = v; else if (!("
                        + (max ? "acc > v" : "acc < v") + ")) acc = " + (max ? "signbit(acc) ? v : acc" : "signbit(acc) ? acc : v") + ";";
                return new Fold(storage, storage, identity, fold);
            }
            String ct = t == DType.U64 ? "u64" : "i64";
            long bound = max ? t.minLong() : t.maxLong();
            return new Fold(storage, ct, String.format("(%s)0x%016xull", ct, bound), "if (" + (max ? "v > acc" : "v < acc") + ") acc = v;");
        }

        String body() { return ct + " v = (" + ct + ")x[off];\n    " + fold; }
    }
}
