package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

import static dev.jburn.cuda.ChannelsLastConvs.prod;

/**
 * A channels-last stride-1 convolution as one GEMM and a col2im sum, for the groups where the im2col
 * matrix would be the larger one: the input cotangent of a valid stride-1 conv is a conv of the cotangent
 * {@code x [N, u..., Ci]} with full padding ({@code k − 1} on each side) and the reversed, transposed kernel
 * {@code w [Co, Ci, k...]}, whose output {@code [N, s..., Co]} is larger than its input; im2col would gather
 * {@code [N·Πs, Πk·Ci]} (the small CNN's conv2 at batch 1024: 1024·169 × 9·64 floats, 400 MB). Here the GEMM
 * runs on {@code x} as it is:
 * <pre>
 *   cols [N·Πu, Πk·Co] = x as [N·Πu, Ci] · w as [Ci, k..., Co]     (1024·121 × 9·32 floats, 143 MB)
 *   y[n, s..., c]      = Σ_t cols[n, s − lo + t, t, c]  over the taps t whose position s − lo + t lies in u
 * </pre>
 * The col2im kernel computes each output element in one thread, adding its ≤ Πk contributions in ascending
 * row-major tap order starting from 0 (no atomics: the result is the same every run and equals
 * {@link #sources}' order summed in the element type). The cols row per cotangent position (not its transpose,
 * which has the same bytes) keeps both sides coalesced: threads of consecutive channels read consecutive cols
 * elements and write consecutive outputs. The kernel takes any stride-1 undilated padding; {@link #takes} says
 * which groups the engine sends here.
 */
final class ChannelsLastCol2im {
    /** Spatial axes the kernel takes: as many as {@link ChannelsLastIm2col}'s, so either path can take a group. */
    static final int MAX_SPATIAL = ChannelsLastIm2col.MAX_SPATIAL;

    /**
     * Each thread's taps are a box (the taps whose position falls inside {@code u} on every axis), walked as three
     * nested loops whose leading axes are empty for fewer than three spatial axes; cols offsets are linear in the
     * taps, so each loop adds one step. The rank is a template parameter, as in {@link ChannelsLastIm2col}
     * (struct fields read at constant indices stay in the parameter bank).
     */
    static final String SOURCE = FastDivisors.CUDA + """
            template <int R, typename T>
            static __device__ __forceinline__ void jb_col2im(const T* __restrict__ cols, T* __restrict__ out, unsigned n, JbDivs dims,
                                                             JbInts u, JbInts k, JbInts lo, JbInts uStep, JbInts tStep, int batchStep) {
                for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
                    unsigned rest = i;
                    unsigned q = jb_div(rest, dims.v[R + 1]); int c = (int)(rest - q * dims.v[R + 1].d); rest = q;
                    int s[R];
                    #pragma unroll
                    for (int j = R - 1; j >= 0; --j) { q = jb_div(rest, dims.v[1 + j]); s[j] = (int)(rest - q * dims.v[1 + j].d); rest = q; }
                    int first[3] = {0, 0, 0}, last[3] = {0, 0, 0}, step[3] = {0, 0, 0};
                    int base = (int)rest * batchStep + c;
                    #pragma unroll
                    for (int j = 0; j < R; ++j) {
                        int a = 3 - R + j, d = lo.v[j] - s[j];
                        first[a] = d > 0 ? d : 0;
                        last[a] = u.v[j] - 1 + d < k.v[j] - 1 ? u.v[j] - 1 + d : k.v[j] - 1;
                        step[a] = uStep.v[j] + tStep.v[j];
                        base -= d * uStep.v[j];
                    }
                    T acc = (T)0;
                    for (int t0 = first[0]; t0 <= last[0]; ++t0)
                        for (int t1 = first[1]; t1 <= last[1]; ++t1)
                            for (int t2 = first[2]; t2 <= last[2]; ++t2) acc += cols[base + t0 * step[0] + t1 * step[1] + t2 * step[2]];
                    out[i] = acc;
                }
            }
            #define JB_COL2IM(NAME, R, T) \\
            extern "C" __global__ void NAME(const T* __restrict__ cols, T* __restrict__ out, unsigned n, JbDivs dims, JbInts u, \\
                                            JbInts k, JbInts lo, JbInts uStep, JbInts tStep, int batchStep) { \\
                jb_col2im<R, T>(cols, out, n, dims, u, k, lo, uStep, tStep, batchStep); \\
            }
            JB_COL2IM(jburn_col2im_nhwc_f32_1, 1, float)
            JB_COL2IM(jburn_col2im_nhwc_f32_2, 2, float)
            JB_COL2IM(jburn_col2im_nhwc_f32_3, 3, float)
            JB_COL2IM(jburn_col2im_nhwc_f64_1, 1, double)
            JB_COL2IM(jburn_col2im_nhwc_f64_2, 2, double)
            JB_COL2IM(jburn_col2im_nhwc_f64_3, 3, double)
            """;

    private ChannelsLastCol2im() {}

    /** The entry for {@code type} (F32 or F64: the kernel adds, so it needs the real element type) and 1 to 3 spatial axes. */
    static String entry(DType type, int spatial) {
        if (spatial < 1 || spatial > MAX_SPATIAL) throw new IllegalArgumentException("no channels-last col2im for " + spatial + " spatial axes");
        return switch (type) {
            case F32 -> "jburn_col2im_nhwc_f32_" + spatial;
            case F64 -> "jburn_col2im_nhwc_f64_" + spatial;
            default -> throw new IllegalArgumentException("no channels-last col2im for " + type);
        };
    }

