package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;

/**
 * Channels-last convolutions whose im2col depth is small, as direct kernels: a CNN's first layer reads one or three
 * channels through a 3×3 kernel, so its im2col matrix has 9 or 27 columns, and an im2col gather plus a cuBLAS GEMM
 * with such a depth writes and reads the gathered matrix and then runs a GEMM far below its rate (the small CNN's
 * conv 1 at batch 1024 on an H200: 163 µs forward and 212 µs for the kernel cotangent, for an output of 89 MB that
 * memory writes in ~35 µs). Both kernels gather tiles of the same im2col view ({@link ChannelsLastIm2col#GATHER})
 * into shared memory instead of global memory:
 * <ul>
 *   <li><b>forward</b> {@code out [P, O] = cols [P, D] · w [D, O]}: a block gathers {@code cols} for a tile of
 *       positions, then each thread computes outputs of one column {@code o} for every {@code lanes}-th position of
 *       the tile, the products added by fused multiply-adds in ascending {@code d} from zero ({@link #forwardAt});</li>
 *   <li><b>kernel cotangent</b> {@code out [D, O] = cols [P, D]ᵀ · g [P, O]}: the positions are cut into chunks of
 *       whole tiles; a block sums its chunk into a partial {@code [D, O]} (each thread owns up to four outputs and
 *       adds the chunk's positions in ascending order by fused multiply-adds), and a second kernel adds the chunks'
 *       partials in a fixed tree (each of 256 threads adds chunks {@code t, t + 256, ...} in order, then halves), so
 *       a result is the same every run ({@link #kernelGradientAt}).</li>
 * </ul>
 * F32 and F64 only (the sums are in the element type); other dtypes and larger depths keep the gather and GEMM.
 *
 * <p>Off by default ({@link CudaConfig#directConv}): on an H100 (2026-12-06) they are right
 * ({@code CudaChannelsLastConvTest}) but not faster: synced, conv 1 at batch 1024 took 184 µs forward and 226 µs for
 * the kernel cotangent against 213 and 239 µs with im2col + GEMM, and the whole training step ran 1.3% slower. Not
 * profiled further; presumably the instruction count bounds them, not memory (every cols element is gathered with its
 * own index arithmetic, and each thread reads two shared values per fma), so a register-tiled form is the next step.
 */
final class ChannelsLastDirectConv {
    static final int THREADS = 256;
    /** Largest im2col depth ({@code Πk·C}) the forward kernel takes (its shared tile holds this many columns). */
    static final int MAX_FORWARD_DEPTH = 64;
    /** Largest kernel ({@code depth × O} elements) the forward kernel keeps in shared memory. */
    static final int MAX_FORWARD_WEIGHTS = 2048;
    /** Largest {@code Πk·C} (rows of the kernel cotangent) the kernel-cotangent kernel takes. */
    static final int MAX_GRADIENT_DEPTH = 32;
    /** Largest output channel count the kernel-cotangent kernel takes (its shared tile of the cotangent). */
    static final int MAX_GRADIENT_COLUMNS = 128;
    /** Outputs of the kernel cotangent: four per thread. */
    static final int MAX_GRADIENT_OUTPUTS = 4 * THREADS;
    /** Most chunks (blocks, partial sums) of a kernel cotangent. */
    static final int MAX_CHUNKS = 512;
    /** Most blocks of a forward launch (each loops over tiles). */
    static final int MAX_FORWARD_BLOCKS = 4096;

