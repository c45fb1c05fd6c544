package dev.jburn.reference;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The engine's one matrix-multiply entry point, shared by {@code dot} and convolution
 * (im2col): {@code C = A·B} (or {@code C += A·B}) on strided views, so transposed operands
 * need no copies.
 *
 * <p>This is the simple, correct baseline (row-parallel i-k-j with fma); the packed,
 * register-blocked kernel replaces the body without changing the signature.
 */
final class Gemm {
    private Gemm() {}

    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DL = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /**
     * A strided matrix view: element {@code (i, j)} is at element index
     * {@code offset + i*rowStride + j*colStride} of {@code segment}.
     */
    record View(MemorySegment segment, long offset, long rowStride, long colStride) {
        static View rowMajor(MemorySegment s, long offset, long cols) { return new View(s, offset, cols, 1); }

        /** The transposed view: no data moves. */
        View transposed() { return new View(segment, offset, colStride, rowStride); }
    }

    /** F32: {@code C[m×n] (+)= A[m×k]·B[k×n]}. */
    static void sgemm(int m, int n, int k, View a, View b, View c, boolean accumulate, Parallel parallel) {
        parallel.forRange(m, (long) n * k, (lo, hi) -> {
            for (long i = lo; i < hi; i++) {
                for (int j = 0; j < n; j++) {
                    long ci = c.offset() + i * c.rowStride() + j * c.colStride();
                    float acc = accumulate ? c.segment().getAtIndex(FL, ci) : 0f;
                    for (int p = 0; p < k; p++) {
                        acc = Math.fma(a.segment().getAtIndex(FL, a.offset() + i * a.rowStride() + p * a.colStride()),
                                b.segment().getAtIndex(FL, b.offset() + p * b.rowStride() + j * b.colStride()), acc);
                    }
                    c.segment().setAtIndex(FL, ci, acc);
                }
            }
        });
    }

    /** F64: {@code C[m×n] (+)= A[m×k]·B[k×n]}. */
    static void dgemm(int m, int n, int k, View a, View b, View c, boolean accumulate, Parallel parallel) {
        parallel.forRange(m, (long) n * k, (lo, hi) -> {
            for (long i = lo; i < hi; i++) {
                for (int j = 0; j < n; j++) {
                    long ci = c.offset() + i * c.rowStride() + j * c.colStride();
                    double acc = accumulate ? c.segment().getAtIndex(DL, ci) : 0.0;
                    for (int p = 0; p < k; p++) {
                        acc = Math.fma(a.segment().getAtIndex(DL, a.offset() + i * a.rowStride() + p * a.colStride()),
                                b.segment().getAtIndex(DL, b.offset() + p * b.rowStride() + j * b.colStride()), acc);
                    }
                    c.segment().setAtIndex(DL, ci, acc);
                }
            }
        });
    }
}
