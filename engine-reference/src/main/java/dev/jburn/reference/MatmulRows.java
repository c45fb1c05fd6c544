package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.spi.HostElements;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Fast rows of a batched row-major integer matmul {@code C[bt] = A[bt]·B[bt]}
 * ({@code M×K·K×N}): output rows {@code [lo, hi)}, where row {@code r} is batch {@code r / M},
 * row {@code r % M}. The loop order is i-k-j: one row of C is accumulated in a heap array
 * while the rows of B stream past. (Floats go through {@link Gemm}.)
 */
final class MatmulRows {
    private MatmulRows() {}

    private static final ValueLayout.OfInt IL = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LL = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Any integer type or PRED: products summed in a long that wraps, written back wrapped to the width. */
    static void integer(DType t, MemorySegment a, MemorySegment b, MemorySegment c, long m, long k, int n, long lo, long hi) {
        long[] acc = new long[n];
        for (long row = lo; row < hi; row++) {
            Arrays.fill(acc, 0L);
            long aRow = row * k;
            long bBase = row / m * k * n;
            for (long kk = 0; kk < k; kk++) {
                long av = HostElements.getLong(a, t, aRow + kk);
                if (av == 0) continue; // adding 0 changes nothing in wrapping arithmetic
                long bRow = bBase + kk * n;
                switch (t) {
                    case S32 -> { for (int j = 0; j < n; j++) acc[j] += av * b.getAtIndex(IL, bRow + j); }
                    case S64, U64 -> { for (int j = 0; j < n; j++) acc[j] += av * b.getAtIndex(LL, bRow + j); }
                    default -> { for (int j = 0; j < n; j++) acc[j] += av * HostElements.getLong(b, t, bRow + j); }
                }
            }
            long cRow = row * n;
            for (int j = 0; j < n; j++) HostElements.setLong(c, t, cRow + j, acc[j]);
        }
    }
}
