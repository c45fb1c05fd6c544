package dev.jburn.cuda;

import dev.jburn.DType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code windowScatterMax/Min} in two deterministic kernels, matching the cpu engine: the first picks
 * each window's element (padding skipped; every NaN takes the lead; ties go to the last in
 * row-major window order) as an offset into {@code x}; the second gives each output element
 * {@code init} plus the sources of the windows that picked it, added in row-major window order
 * (floats in double, rounded once, as on the cpu engine; integers wrapping). Each output walks only
 * the windows that can contain it, so no atomics and no order changes. Operands of rank ≤ 8.
 */
final class WindowScatterKernels {
    static final String SELECT_ENTRY = "jburn_window_select", SCATTER_ENTRY = "jburn_window_scatter";
    /** The 32-bit index entries ({@link #fits32}): the same walks with {@link FastDivisors} instead of 64-bit divisions. */
    static final String SELECT32_ENTRY = "jburn_window_select32", SCATTER32_ENTRY = "jburn_window_scatter32";
    /** The per-window form for disjoint windows ({@link #tiled}), and the fill it needs where windows leave gaps ({@link #fill}). */
    static final String TILED_ENTRY = "jburn_window_scatter_tiled", FILL_ENTRY = "jburn_window_fill";
    /** Window sizes up to which {@link #tiled} walks a window per thread (twice) rather than selecting once per window. */
    static final long DISJOINT_MAX_WINDOW = 64;
    /** Bound on every index quantity of the 32-bit kernels, with headroom for their signed intermediate sums. */
    private static final long LIMIT32 = 1L << 29;

    private static final Map<String, String> SOURCES = new ConcurrentHashMap<>();

    private WindowScatterKernels() {}

    /** Windows per axis: {@code (lo + dim + hi - ((k - 1)·dilation + 1)) / stride + 1}, or 0. */
    static long[] windows(dev.jburn.Shape x, dev.jburn.spi.WindowSpec spec) {
        long[] o = new long[x.rank()];
        for (int i = 0; i < o.length; i++) {
            long padded = (long) spec.padLow()[i] + spec.padHigh()[i] + x.dim(i);
            long effective = (spec.dims()[i] - 1L) * spec.dilations()[i] + 1;
            o[i] = padded < effective ? 0 : (padded - effective) / spec.strides()[i] + 1;
        }
        return o;
    }

    /** Whether the scatter kernel takes sources of type {@code t} (F16/BF16 go through F64: {@code CudaWindows.scatterViaF64}). */
    static boolean covers(DType t) {
        return switch (t) {
            case F32, F64, U8, U16, U32, U64, S8, S16, S32, S64 -> true;
            case F16, BF16, PRED -> false;
        };
    }

    private static String load(DType t, String e) {
        return switch (t) {
            case F16 -> "(double)jb_f16(" + e + ")";
            case BF16 -> "(double)jb_bf16(" + e + ")";
            case F32, F64 -> "(double)(" + e + ")";
            case U64 -> "(u64)(" + e + ")";
            case PRED, U8, U16, U32, S8, S16, S32, S64 -> "(i64)(" + e + ")";
        };
    }

    /** The compute type of the selecting walk over {@code x}'s elements. */
    private static String computeType(DType xt) {
        return xt.isFloat() ? "double" : xt == DType.U64 ? "u64" : "i64";
    }

    /** When element {@code v} takes the lead from {@code bv}: every NaN does; ties go to the later one. */
    private static String takes(DType xt, boolean max) {
        String better = max ? "v >= bv" : "v <= bv";
        return xt.isFloat() ? "best < 0 || v != v || (!(bv != bv) && (" + better + "))" : "best < 0 || (" + better + ")";
    }

    /**
     * Declares {@code int coords[8]} and fills it with the coordinates of the row-major position {@code index} over the
     * extents {@code JbDivs divs} (fast divisions, 32-bit), for the kernels' first {@code rank} axes.
     */
    static String coordinates32(String index, String divs, String coords) {
        return """
                int %3$s[8];
                {
                    unsigned jr = (unsigned)%1$s;
                    #pragma unroll
                    for (int d = 7; d >= 0; --d) {
                        if (d < rank) { unsigned jq = jb_div(jr, %2$s.v[d]); %3$s[d] = (int)(jr - jq * %2$s.v[d].d); jr = jq; }
                    }
                }
                """.formatted(index, divs, coords);
    }

