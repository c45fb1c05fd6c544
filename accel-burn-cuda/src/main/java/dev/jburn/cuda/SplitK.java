package dev.jburn.cuda;

/**
 * A GEMM with few output tiles and a long contraction as several GEMMs over slices of the contraction, one strided
 * batch ({@link GemmArgs#splitK}), whose partial products a kernel then adds in slice order. Whether a product is split
 * is measured, once per shape on its first run outside a graph capture (as cuDNN's benchmark mode picks convolution
 * algorithms): cuBLAS splits some such products itself (an H100, sixteenth session: a kernel cotangent's
 * {@code [288, 123904]·[123904, 64]} took 140 µs whole and 207 µs in 32 slices; {@code [512, 1600]·[1600, 128]} 25
 * µs whole) and not others ({@code [1024, 1600]·[1600, 128]}: 129 µs whole, 31-36 µs in 10-25 slices), so no rule on
 * the shape alone tells them apart. A GEMM's blocks each own
 * an output tile, so a product like a dense layer's {@code [1024, 1600]·[1600, 128]} (about 8 tiles of 128 × 128)
 * keeps 8 of an H100's 132 multiprocessors busy unless the library splits the contraction itself: a synced node
 * profile of the small CNN's step put that product at 161 µs, against 70 µs for its input cotangent
 * {@code [1024, 128]·[128, 1600]}, the same arithmetic with 100 tiles. F32 and F64 only (half types accumulate in
 * F32 inside cuBLAS); the slices' sums are added in the element type, in slice order, so a result is the same every
 * run.
 */
final class SplitK {
    static final int THREADS = 256;
    /** Shortest contraction slice: below it a slice's GEMM is mostly its prologue and epilogue. */
    static final long MIN_SLICE = 128;
    /** Most slices (partial products: the workspace is {@code slices × m × n} elements). */
    static final int MAX_SLICES = 32;
    /** Output tile edge assumed for cuBLAS's SGEMM kernels when counting tiles. */
    static final long TILE = 128;
    /** A split is kept only when it takes at most this share of the single GEMM's time (measured once per product). */
    static final double GAIN = 0.8;
    /** Calls timed per form when measuring a product (after one warm-up call each). */
    static final int TIMED_CALLS = 5;
    /** {@code -Djburn.cuda.splitK.verbose=true}: one line per measured product on stderr. */
    static final boolean VERBOSE = Boolean.getBoolean("jburn.cuda.splitK.verbose");

    /** A product's shape: what a measured choice is kept under. */
    record Key(long m, long n, long k, boolean aTransposed, boolean bTransposed, GemmArgs.Precision precision) {}

    static final String SOURCE = """
            template <typename T>
            static __device__ __forceinline__ void jb_split_k_sum(const T* __restrict__ partial, T* __restrict__ out, unsigned n, unsigned slices) {
                for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
                    T s = partial[i];
                    for (unsigned k = 1; k < slices; ++k) s += partial[(unsigned long long)k * n + i];
                    out[i] = s;
                }
            }
            extern "C" __global__ void jburn_split_k_sum_f32(const float* __restrict__ p, float* __restrict__ out, unsigned n, unsigned slices) {
                jb_split_k_sum<float>(p, out, n, slices);
            }
            extern "C" __global__ void jburn_split_k_sum_f64(const double* __restrict__ p, double* __restrict__ out, unsigned n, unsigned slices) {
                jb_split_k_sum<double>(p, out, n, slices);
            }
            """;

    private SplitK() {}

    /**
     * Slices for a row-major {@code [m, k]·[k, n]} on {@code multiprocessors}: 1 (no split) where the output has a tile
     * per multiprocessor or the contraction is short; otherwise enough slices to give each multiprocessor about one
     * tile, each slice at least {@link #MIN_SLICE} long, at most {@link #MAX_SLICES}, and a divisor of {@code k}.
     */
    static int slices(long m, long n, long k, int multiprocessors) {
        long tiles = ((m + TILE - 1) / TILE) * ((n + TILE - 1) / TILE);
        if (tiles >= multiprocessors || k < 2 * MIN_SLICE) return 1;
        long want = Math.min(Math.min((multiprocessors + tiles - 1) / tiles, k / MIN_SLICE), MAX_SLICES);
        for (long s = want; s >= 2; s--) if (k % s == 0) return (int) s;
        return 1;
    }

    /** The sum kernel's entry for F32 or F64. */
    static String sumEntry(GemmArgs.Precision p) {
        return switch (p) {
            case F32 -> "jburn_split_k_sum_f32";
            case F64 -> "jburn_split_k_sum_f64";
            default -> throw new IllegalArgumentException("no split-K sum for " + p);
        };
    }
}
