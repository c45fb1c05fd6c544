package dev.jburn.cuda;

/**
 * Division by a run-time divisor as a multiply-high, add and shift (the round-up method PyTorch's
 * {@code IntDivider} uses): {@code n / d == (umulhi(n, magic) + n) >> shift} for every {@code n < 2^31}
 * and {@code 1 <= d < 2^31}. Index kernels decompose a flat index into coordinates with one such
 * division per axis; a 64-bit {@code /} by a run-time value is a long software routine on the GPU,
 * and it made the movement kernels the largest share of the CNN's training step on the H200.
 * The kernels take each divisor as a {@code {d, magic, shift}} triple of {@code u32}s ({@link #CUDA}).
 */
final class FastDivisors {
    /** The CUDA side: the divisor struct, the division, and a struct of 8 for the rank-8 kernels. */
    static final String CUDA = """
            struct JbDiv { unsigned d, m, s; };
            struct JbDivs { JbDiv v[8]; };
            struct JbInts { int v[8]; };
            static __device__ __forceinline__ unsigned jb_div(unsigned n, JbDiv q) { return (__umulhi(n, q.m) + n) >> q.s; }
            """;

    private FastDivisors() {}

    /** {@code {d, magic, shift}} for divisor {@code d} (1 ≤ d < 2^31). */
    static int[] of(long d) {
        if (d < 1 || d > Integer.MAX_VALUE) throw new IllegalArgumentException("divisor out of range: " + d);
        int shift = 0;
        while ((1L << shift) < d) shift++;
        long magic = ((1L << 32) * ((1L << shift) - d)) / d + 1;
        return new int[] {(int) d, (int) magic, shift};
    }

    /** The quotient as the kernel computes it, in 32-bit unsigned arithmetic (for tests). */
    static long divide(long n, int[] divisor) {
        long hi = (n * (divisor[1] & 0xffffffffL)) >>> 32;
        return ((hi + n) & 0xffffffffL) >>> divisor[2];
    }

    /** The bytes of a {@code JbDivs} struct for {@code dims}, padded with divisor 1 to 8 axes. */
    static int[] struct(long[] dims) {
        int[] s = new int[3 * StridedView.MAX_RANK];
        for (int i = 0; i < StridedView.MAX_RANK; i++) System.arraycopy(of(i < dims.length ? dims[i] : 1), 0, s, 3 * i, 3);
        return s;
    }

    /** {@code v} as 8 {@code int}s, padded with 0. */
    static int[] ints(long[] v) {
        int[] s = new int[StridedView.MAX_RANK];
        for (int i = 0; i < v.length; i++) s[i] = Math.toIntExact(v[i]);
        return s;
    }
}