    /**
     * The 32-bit kernels' walk of one window in row-major order: {@code body} runs for each position inside the input,
     * with {@code off} its offset into {@code x}. {@code position} is the input coordinate of window position {@code kc}
     * on axis {@code d}; the kernel has {@code rank}, {@code windowSize}, {@code JbDivs in, win} in scope.
     */
    static String walk32(String position, String body) {
        return """
                for (int k = 0; k < windowSize; k++) {
                    unsigned rk = (unsigned)k; int off = 0, stride = 1; bool inside = true;
                    #pragma unroll
                    for (int d = 7; d >= 0; --d) {
                        if (d < rank) {
                            unsigned qk = jb_div(rk, win.v[d]); int kc = (int)(rk - qk * win.v[d].d); rk = qk;
                            int p = %s;
                            if (p < 0 || p >= (int)in.v[d].d) inside = false;
                            off += p * stride; stride *= (int)in.v[d].d;
                        }
                    }
                    if (!inside) continue;
                    %s
                }
                """.formatted(position, body);
    }

    /** {@link #walk32} leaving in {@code best} the offset into {@code x} of the element it picks (-1 for a window of padding only). */
    private static String pick32(DType xt, boolean max, String position) {
        String ct = computeType(xt);
        return "i64 best = -1; " + ct + " bv = 0;\n"
                + walk32(position, ct + " v = " + load(xt, "x[off]") + ";\n    if (" + takes(xt, max) + ") { best = off; bv = v; }");
    }

    /**
     * The offset into {@code x} of window {@code w}'s first position, in {@code b}: the window's coordinates from
     * {@code JbDivs outD}, each times its axis's {@code JbInts wstep} ({@link WindowGeometry#windowSteps}). Where the
     * input is {@code padded}, less {@code int loOffset} (the low padding's offset; {@code b} may then lie before the
     * input), and {@code s0} keeps each axis's first coordinate ({@code JbInts st, lo}) for {@link #windowWalk}'s bounds.
     */
    static String windowBase(boolean padded) {
        return padded ? """
                int b = -loOffset, s0[8];
                {
                    unsigned r = (unsigned)w;
                    #pragma unroll
                    for (int d = 7; d >= 0; --d) {
                        if (d < rank) {
                            unsigned q = jb_div(r, outD.v[d]); int oc = (int)(r - q * outD.v[d].d); r = q;
                            b += oc * wstep.v[d];
                            s0[d] = oc * st.v[d] - lo.v[d];
                        }
                    }
                }
                """ : """
                int b = 0;
                {
                    unsigned r = (unsigned)w;
                    #pragma unroll
                    for (int d = 7; d >= 0; --d) {
                        if (d < rank) { unsigned q = jb_div(r, outD.v[d]); b += (int)(r - q * outD.v[d].d) * wstep.v[d]; r = q; }
                    }
                }
                """;
    }

    /**
     * The walk of one window from offset {@code b} in row-major order, {@code body} run with {@code off} at each
     * position: an odometer over the axes ({@code JbInts win}, and {@code JbInts pstep} from
     * {@link WindowGeometry#positionSteps}) that adds a step per position instead of dividing the position out per axis
     * ({@link #walk32}), whose divisions made the one-pass pooling kernels instruction-bound on the H100/H200. Where the
     * input is {@code padded} (no dilation), positions outside it ({@code JbInts in}) are skipped.
     */
    static String windowWalk(String body, boolean padded) {
        String guarded = padded ? """
                bool inside = true;
                #pragma unroll
                for (int d = 0; d < 8; d++) {
                    if (d < rank) { int p = s0[d] + kc[d]; if (p < 0 || p >= in.v[d]) inside = false; }
                }
                if (inside) { %s }
                """.formatted(body) : body;
        return """
                {
                    int kc[8];
                    #pragma unroll
                    for (int d = 0; d < 8; d++) kc[d] = 0;
                    int off = b;
                    for (int k = 0; k < windowSize; k++) {
                        %s
                        #pragma unroll
                        for (int d = 7; d >= 0; --d) {
                            if (d < rank) {
                                if (++kc[d] < win.v[d]) { off += pstep.v[d]; break; }
                                off -= (win.v[d] - 1) * pstep.v[d];
                                kc[d] = 0;
                            }
                        }
                    }
                }
                """.formatted(guarded);
    }

