package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;

/**
 * Channels-last convolutions whose im2col depth is small, as direct kernels: a CNN's first layer reads one or three
 * channels through a 3×3 kernel, so its im2col matrix has 9 or 27 columns, and an im2col gather plus a cuBLAS GEMM
 * with such a depth writes and reads the gathered matrix and then runs a GEMM far below its rate (the small CNN's
 * conv 1 at batch 1024 on an H200: 163 µs forward and 212 µs for the kernel cotangent, for an output of 89 MB that
 * memory writes in ~35 µs). Both kernels gather tiles of the same im2col view as {@link ChannelsLastIm2col} into
 * shared memory, each position by one thread (or a few, splitting its depth, where the tile has fewer positions than
 * the block threads): its index arithmetic once, then its taps walked by counters
 * ({@code jb_direct_row}).
 * <ul>
 *   <li><b>forward</b> {@code out [P, O] = cols [P, D] · w [D, O]}: a block gathers {@code cols} for a tile of
 *       {@code lanes · Q} positions, then thread {@code (lane, o)} computes output column {@code o} of {@code Q}
 *       neighbouring positions in registers (Q = 16 for F32, 8 for F64), the products added by fused multiply-adds in
 *       ascending {@code d} from zero ({@link #forwardAt}), four positions' cols a shared load;</li>
 *   <li><b>kernel cotangent</b> {@code out [D, O] = cols [P, D]ᵀ · g [P, O]}: the positions are cut into chunks of
 *       whole tiles; in a block, thread {@code (lane, o)} adds every {@code lanes}-th position of its chunk into
 *       {@code D} registers (the cotangent read straight from global memory, coalesced over {@code o}), the lanes'
 *       sums are added in lane order into a partial {@code [D, O]}, and a second kernel adds the chunks' partials in a
 *       fixed tree (each of 256 threads adds chunks {@code t, t + 256, ...} in order, then halves), so a result is the
 *       same every run ({@link #kernelGradientAt}).</li>
 * </ul>
 * F32 and F64 only (the sums are in the element type); other dtypes and larger depths keep the gather and GEMM.
 *
 * <p>On by default since 2026-12-07 ({@link CudaConfig#directConv}). The first form (2026-12-06: each cols element gathered with its
 * own index arithmetic, one output per thread, two shared loads per fma) was right but not faster on an H100 (synced,
 * conv 1 at batch 1024: 184 µs forward and 226 µs for the kernel cotangent against 213 and 239 µs with im2col + GEMM;
 * the whole step 1.3% slower). This register-tiled form is faster alone on an H100 ({@code DirectConvBench}, back to
 * back, batch 1024: forward 61.9 against 92.4 µs, kernel cotangent 135.5 against 167.5 µs; at batch 128 4.4× and 1.7×)
 * but slower on deeper convs (conv 2: 0.68-0.87×, hence the default depth limit); the small CNN's step at batch 1024
 * ran 2.8% faster with it (H100, two alternating rounds of {@code cli/gpu/step-1024-h200.sh}).
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
    /** Most outputs of a kernel cotangent (keeps the chunks' partial sums within a few MB). */
    static final int MAX_GRADIENT_OUTPUTS = 4 * THREADS;
    /** Most chunks (blocks, partial sums) of a kernel cotangent. */
    static final int MAX_CHUNKS = 1024;
    /** Most blocks of a forward launch (each loops over tiles). */
    static final int MAX_FORWARD_BLOCKS = 4096;

    static final String SOURCE = ChannelsLastIm2col.GATHER + """
            static __device__ __forceinline__ float jb_fma(float a, float b, float c) { return fmaf(a, b, c); }
            static __device__ __forceinline__ double jb_fma(double a, double b, double c) { return fma(a, b, c); }
            #ifdef __CUDACC_RTC__
            // four neighbouring shared elements (16-byte aligned) in one or two vector loads
            static __device__ __forceinline__ void jb_load4(const float* s, float& a, float& b, float& c, float& d) {
                const float4 v = *reinterpret_cast<const float4*>(s); a = v.x; b = v.y; c = v.z; d = v.w;
            }
            static __device__ __forceinline__ void jb_load4(const double* s, double& a, double& b, double& c, double& d) {
                const double2 u = *reinterpret_cast<const double2*>(s), v = *reinterpret_cast<const double2*>(s + 2); a = u.x; b = u.y; c = v.x; d = v.y;
            }
            #else
            #define __align__(n) __attribute__((aligned(n)))
            template <typename T> static inline void jb_load4(const T* s, T& a, T& b, T& c, T& d) { a = s[0]; b = s[1]; c = s[2]; d = s[3]; }
            #endif
            // Forward: positions per thread (registers), elements of the shared cols tile, of the kernel.
            template <typename T> struct JbDirect { static const int Q = sizeof(T) == 4 ? 16 : 8, COLS = sizeof(T) == 4 ? 8192 : 4096, W = 2048; };

            // Depth d0 to d0 + count - 1 of the cols row of view position p ([N, A...] flat), taps B... outer and channels C
            // inner, through put(d - d0, value): the position's index arithmetic done once and the taps walked by counters
            // (ChannelsLastIm2col's jb_im2col_at divides again for every element).
            template <int R, typename T, typename Put>
            static __device__ __forceinline__ void jb_direct_row(const T* __restrict__ x, unsigned p, int d0, int count, JbDivs dims, JbInts in,
                    JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap, Put put) {
                int qa[R], b[R];
                unsigned rest = p;
                #pragma unroll
                for (int j = R - 1; j >= 0; --j) {
                    const unsigned q = jb_div(rest, dims.v[1 + j]);
                    qa[j] = (int)(rest - q * dims.v[1 + j].d) * mulA.v[j] - lo.v[j];
                    rest = q;
                }
                const int n = (int)rest, channels = (int)dims.v[2 * R + 1].d;
                unsigned tap = jb_div((unsigned)d0, dims.v[2 * R + 1]);
                int c = d0 - (int)(tap * (unsigned)channels);
                #pragma unroll
                for (int j = R - 1; j >= 0; --j) {
                    const unsigned q = jb_div(tap, dims.v[1 + R + j]);
                    b[j] = (int)(tap - q * dims.v[1 + R + j].d);
                    tap = q;
                }
                for (int e = 0; e < count;) {
                    int src = n; bool inside = true;
                    #pragma unroll
                    for (int j = 0; j < R; ++j) {
                        const int q = qa[j] + b[j] * mulB.v[j];
                        const unsigned g = q < 0 ? 0u : jb_div((unsigned)q, gap.v[j]);
                        if (q < 0 || (unsigned)q != g * gap.v[j].d || (int)g >= in.v[1 + j]) inside = false;
                        src = src * in.v[1 + j] + (int)g;
                    }
                    src *= channels;
                    for (; c < channels && e < count; ++c, ++e) put(e, inside ? x[src + c] : (T)0);
                    c = 0;
                    #pragma unroll
                    for (int j = R - 1; j >= 0; --j) {
                        if (++b[j] < (int)dims.v[1 + R + j].d) break;
                        b[j] = 0;
                    }
                }
            }

            // Depths d0 to d0 + dn - 1 of the cols rows of positions first to first + count - 1 through put(i, d - d0, value):
            // each row split into parts where the block has more threads than positions, so every thread gathers.
            template <int R, typename T, typename Put>
            static __device__ __forceinline__ void jb_direct_gather(const T* __restrict__ x, unsigned first, int count, int d0, int dn, JbDivs dims,
                    JbInts in, JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap, Put put) {
                const int parts = count < (int)blockDim.x ? (int)blockDim.x / count : 1, span = (dn + parts - 1) / parts;
                for (int e = threadIdx.x; e < count * parts; e += blockDim.x) {
                    const int part = e / count, i = e - part * count, s0 = part * span, sn = dn - s0 < span ? dn - s0 : span;
                    if (sn > 0) jb_direct_row<R, T>(x, first + i, d0 + s0, sn, dims, in, mulA, mulB, lo, gap, [&](int d, T v) { put(i, s0 + d, v); });
                }
            }

            // out [P, O] = cols [P, D]·w [D, O]: for a tile of lanes·Q positions, a block gathers the cols of a chunk of
            // dk depths into shared memory as [dk][tile] (positions fastest) and the chunk's kernel rows, and thread (lane, o)
            // adds Q neighbouring positions' outputs of column o in registers, from zero in ascending d over the chunks,
            // reading four positions' cols a load.
            template <int R, typename T>
            static __device__ __forceinline__ void jb_direct_forward(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out,
                    unsigned positions, int depth, int outs, int lanes, int dk, JbDivs dims, JbInts in, JbInts mulA, JbInts mulB, JbInts lo,
                    JbDivs gap) {
                const int Q = JbDirect<T>::Q, P = lanes * Q;
                __shared__ __align__(16) T cols[JbDirect<T>::COLS];
                __shared__ T ws[JbDirect<T>::W];
                const int lane = (int)threadIdx.x / outs, o = (int)threadIdx.x - lane * outs;
                const unsigned tiles = (positions + P - 1) / P;
                for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
                    const unsigned first = t * P;
                    const int count = positions - first < (unsigned)P ? (int)(positions - first) : P;
                    T acc[Q];
                    #pragma unroll
                    for (int q = 0; q < Q; ++q) acc[q] = (T)0;
                    for (int d0 = 0; d0 < depth; d0 += dk) {
                        const int dn = depth - d0 < dk ? depth - d0 : dk;
                        __syncthreads();
                        for (int e = threadIdx.x; e < dn * outs; e += blockDim.x) ws[e] = w[d0 * outs + e];
                        jb_direct_gather<R, T>(x, first, count, d0, dn, dims, in, mulA, mulB, lo, gap, [&](int i, int d, T v) { cols[d * P + i] = v; });
                        __syncthreads();
                        if (lane < lanes) {
                            for (int d = 0; d < dn; ++d) {
                                const T wv = ws[d * outs + o];
                                const T* c = cols + d * P + lane * Q;
                                #pragma unroll
                                for (int q = 0; q < Q; q += 4) {
                                    T v0, v1, v2, v3;
                                    jb_load4(c + q, v0, v1, v2, v3);
                                    acc[q] = jb_fma(v0, wv, acc[q]);
                                    acc[q + 1] = jb_fma(v1, wv, acc[q + 1]);
                                    acc[q + 2] = jb_fma(v2, wv, acc[q + 2]);
                                    acc[q + 3] = jb_fma(v3, wv, acc[q + 3]);
                                }
                            }
                        }
                    }
                    if (lane < lanes) {
                        #pragma unroll
                        for (int q = 0; q < Q; ++q)
                            if (lane * Q + q < count) out[(first + lane * Q + q) * outs + o] = acc[q];
                    }
                }
            }

            // Kernel cotangent: partial [chunk, D, O] = Σ over the chunk's positions of cols[p, d]·g[p, o]. Thread (lane, o) adds
            // every lanes-th position of the chunk into D registers (g read straight from global memory, coalesced over o; the
            // cols row of four d's a load from the shared tile [tile][dp]), then the lanes' sums are added in lane order.
            template <int R, typename T>
            static __device__ __forceinline__ void jb_direct_kernel_grad(const T* __restrict__ x, const T* __restrict__ g, T* __restrict__ partial,
                    unsigned positions, int depth, int outs, unsigned chunk, unsigned chunks, int tile, int lanes, JbDivs dims, JbInts in,
                    JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap) {
                __shared__ __align__(16) T cols[JbDirect<T>::COLS];
                __shared__ T red[256];
                const int dp = (depth + 3) & ~3, total = depth * outs;
                const int lane = (int)threadIdx.x / outs, o = (int)threadIdx.x - lane * outs;
                for (unsigned b = blockIdx.x; b < chunks; b += gridDim.x) {
                    T acc[32];
                    #pragma unroll
                    for (int d = 0; d < 32; ++d) acc[d] = (T)0;
                    const unsigned start = b * chunk, end = positions - start < chunk ? positions : start + chunk;
                    for (unsigned first = start; first < end; first += tile) {
                        const int count = end - first < (unsigned)tile ? (int)(end - first) : tile;
                        __syncthreads();
                        jb_direct_gather<R, T>(x, first, count, 0, depth, dims, in, mulA, mulB, lo, gap, [&](int i, int d, T v) { cols[i * dp + d] = v; });
                        __syncthreads();
                        if (lane < lanes) {
                            for (int i = lane; i < count; i += lanes) {
                                const T gv = g[(first + i) * outs + o];
                                const T* c = cols + i * dp;
                                #pragma unroll
                                for (int d = 0; d < 32; d += 4) {
                                    if (d < depth) {
                                        T v0, v1, v2, v3;
                                        jb_load4(c + d, v0, v1, v2, v3);
                                        acc[d] = jb_fma(v0, gv, acc[d]);
                                        acc[d + 1] = jb_fma(v1, gv, acc[d + 1]);
                                        acc[d + 2] = jb_fma(v2, gv, acc[d + 2]);
                                        acc[d + 3] = jb_fma(v3, gv, acc[d + 3]);
                                    }
                                }
                            }
                        }
                    }
                    #pragma unroll
                    for (int d = 0; d < 32; ++d) {
                        if (d < depth) {
                            __syncthreads();
                            red[threadIdx.x] = acc[d];
                            __syncthreads();
                            if ((int)threadIdx.x < outs) {
                                T s = red[o];
                                for (int l = 1; l < lanes; ++l) s += red[l * outs + o];
                                partial[b * total + d * outs + o] = s;
                            }
                        }
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
                    unsigned positions, int depth, int outs, int lanes, int dk, JbDivs dims, JbInts in, JbInts mulA, JbInts mulB, JbInts lo, \\
                    JbDivs gap) { \\
                jb_direct_forward<R, T>(x, w, out, positions, depth, outs, lanes, dk, dims, in, mulA, mulB, lo, gap); \\
            } \\
            extern "C" __global__ void jburn_direct_kgrad_##SUFFIX(const T* __restrict__ x, const T* __restrict__ g, T* __restrict__ partial, \\
                    unsigned positions, int depth, int outs, unsigned chunk, unsigned chunks, int tile, int lanes, JbDivs dims, JbInts in, \\
                    JbInts mulA, JbInts mulB, JbInts lo, JbDivs gap) { \\
                jb_direct_kernel_grad<R, T>(x, g, partial, positions, depth, outs, chunk, chunks, tile, lanes, dims, in, mulA, mulB, lo, gap); \\
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

    /** Positions a forward thread adds in registers ({@code JbDirect::Q}). */
    static int positionsPerThread(DType type) { return type == DType.F32 ? 16 : 8; }

    /** Elements of the kernels' shared cols tile ({@code JbDirect::COLS}: 32 KB). */
    static int colsCapacity(DType type) { return type == DType.F32 ? 8192 : 4096; }

    /**
     * Depths of a forward chunk for {@code outs} columns: the chunk's kernel rows ({@code dk × outs}) fit the shared
     * kernel tile, at most {@link #MAX_FORWARD_DEPTH}.
     */
    static int forwardChunk(int depth, int outs) { return Math.max(1, Math.min(Math.min(depth, MAX_FORWARD_DEPTH), MAX_FORWARD_WEIGHTS / outs)); }

    /**
     * Position lanes of a forward block for {@code outs} columns of depth {@code depth}: as many as the block's threads
     * give ({@code 256 / outs}), fewer where the cols tile ({@code lanes · Q} positions × the chunk's depths) would not
     * fit.
     */
    static int forwardLanes(DType type, int depth, int outs) {
        return Math.max(1, Math.min(THREADS / outs, colsCapacity(type) / (forwardChunk(depth, outs) * positionsPerThread(type))));
    }

    /** Positions of a forward tile: {@link #forwardLanes} × {@link #positionsPerThread}. */
    static int forwardTile(DType type, int depth, int outs) { return forwardLanes(type, depth, outs) * positionsPerThread(type); }

    /** Position lanes of a kernel-cotangent block for {@code outs} columns: a power of two, at most 64 and {@code 256 / outs}. */
    static int gradientLanes(int outs) { return Math.min(64, Integer.highestOneBit(THREADS / outs)); }

    /**
     * Positions of a kernel-cotangent tile for {@code depth} rows: a power of two (so a multiple of the lanes), at most
     * 256, its cols ({@code depth} rounded up to 4 per position) within the shared tile.
     */
    static int gradientTile(DType type, int depth) {
        int padded = (depth + 3) & ~3;
        return Math.min(THREADS, Integer.highestOneBit(colsCapacity(type) / padded));
    }

    /**
     * Whether the direct kernel takes a group of {@code kind} on elements of {@code type} whose GEMM is
     * {@code rows × depth × columns} in {@link ChannelsLastConvs.Geometry}'s terms (for a forward conv
     * {@code [rows, depth]·[depth, columns]}, for a kernel cotangent {@code [depth, rows]ᵀ·[depth, columns]}): the
     * small side fits the kernel's shared tiles, and every index fits 32 bits.
     */
    static boolean takes(Kind kind, DType type, long rows, long depth, long columns) {
        return takes(kind, type, rows, depth, columns, MAX_FORWARD_DEPTH);
    }

    /**
     * {@link #takes(Kind, DType, long, long, long)} with forward convs of depth up to {@code forwardDepth} (the forward
     * kernel runs the depth in chunks of at most {@link #MAX_FORWARD_DEPTH} whose kernel rows fit its shared tile).
     */
    static boolean takes(Kind kind, DType type, long rows, long depth, long columns, long forwardDepth) {
        if (type != DType.F32 && type != DType.F64) return false;
        if (kind == Kind.FORWARD) {
            return depth >= 1 && depth <= forwardDepth && columns >= 1 && columns <= THREADS
                    && rows >= 1 && rows * Math.max(columns, depth) < (1L << 31);
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
    static int forwardBlocks(DType type, long positions, int depth, int outs) {
        int t = forwardTile(type, depth, outs);
        long tiles = (positions + t - 1) / t;
        return (int) Math.max(1, Math.min(tiles, MAX_FORWARD_BLOCKS));
    }

    /**
     * Positions per chunk of a kernel cotangent over {@code positions} with {@code depth} rows: whole tiles, at most
     * {@link #MAX_CHUNKS} chunks.
     */
    static long chunk(DType type, long positions, int depth) {
        int t = gradientTile(type, depth);
        long tiles = Math.max(1, (positions + t - 1) / t);
        long chunks = Math.min(tiles, MAX_CHUNKS);
        return (tiles + chunks - 1) / chunks * t;
    }

    /** Chunks of {@link #chunk} positions covering {@code positions}. */
    static long chunks(DType type, long positions, int depth) {
        long c = chunk(type, positions, depth);
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
     * Output {@code j = d·outs + o} of the kernel cotangent, in the kernels' order (for tests): in each chunk, lane
     * {@code l} adds the chunk's positions {@code start + l, start + l + lanes, ...} in ascending order from zero, the
     * lanes' sums are added in lane order, then the chunks' partials as {@code jb_direct_chunk_sum} adds them.
     */
    static double kernelGradientAt(java.util.function.LongToDoubleFunction col, double[] g, long positions, int depth, int outs, int j, boolean f32) {
        DType type = f32 ? DType.F32 : DType.F64;
        long chunk = chunk(type, positions, depth), chunks = chunks(type, positions, depth);
        int lanes = gradientLanes(outs);
        int d = j / outs, o = j % outs;
        double[] partial = new double[(int) chunks];
        for (int b = 0; b < chunks; b++) {
            long start = b * chunk, end = Math.min(positions, start + chunk);
            double sum = 0;
            for (int l = 0; l < lanes; l++) {
                double acc = 0;
                for (long p = start + l; p < end; p += lanes) {
                    acc = f32 ? Math.fma((float) col.applyAsDouble(p * depth + d), (float) g[(int) (p * outs + o)], (float) acc)
                            : Math.fma(col.applyAsDouble(p * depth + d), g[(int) (p * outs + o)], acc);
                }
                sum = l == 0 ? acc : f32 ? (float) ((float) sum + (float) acc) : sum + acc;
            }
            partial[b] = sum;
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