    static final String SOURCE = ChannelsLastIm2col.GATHER + """
            static __device__ __forceinline__ float jb_fma(float a, float b, float c) { return fmaf(a, b, c); }
            static __device__ __forceinline__ double jb_fma(double a, double b, double c) { return fma(a, b, c); }
            template <typename T> struct JbDirectTile { static const int P = sizeof(T) == 4 ? 64 : 32; };

            template <int R, typename T>
            static __device__ __forceinline__ void jb_direct_forward(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out,
                    unsigned positions, int depth, int outs, JbDivs dims, JbInts in, JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap) {
                const int P = JbDirectTile<T>::P;
                __shared__ T cols[P * 64];
                __shared__ T ws[2048];
                for (int e = threadIdx.x; e < depth * outs; e += blockDim.x) ws[e] = w[e];
                const int lanes = (int)blockDim.x / outs, lane = (int)threadIdx.x / outs, o = (int)threadIdx.x - lane * outs;
                const unsigned tiles = (positions + P - 1) / P;
                for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
                    const unsigned first = t * P;
                    const int count = positions - first < (unsigned)P ? (int)(positions - first) : P;
                    __syncthreads();
                    for (int e = threadIdx.x; e < count * depth; e += blockDim.x)
                        cols[e] = jb_im2col_at<R, T>(x, first * depth + e, dims, in, mulA, mulB, lo, gap);
                    __syncthreads();
                    if (lane < lanes) {
                        for (int p = lane; p < count; p += lanes) {
                            T acc = (T)0;
                            for (int d = 0; d < depth; ++d) acc = jb_fma(cols[p * depth + d], ws[d * outs + o], acc);
                            out[(first + p) * outs + o] = acc;
                        }
                    }
                }
            }

            template <int R, typename T>
            static __device__ __forceinline__ void jb_direct_kernel_grad(const T* __restrict__ x, const T* __restrict__ g, T* __restrict__ partial,
                    unsigned positions, int depth, int outs, unsigned chunk, unsigned chunks, JbDivs dims, JbInts in, JbInts mulA, JbInts mulB,
                    JbInts lo, JbDivs gap) {
                const int P = JbDirectTile<T>::P;
                __shared__ T cols[P * 32];
                __shared__ T gs[P * 128];
                const int total = depth * outs;
                for (unsigned b = blockIdx.x; b < chunks; b += gridDim.x) {
                    T acc[4] = {(T)0, (T)0, (T)0, (T)0};
                    const unsigned start = b * chunk, end = positions - start < chunk ? positions : start + chunk;
                    for (unsigned first = start; first < end; first += P) {
                        const int count = end - first < (unsigned)P ? (int)(end - first) : P;
                        __syncthreads();
                        for (int e = threadIdx.x; e < count * depth; e += blockDim.x)
                            cols[e] = jb_im2col_at<R, T>(x, first * depth + e, dims, in, mulA, mulB, lo, gap);
                        for (int e = threadIdx.x; e < count * outs; e += blockDim.x) gs[e] = g[first * outs + e];
                        __syncthreads();
                        #pragma unroll
                        for (int k = 0; k < 4; ++k) {
                            const int j = (int)threadIdx.x + k * (int)blockDim.x;
                            if (j < total) {
                                const int d = j / outs, o = j - d * outs;
                                for (int p = 0; p < count; ++p) acc[k] = jb_fma(cols[p * depth + d], gs[p * outs + o], acc[k]);
                            }
                        }
                    }
                    #pragma unroll
                    for (int k = 0; k < 4; ++k) {
                        const int j = (int)threadIdx.x + k * (int)blockDim.x;
                        if (j < total) partial[b * total + j] = acc[k];
                    }
                }
            }

            template <typename T>
            static __device__ __forceinline__ void jb_direct_chunk_sum(const T* __restrict__ partial, T* __restrict__ out, unsigned total,
                                                                      unsigned chunks) {
                __shared__ T sums[256];
                for (unsigned j = blockIdx.x; j < total; j += gridDim.x) {
                    T acc = (T)0;
                    for (unsigned b = threadIdx.x; b < chunks; b += 256) acc += partial[b * total + j];
                    __syncthreads();
                    sums[threadIdx.x] = acc;
                    __syncthreads();
                    for (unsigned s = 128; s > 0; s >>= 1) {
                        if (threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
                        __syncthreads();
                    }
                    if (threadIdx.x == 0) out[j] = sums[0];
                }
            }

            #define JB_DIRECT(SUFFIX, R, T) \\
            extern "C" __global__ void jburn_direct_conv_##SUFFIX(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out, \\
                    unsigned positions, int depth, int outs, JbDivs dims, JbInts in, JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap) { \\
                jb_direct_forward<R, T>(x, w, out, positions, depth, outs, dims, in, mulA, mulB, lo, gap); \\
            } \\
            extern "C" __global__ void jburn_direct_kgrad_##SUFFIX(const T* __restrict__ x, const T* __restrict__ g, T* __restrict__ partial, \\
                    unsigned positions, int depth, int outs, unsigned chunk, unsigned chunks, JbDivs dims, JbInts in, JbInts mulA, \\
                    JbInts mulB, JbInts lo, JbDivs gap) { \\
                jb_direct_kernel_grad<R, T>(x, g, partial, positions, depth, outs, chunk, chunks, dims, in, mulA, mulB, lo, gap); \\
            }
            JB_DIRECT(f32_1, 1, float)
            JB_DIRECT(f32_2, 2, float)
            JB_DIRECT(f32_3, 3, float)
            JB_DIRECT(f64_1, 1, double)
            JB_DIRECT(f64_2, 2, double)
            JB_DIRECT(f64_3, 3, double)
            extern "C" __global__ void jburn_direct_ksum_f32(const float* __restrict__ partial, float* __restrict__ out, unsigned total,
                                                             unsigned chunks) { jb_direct_chunk_sum<float>(partial, out, total, chunks); }
            extern "C" __global__ void jburn_direct_ksum_f64(const double* __restrict__ partial, double* __restrict__ out, unsigned total,
                                                             unsigned chunks) { jb_direct_chunk_sum<double>(partial, out, total, chunks); }
            """;

