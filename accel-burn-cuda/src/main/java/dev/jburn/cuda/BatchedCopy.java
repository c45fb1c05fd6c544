package dev.jburn.cuda;

/**
 * One kernel that copies up to {@link #MAX} device ranges at once, the table passed by value in
 * the kernel's parameters. A replayed CUDA graph ({@link CapturedGraphs}) reads its inputs from
 * and leaves its outputs in fixed buffers; this copies the caller's inputs in and the results out
 * with one launch each, instead of one {@code cuMemcpyDtoDAsync} per tensor.
 *
 * <p>The engine's blocks start at 512-byte boundaries ({@link CachingAllocator}), so whole 16-byte
 * words are copied as {@code uint4} and only a range's last {@code bytes % 16} bytes one by one.
 * Block {@code b} of the grid works on range {@code b / perRange}.
 */
final class BatchedCopy {
    private BatchedCopy() {}

    /** Ranges per launch: the table is {@code 3·MAX} 64-bit words of kernel parameters (768 bytes). */
    static final int MAX = 32;
    static final int THREADS = 256;
    /** At most this many blocks per range; larger ranges are covered by the grid-stride loop. */
    static final int MAX_BLOCKS_PER_RANGE = 512;

    static final String ENTRY = "jb_batched_copy";

    static final String SOURCE = """
            struct JbCopies { unsigned long long src[%d]; unsigned long long dst[%d]; unsigned long long bytes[%d]; };
            extern "C" __global__ void jb_batched_copy(JbCopies c, int n, int perRange) {
                int k = blockIdx.x / perRange;
                if (k >= n) return;
                const unsigned char* s = (const unsigned char*) c.src[k];
                unsigned char* d = (unsigned char*) c.dst[k];
                unsigned long long bytes = c.bytes[k], words = bytes / 16;
                unsigned long long first = (unsigned long long) (blockIdx.x %% perRange) * blockDim.x + threadIdx.x;
                unsigned long long step = (unsigned long long) perRange * blockDim.x;
                for (unsigned long long i = first; i < words; i += step) ((uint4*) d)[i] = ((const uint4*) s)[i];
                for (unsigned long long i = words * 16 + first; i < bytes; i += step) d[i] = s[i];
            }
            """.formatted(MAX, MAX, MAX);

    /** Blocks per range so that the largest range gets one 16-byte word per thread, up to the cap. */
    static int blocksPerRange(long largestBytes) {
        long words = Math.max(1, (largestBytes + 15) / 16);
        return (int) Math.min(MAX_BLOCKS_PER_RANGE, (words + THREADS - 1) / THREADS);
    }

    /** The by-value table for ranges {@code [from, to)}: sources, then destinations, then byte counts. */
    static long[] table(long[] src, long[] dst, long[] bytes, int from, int to) {
        if (to - from > MAX) throw new IllegalArgumentException("more than " + MAX + " ranges");
        long[] t = new long[3 * MAX];
        for (int i = from; i < to; i++) {
            t[i - from] = src[i];
            t[MAX + i - from] = dst[i];
            t[2 * MAX + i - from] = bytes[i];
        }
        return t;
    }
}
