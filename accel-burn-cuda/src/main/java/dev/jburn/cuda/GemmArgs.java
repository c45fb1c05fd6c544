package dev.jburn.cuda;

/**
 * The column-major cuBLAS call that computes a row-major product. cuBLAS reads a row-major
 * {@code [r, c]} matrix as its column-major transpose, so {@code C = op(A)·op(B)} (row-major
 * {@code [m, n]}) is computed as {@code Cᵀ = op(B)ᵀ·op(A)ᵀ}: B is passed first, A second, and m and
 * n swap. An operand stored transposed (A as {@code [k, m]}, B as {@code [n, k]}) becomes
 * {@code CUBLAS_OP_T} instead of a copy.
 *
 * @param transFirst   op of the first cuBLAS operand (row-major B)
 * @param transSecond  op of the second cuBLAS operand (row-major A)
 * @param m            cuBLAS m = row-major n
 * @param n            cuBLAS n = row-major m
 * @param k            the contracted length
 * @param ldFirst      leading dimension of B's storage (its row length)
 * @param ldSecond     leading dimension of A's storage
 * @param ldc          leading dimension of C (row-major n)
 * @param strideFirst  elements between B matrices of consecutive batches
 * @param strideSecond elements between A matrices
 * @param strideC      elements between C matrices
 * @param batch        number of independent products
 */
record GemmArgs(int transFirst, int transSecond, int m, int n, int k, int ldFirst, int ldSecond, int ldc,
                long strideFirst, long strideSecond, long strideC, int batch) {

    /** The element types cuBLAS multiplies here: F16/BF16 accumulate in F32. */
    enum Precision { F32, F64, F16, BF16 }

    /**
     * The call for {@code batch} row-major products {@code [m, k]·[k, n]}, where {@code aTransposed}
     * means A is stored {@code [k, m]} and {@code bTransposed} means B is stored {@code [n, k]}.
     * Throws {@link IllegalArgumentException} when a size exceeds cuBLAS's 32-bit arguments
     * (the caller then runs the product another way); sizes must be positive.
     */
    static GemmArgs rowMajor(long batch, long m, long n, long k, boolean aTransposed, boolean bTransposed) {
        if (batch < 1 || m < 1 || n < 1 || k < 1) throw new IllegalArgumentException("empty GEMM " + batch + "x" + m + "x" + n + "x" + k);
        int ib = fits(batch), im = fits(m), in = fits(n), ik = fits(k);
        return new GemmArgs(
                bTransposed ? Cublas.OP_T : Cublas.OP_N,
                aTransposed ? Cublas.OP_T : Cublas.OP_N,
                in, im, ik,
                bTransposed ? ik : in,
                aTransposed ? im : ik,
                in,
                k * n, m * k, m * n, ib);
    }

    /**
     * The call for {@code slices} partial products of one row-major {@code [m, k]·[k, n]} (storage as in
     * {@link #rowMajor}): batch {@code s} multiplies contraction slice {@code [s·k/slices, (s+1)·k/slices)} of both
     * operands (the same leading dimensions, the operands' pointers advanced per slice) into {@code C[s]} of
     * {@code m × n}; their sum is the product ({@link SplitK}). {@code slices} must divide {@code k}.
     */
    static GemmArgs splitK(long m, long n, long k, boolean aTransposed, boolean bTransposed, int slices) {
        if (slices < 1 || k % slices != 0) throw new IllegalArgumentException(slices + " slices do not divide k = " + k);
        GemmArgs one = rowMajor(1, m, n, k, aTransposed, bTransposed);
        long slice = k / slices;
        return new GemmArgs(one.transFirst, one.transSecond, one.m, one.n, fits(slice), one.ldFirst, one.ldSecond, one.ldc,
                slice * (bTransposed ? 1 : n), slice * (aTransposed ? m : 1), m * n, slices);
    }

    private static int fits(long v) {
        if (v > Integer.MAX_VALUE) throw new IllegalArgumentException(v + " exceeds cuBLAS's 32-bit sizes");
        return (int) v;
    }
}
