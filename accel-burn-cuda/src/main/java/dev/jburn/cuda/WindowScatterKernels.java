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

    /** The selecting kernel for {@code x} of type {@code xt}. */
    static String select(DType xt, boolean max) {
        return SOURCES.computeIfAbsent("select:" + xt + ":" + max, k -> {
            String ct = xt.isFloat() ? "double" : xt == DType.U64 ? "u64" : "i64";
            String better = max ? "v >= bv" : "v <= bv";
            String take = xt.isFloat() ? "best < 0 || v != v || (!(bv != bv) && (" + better + "))" : "best < 0 || (" + better + ")";
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
            String acc = t.isFloat() ? "double" : "u64";
            String add = t.isFloat() ? "acc += (double)source[w];" : "acc = acc + (u64)(i64)source[w];";
            String init = t.isFloat() ? "(double)init[0]" : "(u64)(i64)init[0]";
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
                    """.formatted(SCATTER_ENTRY, st, st, st, acc, init, add, st);
        });
    }
}