    /** The selecting kernel for {@code x} of type {@code xt}. */
    static String select(DType xt, boolean max) {
        return SOURCES.computeIfAbsent("select:" + xt + ":" + max, k -> {
            String ct = computeType(xt), take = takes(xt, max);
            return LineKernelsCommon.TEXT + """
                    struct JbDims { long long v[8]; };
                    extern "C" __global__ void %s(const %s* __restrict__ x, long long* __restrict__ sel, i64 windows, int rank,
                                                   JbDims in, JbDims out, JbDims win, JbDims st, JbDims dil, JbDims lo, i64 windowSize) {
                        for (i64 w = (i64)blockIdx.x * blockDim.x + threadIdx.x; w < windows; w += (i64)gridDim.x * blockDim.x) {
                            i64 oc[8];
                            i64 r = w;
                            for (int d = rank - 1; d >= 0; --d) { oc[d] = r %% out.v[d]; r /= out.v[d]; }
                            i64 best = -1; %s bv = 0;
                            for (i64 k = 0; k < windowSize; k++) {
                                i64 rk = k, off = 0, stride = 1; bool inside = true;
                                for (int d = rank - 1; d >= 0; --d) {
                                    i64 kc = rk %% win.v[d]; rk /= win.v[d];
                                    i64 p = oc[d] * st.v[d] + kc * dil.v[d] - lo.v[d];
                                    if (p < 0 || p >= in.v[d]) inside = false;
                                    off += p * stride; stride *= in.v[d];
                                }
                                if (!inside) continue;
                                %s v = %s;
                                if (%s) { best = off; bv = v; }
                            }
                            sel[w] = best;
                        }
                    }
                    """.formatted(SELECT_ENTRY, LineKernels.storage(xt), ct, ct, load(xt, "x[off]"), take);
        });
    }

    /** The accumulating kernel for sources of type {@code t}. */
    static String scatter(DType t) {
        return SOURCES.computeIfAbsent("scatter:" + t, k -> {
            String st = LineKernels.storage(t);
            Accumulation sum = Accumulation.of(t);
            return """
                    struct JbDims { long long v[8]; };
                    typedef unsigned long long u64; typedef long long i64;
                    extern "C" __global__ void %s(const %s* __restrict__ source, const %s* __restrict__ init, const long long* __restrict__ sel,
                                                   %s* __restrict__ out, i64 n, int rank, JbDims in, JbDims outD, JbDims win, JbDims st,
                                                   JbDims dil, JbDims lo, i64 windowSize) {
                        for (i64 q = (i64)blockIdx.x * blockDim.x + threadIdx.x; q < n; q += (i64)gridDim.x * blockDim.x) {
                            i64 qc[8];
                            i64 r = q;
                            for (int d = rank - 1; d >= 0; --d) { qc[d] = r %% in.v[d]; r /= in.v[d]; }
                            %s acc = %s;
                            // Window-position digits run backwards, so each axis's window index runs forwards: row-major window order.
                            for (i64 t = 0; t < windowSize; t++) {
                                i64 rt = t, w = 0, stride = 1; bool hit = true;
                                for (int d = rank - 1; d >= 0; --d) {
                                    i64 kc = win.v[d] - 1 - rt %% win.v[d]; rt /= win.v[d];
                                    i64 num = qc[d] + lo.v[d] - kc * dil.v[d];
                                    if (num < 0 || num %% st.v[d] != 0 || num / st.v[d] >= outD.v[d]) hit = false;
                                    w += (num / st.v[d]) * stride; stride *= outD.v[d];
                                }
                                if (hit && sel[w] == q) { %s }
                            }
                            out[q] = (%s)acc;
                        }
                    }
                    """.formatted(SCATTER_ENTRY, st, st, st, sum.type(), sum.init(), sum.add(), st);
        });
    }