    private ChannelsLastDirectConv() {}

    /** Positions per shared tile for {@code type} (the kernels' {@code JbDirectTile}). */
    static int tile(DType type) { return type == DType.F32 ? 64 : 32; }

    /**
     * Whether the direct kernel takes a group of {@code kind} on elements of {@code type} whose GEMM is
     * {@code rows × depth × columns} in {@link ChannelsLastConvs.Geometry}'s terms (for a forward conv
     * {@code [rows, depth]·[depth, columns]}, for a kernel cotangent {@code [depth, rows]ᵀ·[depth, columns]}): the
     * small side fits the kernel's shared tiles, and every index fits 32 bits.
     */
    static boolean takes(Kind kind, DType type, long rows, long depth, long columns) {
        if (type != DType.F32 && type != DType.F64) return false;
        if (kind == Kind.FORWARD) {
            return depth >= 1 && depth <= MAX_FORWARD_DEPTH && columns >= 1 && columns <= THREADS
                    && depth * columns <= MAX_FORWARD_WEIGHTS && rows >= 1 && rows * Math.max(columns, depth) < (1L << 31);
        }
        return rows >= 1 && rows <= MAX_GRADIENT_DEPTH && columns >= 1 && columns <= MAX_GRADIENT_COLUMNS
                && rows * columns <= MAX_GRADIENT_OUTPUTS && depth >= 1 && depth * Math.max(columns, rows) < (1L << 31);
    }

    /** The forward entry for {@code type} and 1 to 3 spatial axes. */
    static String forwardEntry(DType type, int spatial) { return "jburn_direct_conv_" + suffix(type, spatial); }

    /** The kernel-cotangent entry (partial sums per chunk). */
    static String gradientEntry(DType type, int spatial) { return "jburn_direct_kgrad_" + suffix(type, spatial); }

    /** The entry adding the chunks' partial sums. */
    static String sumEntry(DType type) { return "jburn_direct_ksum_" + name(type); }