    /**
     * The launch's geometry: {@code out = [N, s..., Co]}, the conv input's spatial extents {@code u} (the cols rows per
     * batch element), the taps {@code k} and the low padding; {@code uStep}, {@code tStep}: the cols offset of one step
     * along a position or a tap axis; {@code batchStep}: one batch element's cols.
     */
    record Geometry(long[] out, long[] u, long[] k, long[] lo, long[] uStep, long[] tStep, long batchStep) {
        /**
         * The geometry of a stride-1 undilated conv of {@code x [N, u..., Ci]} by {@code w [Co, Ci, k...]} into
         * {@code out [N, s..., Co]}, or null when the conv has strides or dilations, more axes than the kernel
         * takes, or does not fit 32-bit indices.
         */
        static Geometry of(Shape x, Shape w, ConvSpec spec, Shape out) {
            int r = spec.spatialRank();
            if (r < 1 || r > MAX_SPATIAL || spec.featureGroups() != 1 || spec.batchGroups() != 1) return null;
            for (int j = 0; j < r; j++) {
                if (spec.strides()[j] != 1 || spec.inputDilation()[j] != 1 || spec.kernelDilation()[j] != 1) return null;
            }
            long[] u = new long[r], k = new long[r], lo = new long[r], uStep = new long[r], tStep = new long[r];
            long channels = out.dim(r + 1), positions = 1, taps = 1;
            for (int j = 0; j < r; j++) {
                u[j] = x.dim(1 + j);
                k[j] = w.dim(2 + j);
                lo[j] = spec.padLow()[j];
            }
            for (int j = r - 1; j >= 0; j--) {
                tStep[j] = taps * channels;
                taps *= k[j];
            }
            for (int j = r - 1; j >= 0; j--) {
                uStep[j] = positions * taps * channels;
                positions *= u[j];
            }
            long batchStep = positions * taps * channels;
            if (Math.multiplyHigh(batchStep, x.dim(0)) != 0 || batchStep * x.dim(0) >= (1L << 30) || out.size() >= (1L << 30)) return null;
            return new Geometry(ChannelsLastConvs.widen(out.dims()), u, k, lo, uStep, tStep, batchStep);
        }

        /** Output elements. */
        long size() {
            long n = 1;
            for (long d : out) n *= d;
            return n;
        }

        /** The cols matrix as the GEMM writes it: {@code [N·Πu, Πk·Co]}. */
        long rows() { return out[0] * prod(u); }

        /** {@code Πk·Co}. */
        long columns() { return prod(k) * out[out.length - 1]; }
    }

    /**
     * Whether the engine runs a channels-last FORWARD group of {@code type} as GEMM + col2im: a stride-1 undilated conv
     * with full padding ({@code k − 1} on both sides of every axis: a transposed conv, such as every input cotangent
     * of a valid stride-1 conv) whose cols {@code [N·Πu, Πk·Co]} are smaller than im2col's {@code [N·Πs, Πk·Ci]}. Other
     * paddings would work in the kernel; they stay on im2col until they are timed.
     */
    static boolean takes(Shape x, Shape w, ConvSpec spec, DType type, Shape out) {
        if (type != DType.F32 && type != DType.F64) return false;
        Geometry g = Geometry.of(x, w, spec, out);
        if (g == null) return false;
        int r = spec.spatialRank();
        for (int j = 0; j < r; j++) {
            if (spec.padLow()[j] != g.k[j] - 1 || spec.padHigh()[j] != g.k[j] - 1) return false;
        }
        long ci = x.dim(r + 1), co = out.dim(r + 1);
        // the batch and Πk are common to both matrices
        return Math.multiplyExact(prod(g.u), co) < Math.multiplyExact(prod(positionsOf(g.out)), ci);
    }

    /**
     * The cols indices output element {@code i} sums, in the kernel's order (ascending row-major taps), for tests:
     * the kernel's result is {@code 0 + cols[first] + ... + cols[last]} in the element type.
     */
    static long[] sources(long i, Geometry g) {
        int r = g.u.length;
        long rest = i, c = rest % g.out[r + 1];
        rest /= g.out[r + 1];
        long[] s = new long[r];
        for (int j = r - 1; j >= 0; j--) {
            s[j] = rest % g.out[1 + j];
            rest /= g.out[1 + j];
        }
        long[] found = new long[(int) prod(g.k)];
        int count = 0;
        for (int tap = 0; tap < found.length; tap++) {
            long t = tap, at = rest * g.batchStep + c;
            boolean inside = true;
            for (int j = r - 1; j >= 0; j--) {
                long tj = t % g.k[j], pj = s[j] - g.lo[j] + tj;
                t /= g.k[j];
                if (pj < 0 || pj >= g.u[j]) inside = false;
                at += pj * g.uStep[j] + tj * g.tStep[j];
            }
            if (inside) found[count++] = at;
        }
        return java.util.Arrays.copyOf(found, count);
    }

    private static long[] positionsOf(long[] out) { return java.util.Arrays.copyOfRange(out, 1, out.length - 1); }

}