    /**
     * How the scatter kernels sum a window's sources onto {@code init} (the text declares {@code acc} of {@code type},
     * starts it at {@code init} and adds {@code source[w]}): in double for floats, as the cpu engine sums, rounded once
     * at the store; wrapping in u64 for integers.
     */
    private record Accumulation(String type, String init, String add) {
        static Accumulation of(DType t) {
            return t.isFloat() ? new Accumulation("double", "(double)init[0]", "acc += (double)source[w];")
                    : new Accumulation("u64", "(u64)(i64)init[0]", "acc = acc + (u64)(i64)source[w];");
        }
    }

    /**
     * Whether the 32-bit kernels take these operands: element and window counts, each axis's padded
     * extent and every window parameter below 2^29, so no signed intermediate overflows.
     */
    static boolean fits32(long n, long windows, long windowSize, long[] in, long[] win, long[] st, long[] dil, long[] lo, long[] outDims) {
        if (n >= LIMIT32 || windows >= LIMIT32 || windowSize >= LIMIT32) return false;
        for (int d = 0; d < in.length; d++) {
            if (in[d] + lo[d] >= LIMIT32 || win[d] * dil[d] >= LIMIT32 || st[d] >= LIMIT32 || outDims[d] * st[d] >= LIMIT32) return false;
        }
        return true;
    }

    /** {@link #select} with 32-bit indices: arguments {@code JbDivs in, out, win} and {@code JbInts st, dil, lo}, counts as {@code int}. */
    static String select32(DType xt, boolean max) {
        return SOURCES.computeIfAbsent("select32:" + xt + ":" + max, k -> LineKernelsCommon.TEXT + FastDivisors.CUDA + """
                extern "C" __global__ void %s(const %s* __restrict__ x, long long* __restrict__ sel, int windows, int rank,
                                               JbDivs in, JbDivs out, JbDivs win, JbInts st, JbInts dil, JbInts lo, int windowSize) {
                    for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < windows; w += gridDim.x * blockDim.x) {
                %s
                %s
                        sel[w] = best;
                    }
                }
                """.formatted(SELECT32_ENTRY, LineKernels.storage(xt), coordinates32("w", "out", "oc"), pick32(xt, max, "oc[d] * st.v[d] + kc * dil.v[d] - lo.v[d]")));
    }

    /** {@link #scatter} with 32-bit indices: arguments {@code JbDivs in}, {@code JbInts outD}, {@code JbDivs win, st}, {@code JbInts dil, lo}. */
    static String scatter32(DType t) {
        return SOURCES.computeIfAbsent("scatter32:" + t, k -> {
            String st = LineKernels.storage(t);
            Accumulation sum = Accumulation.of(t);
            return LineKernelsCommon.TEXT + FastDivisors.CUDA + """
                    extern "C" __global__ void %s(const %s* __restrict__ source, const %s* __restrict__ init, const long long* __restrict__ sel,
                                                   %s* __restrict__ out, int n, int rank, JbDivs in, JbInts outD, JbDivs win, JbDivs st,
                                                   JbInts dil, JbInts lo, int windowSize) {
                        for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < n; q += gridDim.x * blockDim.x) {
                    %s
                            %s acc = %s;
                            // Window-position digits run backwards, so each axis's window index runs forwards: row-major window order.
                            for (int t = 0; t < windowSize; t++) {
                                unsigned rt = (unsigned)t; int w = 0, stride = 1; bool hit = true;
                                #pragma unroll
                                for (int d = 7; d >= 0; --d) {
                                    if (d < rank) {
                                        unsigned qt = jb_div(rt, win.v[d]);
                                        int kc = (int)win.v[d].d - 1 - (int)(rt - qt * win.v[d].d); rt = qt;
                                        int num = qc[d] + lo.v[d] - kc * dil.v[d];
                                        if (num < 0) {
                                            hit = false;
                                        } else {
                                            unsigned nq = jb_div((unsigned)num, st.v[d]);
                                            if ((unsigned)num != nq * st.v[d].d || (int)nq >= outD.v[d]) hit = false;
                                            w += (int)nq * stride;
                                        }
                                        stride *= outD.v[d];
                                    }
                                }
                                if (hit && sel[w] == q) { %s }
                            }
                            out[q] = (%s)acc;
                        }
                    }
                    """.formatted(SCATTER32_ENTRY, st, st, st, coordinates32("q", "in", "qc"), sum.type(), sum.init(), sum.add(), st);
        });
    }

