package dev.jburn.cuda;

/**
 * The im2col gather of a channels-last convolution: from {@code x [N, s_1..s_r, C]} it writes
 * {@code cols [N, A_1..A_r, B_1..B_r, C]} with element {@code x[n, p_1..p_r, c]} where
 * {@code q_j = A_j·mA_j + B_j·mB_j − lo_j}, {@code p_j = q_j / (interior_j + 1)}, and 0 where {@code q_j}
 * falls outside the input or between its interior-padding gaps. For a forward conv {@code A} are the
 * output positions ({@code mA} = strides) and {@code B} the kernel taps ({@code mB} = kernel dilation), so
 * {@code cols} is the {@code [N·Πo, Πk·C]} left operand of one GEMM with the kernel as {@code [Πk·C, O]};
 * for a kernel gradient the roles swap. Padding happens in the gather (no padded copy), channels are read
 * contiguously, and no layout transposes are needed around the GEMM. 32-bit indices ({@link FastDivisors}).
 */
final class ChannelsLastIm2col {
    static final int THREADS = 256;
    /** Spatial axes the kernel takes. */
    static final int MAX_SPATIAL = 3;

    /**
     * Element {@code i} of the view {@code [N, A..., B..., C]} of {@code x}: its value, or 0 where the position falls
     * in padding (shared by the gather below and {@link ChannelsLastDirectConv}'s kernels, which gather tiles of it
     * into shared memory).
     */
    static final String GATHER = FastDivisors.CUDA + """
            template <int R, typename T>
            static __device__ __forceinline__ T jb_im2col_at(const T* __restrict__ x, unsigned i, JbDivs dims, JbInts in,
                                                             JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap) {
                unsigned rest = i;
                unsigned q = jb_div(rest, dims.v[2 * R + 1]); int c = (int)(rest - q * dims.v[2 * R + 1].d); rest = q;
                int b[R], a[R];
                #pragma unroll
                for (int j = R - 1; j >= 0; --j) { q = jb_div(rest, dims.v[1 + R + j]); b[j] = (int)(rest - q * dims.v[1 + R + j].d); rest = q; }
                #pragma unroll
                for (int j = R - 1; j >= 0; --j) { q = jb_div(rest, dims.v[1 + j]); a[j] = (int)(rest - q * dims.v[1 + j].d); rest = q; }
                int src = (int)rest; bool inside = true;
                #pragma unroll
                for (int j = 0; j < R; ++j) {
                    int p = a[j] * mulA.v[j] + b[j] * mulB.v[j] - lo.v[j];
                    unsigned g = p < 0 ? 0u : jb_div((unsigned)p, gap.v[j]);
                    if (p < 0 || (unsigned)p != g * gap.v[j].d || (int)g >= in.v[1 + j]) inside = false;
                    src = src * in.v[1 + j] + (int)g;
                }
                src = src * in.v[R + 1] + c;
                return inside ? x[src] : (T)0;
            }
            """;

    /**
     * The spatial rank is a template parameter: with it known, every struct field index is a constant, so
     * the arguments are read straight from the parameter bank (indexed by a run-time rank they were copied
     * to each thread's local memory, which made the first version run at a tenth of the copy rate).
     */
    static final String SOURCE = GATHER + """
            template <int R, typename T>
            static __device__ __forceinline__ void jb_im2col(const T* __restrict__ x, T* __restrict__ out, unsigned n, JbDivs dims,
                                                             JbInts in, JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap) {
                for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
                    out[i] = jb_im2col_at<R, T>(x, i, dims, in, mulA, mulB, lo, gap);
            }
            #define JB_IM2COL(NAME, R, T) \\
            extern "C" __global__ void NAME(const T* __restrict__ x, T* __restrict__ out, unsigned n, int r, JbDivs dims, \\
                                            JbInts in, JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap) { \\
                jb_im2col<R, T>(x, out, n, dims, in, mulA, mulB, lo, gap); \\
            }
            JB_IM2COL(jburn_im2col_nhwc_2_1, 1, unsigned short)
            JB_IM2COL(jburn_im2col_nhwc_2_2, 2, unsigned short)
            JB_IM2COL(jburn_im2col_nhwc_2_3, 3, unsigned short)
            JB_IM2COL(jburn_im2col_nhwc_4_1, 1, unsigned int)
            JB_IM2COL(jburn_im2col_nhwc_4_2, 2, unsigned int)
            JB_IM2COL(jburn_im2col_nhwc_4_3, 3, unsigned int)
            JB_IM2COL(jburn_im2col_nhwc_8_1, 1, unsigned long long)
            JB_IM2COL(jburn_im2col_nhwc_8_2, 2, unsigned long long)
            JB_IM2COL(jburn_im2col_nhwc_8_3, 3, unsigned long long)
            """;

    private ChannelsLastIm2col() {}

    /**
     * The entry for elements of {@code bytes} bytes (2, 4 or 8; a zero element is all-zero bits for every float type)
     * and {@code spatial} spatial axes (1 to 3).
     */
    static String entry(int bytes, int spatial) {
        if (spatial < 1 || spatial > MAX_SPATIAL) throw new IllegalArgumentException("no channels-last im2col for " + spatial + " spatial axes");
        return switch (bytes) {
            case 2, 4, 8 -> "jburn_im2col_nhwc_" + bytes + "_" + spatial;
            default -> throw new IllegalArgumentException("no channels-last im2col for " + bytes + "-byte elements");
        };
    }

    /**
     * The launch's geometry, checked: {@code x} of shape {@code in = [N, s..., C]}, the view's group sizes
     * {@code aDims}, {@code bDims} with multipliers, low padding and interior padding per spatial axis.
     *
     * @return the view's dims {@code [N, A..., B..., C]}, or null when the gather does not fit 32-bit indices
     */
    static long[] viewDims(long[] in, long[] aDims, long[] bDims) {
        int r = aDims.length;
        long[] dims = new long[2 * r + 2];
        dims[0] = in[0];
        System.arraycopy(aDims, 0, dims, 1, r);
        System.arraycopy(bDims, 0, dims, 1 + r, r);
        dims[2 * r + 1] = in[r + 1];
        long n = 1, xs = 1;
        for (long d : dims) n = Math.multiplyHigh(n, d) != 0 ? Long.MAX_VALUE : n * d;
        for (long d : in) xs *= d;
        return n >= (1L << 30) || xs >= (1L << 30) ? null : dims;
    }

    /** The element {@code cols[i]} as the kernel computes it, or null for a zero (for tests): the flat index into {@code x}. */
    static Long source(long i, long[] in, long[] dims, long[] mulA, long[] mulB, long[] lo, long[] interior) {
        int r = (dims.length - 2) / 2;
        long rest = i;
        long c = rest % dims[2 * r + 1];
        rest /= dims[2 * r + 1];
        long[] b = new long[r], a = new long[r];
        for (int j = r - 1; j >= 0; j--) { b[j] = rest % dims[1 + r + j]; rest /= dims[1 + r + j]; }
        for (int j = r - 1; j >= 0; j--) { a[j] = rest % dims[1 + j]; rest /= dims[1 + j]; }
        long src = rest;
        for (int j = 0; j < r; j++) {
            long p = a[j] * mulA[j] + b[j] * mulB[j] - lo[j];
            long gap = interior[j] + 1;
            if (p < 0 || p % gap != 0 || p / gap >= in[1 + j]) return null;
            src = src * in[1 + j] + p / gap;
        }
        return src * in[r + 1] + c;
    }
}