    private static String suffix(DType type, int spatial) {
        if (spatial < 1 || spatial > ChannelsLastIm2col.MAX_SPATIAL) throw new IllegalArgumentException("no direct conv for " + spatial + " spatial axes");
        return name(type) + "_" + spatial;
    }

    private static String name(DType type) {
        return switch (type) {
            case F32 -> "f32";
            case F64 -> "f64";
            default -> throw new IllegalArgumentException("no direct conv for " + type);
        };
    }

    /** Blocks of a forward launch over {@code positions}. */
    static int forwardBlocks(DType type, long positions) {
        long tiles = (positions + tile(type) - 1) / tile(type);
        return (int) Math.max(1, Math.min(tiles, MAX_FORWARD_BLOCKS));
    }

    /**
     * Positions per chunk of a kernel cotangent over {@code positions}: whole tiles, at most {@link #MAX_CHUNKS}
     * chunks.
     */
    static long chunk(DType type, long positions) {
        int t = tile(type);
        long tiles = Math.max(1, (positions + t - 1) / t);
        long chunks = Math.min(tiles, MAX_CHUNKS);
        return (tiles + chunks - 1) / chunks * t;
    }

    /** Chunks of {@link #chunk} positions covering {@code positions}. */
    static long chunks(DType type, long positions) {
        long c = chunk(type, positions);
        return Math.max(1, (positions + c - 1) / c);
    }

    /**
     * Output {@code (p, o)} of the forward kernel, in its order (for tests): {@code cols(p, d)} read through
     * {@code col}, the kernel {@code w [depth, outs]}.
     */
    static double forwardAt(java.util.function.LongToDoubleFunction col, double[] w, long p, int o, int depth, int outs, boolean f32) {
        if (f32) {
            float acc = 0;
            for (int d = 0; d < depth; d++) acc = Math.fma((float) col.applyAsDouble(p * depth + d), (float) w[d * outs + o], acc);
            return acc;
        }
        double acc = 0;
        for (int d = 0; d < depth; d++) acc = Math.fma(col.applyAsDouble(p * depth + d), w[d * outs + o], acc);
        return acc;
    }

    /**
     * Output {@code j = d·outs + o} of the kernel cotangent, in the kernels' order (for tests): each chunk's partial sum
     * over its positions in ascending order, then the chunks added as {@code jb_direct_chunk_sum} does.
     */
    static double kernelGradientAt(java.util.function.LongToDoubleFunction col, double[] g, long positions, int depth, int outs, int j, boolean f32) {
        DType type = f32 ? DType.F32 : DType.F64;
        long chunk = chunk(type, positions), chunks = chunks(type, positions);
        int d = j / outs, o = j % outs;
        double[] partial = new double[(int) chunks];
        for (int b = 0; b < chunks; b++) {
            long end = Math.min(positions, (b + 1) * chunk);
            if (f32) {
                float acc = 0;
                for (long p = b * chunk; p < end; p++) acc = Math.fma((float) col.applyAsDouble(p * depth + d), (float) g[(int) (p * outs + o)], acc);
                partial[b] = acc;
            } else {
                double acc = 0;
                for (long p = b * chunk; p < end; p++) acc = Math.fma(col.applyAsDouble(p * depth + d), g[(int) (p * outs + o)], acc);
                partial[b] = acc;
            }
        }
        double[] sums = new double[THREADS];
        for (int t = 0; t < THREADS; t++) {
            double acc = 0;
            for (int b = t; b < chunks; b += THREADS) acc = f32 ? (float) ((float) acc + (float) partial[b]) : acc + partial[b];
            sums[t] = acc;
        }
        for (int s = THREADS / 2; s > 0; s >>= 1) {
            for (int t = 0; t < s; t++) sums[t] = f32 ? (float) ((float) sums[t] + (float) sums[t + s]) : sums[t] + sums[t + s];
        }
        return sums[0];
    }
}