    /**
     * Whether no input element lies in two windows, so each output element takes at most one source: on every axis
     * the stride is at least the window's extent and there is no dilation (pooling: 2×2 windows, stride 2). Then
     * {@link #tiled} does the work of both kernels in one pass.
     */
    static boolean isDisjoint(long[] win, long[] st, long[] dil, long windowSize) {
        if (windowSize > DISJOINT_MAX_WINDOW) return false;
        for (int d = 0; d < win.length; d++) if (dil[d] != 1 || st[d] < win[d]) return false;
        return true;
    }

    /**
     * The max-pool gradient for {@linkplain #isDisjoint disjoint} windows, one thread per window: it picks the window's
     * element as {@link #select32} does (same order, NaN and tie rules; positions in padding skipped) and writes every
     * position of its window inside the input, {@code init} plus the window's source at the pick and {@code init}
     * elsewhere (summed as {@link #scatter32} sums: in double for floats, rounded once). Elements outside every window
     * keep what {@link #fill} wrote (launched first unless the windows {@linkplain WindowGeometry#tiles tile} the input).
     * One thread per window and no divisions per position: on the H200 the small CNN's first
     * pool gradient took 110 µs against 674 for the select-then-scatter pair.
     * Arguments: {@code x, source, init, out, int windows, int rank, JbDivs outD, JbInts wstep, JbInts pstep, JbInts win,
     * int windowSize}, then where {@code padded}: {@code JbInts st, JbInts lo, JbInts in, int loOffset}.
     */
    static String tiled(DType xt, DType t, boolean max, boolean padded) {
        return SOURCES.computeIfAbsent("tiled:" + xt + ":" + t + ":" + max + ":" + padded, k -> {
            String st = LineKernels.storage(t), ct = computeType(xt);
            Accumulation sum = Accumulation.of(t);
            return LineKernelsCommon.TEXT + FastDivisors.CUDA + """
                    extern "C" __global__ void %s(const %s* __restrict__ x, const %s* __restrict__ source, const %s* __restrict__ init,
                                                   %s* __restrict__ out, int windows, int rank, JbDivs outD, JbInts wstep, JbInts pstep, JbInts win,
                                                   int windowSize%s) {
                        for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < windows; w += gridDim.x * blockDim.x) {
                    %s
                            int best = -1; %s bv = 0;
                    %s
                            %s acc = %s;
                            const %s rest = (%s)acc;
                            %s
                            const %s picked = (%s)acc;
                    %s
                        }
                    }
                    """.formatted(TILED_ENTRY, LineKernels.storage(xt), st, st, st, padded ? ", JbInts st, JbInts lo, JbInts in, int loOffset" : "",
                    windowBase(padded), ct,
                    windowWalk(ct + " v = " + load(xt, "x[off]") + ";\n    if (" + takes(xt, max) + ") { best = off; bv = v; }", padded),
                    sum.type(), sum.init(), st, st, sum.add(), st, st, windowWalk("out[off] = off == best ? picked : rest;", padded));
        });
    }

    /** {@code out[i] = init[0]} for every element: what {@link #tiled} leaves alone where windows leave gaps. Arguments: {@code init, out, int n}. */
    static String fill(DType t) {
        return SOURCES.computeIfAbsent("fill:" + t, k -> {
            String st = LineKernels.storage(t);
            return LineKernelsCommon.TEXT + """
                    extern "C" __global__ void %s(const %s* __restrict__ init, %s* __restrict__ out, int n) {
                        const %s v = init[0];
                        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = v;
                    }
                    """.formatted(FILL_ENTRY, st, st, st);
        });
    }
}
