package dev.jburn.cuda;

/**
 * The movement kernels: a gather of a {@link StridedView} into a new row-major buffer, and its
 * mirror, a contiguous input scattered into a strided region of an existing buffer (concatenate,
 * putSlice, pad), for any element width (the bits are copied, so every dtype works). Hand-written here because it is
 * specific to this engine's memory (the shared emitter generates arithmetic kernels).
 */
final class StridedCopy {
    static final int THREADS = 256;

    /** One CUDA source with an entry per element width (1, 2, 4, 8 bytes). */
    static final String SOURCE = FastDivisors.CUDA + """
            struct JbDims { long long v[8]; };
            #define JB_STRIDED_COPY(NAME, T) \\
            extern "C" __global__ void NAME(const T* __restrict__ in, T* __restrict__ out, long long n, \\
                                            long long base, int rank, JbDims dims, JbDims strides) { \\
                long long step = (long long)gridDim.x * blockDim.x; \\
                for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) { \\
                    long long r = i, src = base; \\
                    for (int d = rank - 1; d >= 0; --d) { \\
                        long long q = r / dims.v[d]; \\
                        src += (r - q * dims.v[d]) * strides.v[d]; \\
                        r = q; \\
                    } \\
                    out[i] = in[src]; \\
                } \\
            }
            #define JB_STRIDED_SCATTER(NAME, T) \\
            extern "C" __global__ void NAME(const T* __restrict__ in, T* __restrict__ out, long long n, \\
                                            long long dstBase, int rank, JbDims dims, JbDims dstStrides) { \\
                long long step = (long long)gridDim.x * blockDim.x; \\
                for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) { \\
                    long long r = i, dst = dstBase; \\
                    for (int d = rank - 1; d >= 0; --d) { \\
                        long long q = r / dims.v[d]; \\
                        dst += (r - q * dims.v[d]) * dstStrides.v[d]; \\
                        r = q; \\
                    } \\
                    out[dst] = in[i]; \\
                } \\
            }
            #define JB_STRIDED_COPY32(NAME, T) \\
            extern "C" __global__ void NAME(const T* __restrict__ in, T* __restrict__ out, unsigned n, \\
                                            int base, int rank, JbDivs dims, JbInts strides) { \\
                for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) { \\
                    unsigned r = i; int src = base; \\
                    _Pragma("unroll") for (int d = 7; d >= 0; --d) { \\
                        if (d < rank) { unsigned q = jb_div(r, dims.v[d]); src += (int)(r - q * dims.v[d].d) * strides.v[d]; r = q; } \\
                    } \\
                    out[i] = in[src]; \\
                } \\
            }
            #define JB_STRIDED_SCATTER32(NAME, T) \\
            extern "C" __global__ void NAME(const T* __restrict__ in, T* __restrict__ out, unsigned n, \\
                                            int dstBase, int rank, JbDivs dims, JbInts dstStrides) { \\
                for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) { \\
                    unsigned r = i; int dst = dstBase; \\
                    _Pragma("unroll") for (int d = 7; d >= 0; --d) { \\
                        if (d < rank) { unsigned q = jb_div(r, dims.v[d]); dst += (int)(r - q * dims.v[d].d) * dstStrides.v[d]; r = q; } \\
                    } \\
                    out[dst] = in[i]; \\
                } \\
            }
            JB_STRIDED_COPY(jburn_strided_copy_1, unsigned char)
            JB_STRIDED_COPY(jburn_strided_copy_2, unsigned short)
            JB_STRIDED_COPY(jburn_strided_copy_4, unsigned int)
            JB_STRIDED_COPY(jburn_strided_copy_8, unsigned long long)
            JB_STRIDED_SCATTER(jburn_strided_scatter_1, unsigned char)
            JB_STRIDED_SCATTER(jburn_strided_scatter_2, unsigned short)
            JB_STRIDED_SCATTER(jburn_strided_scatter_4, unsigned int)
            JB_STRIDED_SCATTER(jburn_strided_scatter_8, unsigned long long)
            JB_STRIDED_COPY32(jburn_strided_copy32_1, unsigned char)
            JB_STRIDED_COPY32(jburn_strided_copy32_2, unsigned short)
            JB_STRIDED_COPY32(jburn_strided_copy32_4, unsigned int)
            JB_STRIDED_COPY32(jburn_strided_copy32_8, unsigned long long)
            JB_STRIDED_SCATTER32(jburn_strided_scatter32_1, unsigned char)
            JB_STRIDED_SCATTER32(jburn_strided_scatter32_2, unsigned short)
            JB_STRIDED_SCATTER32(jburn_strided_scatter32_4, unsigned int)
            JB_STRIDED_SCATTER32(jburn_strided_scatter32_8, unsigned long long)
            """;

    private StridedCopy() {}

    /** The kernel entry for elements of {@code bytes} bytes. */
    static String entry(int bytes) {
        return switch (bytes) {
            case 1, 2, 4, 8 -> "jburn_strided_copy_" + bytes;
            default -> throw new IllegalArgumentException("no strided copy for " + bytes + "-byte elements");
        };
    }

    /**
     * Whether the 32-bit entries ({@link #entry32}) take {@code n} elements whose offsets
     * {@code base + Σ i_d · strides[d]} all lie in {@code [0, 2^31)}: then each axis's coordinate
     * comes from a multiply-high instead of a 64-bit division ({@link FastDivisors}).
     */
    static boolean fits32(long n, long base, long[] dims, long[] strides) {
        if (n > Integer.MAX_VALUE || base < 0 || base > Integer.MAX_VALUE) return false;
        long lo = base, hi = base;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] > Integer.MAX_VALUE || Math.abs(strides[d]) > Integer.MAX_VALUE) return false;
            long span = (dims[d] - 1) * strides[d];
            if (span < 0) lo += span; else hi += span;
        }
        return lo >= 0 && hi <= Integer.MAX_VALUE;
    }

    /** The 32-bit index entry for elements of {@code bytes} bytes (see {@link #fits32}). */
    static String entry32(int bytes) { return entry(bytes).replace("copy", "copy32"); }

    /** The 32-bit index scatter entry. */
    static String scatterEntry32(int bytes) { return entry(bytes).replace("copy", "scatter32"); }

    /** The scatter entry: a contiguous input written to {@code out[dstBase + Σ i_d · dstStrides[d]]}. */
    static String scatterEntry(int bytes) { return entry(bytes).replace("copy", "scatter"); }

    /** Blocks for {@code n} elements: enough to fill the GPU, the rest covered by the grid-stride loop. */
    static int blocks(long n) {
        return (int) Math.max(1, Math.min((n + THREADS - 1) / THREADS, 1L << 16));
    }
}
