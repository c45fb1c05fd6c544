package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.spi.HostElements;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Fast rows of a batched row-major matmul {@code C[bt] = A[bt]·B[bt]} ({@code M×K·K×N}):
 * output rows {@code [lo, hi)}, where row {@code r} is batch {@code r / M}, row {@code r % M}.
 * The loop order is i-k-j: one row of C is accumulated in a heap array while the rows of B
 * stream past, so every output element sees {@code acc = fma(a[i,k], b[k,j], acc)} over
 * ascending k — the scalar oracle's exact sequence.
 */
final class MatmulRows {
    private MatmulRows() {}

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DL = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfInt IL = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LL = ValueLayout.JAVA_LONG_UNALIGNED;

    static void f32(MemorySegment a, MemorySegment b, MemorySegment c, long m, long k, int n, long lo, long hi) {
        float[] acc = new float[n];
        int upper = F.loopBound(n);
        for (long row = lo; row < hi; row++) {
            Arrays.fill(acc, 0f);
            long aRow = row * k;
            long bBase = row / m * k * n;
            for (long kk = 0; kk < k; kk++) {
                float av = a.getAtIndex(FL, aRow + kk);
                FloatVector va = FloatVector.broadcast(F, av);
                long bRow = (bBase + kk * n) * Float.BYTES;
                int j = 0;
                for (; j < upper; j += F.length()) {
                    FloatVector vb = FloatVector.fromMemorySegment(F, b, bRow + (long) j * Float.BYTES, ORDER);
                    va.fma(vb, FloatVector.fromArray(F, acc, j)).intoArray(acc, j);
                }
                for (; j < n; j++) acc[j] = Math.fma(av, b.get(FL, bRow + (long) j * Float.BYTES), acc[j]);
            }
            MemorySegment.copy(acc, 0, c, FL, row * n * Float.BYTES, n);
        }
    }

    static void f64(MemorySegment a, MemorySegment b, MemorySegment c, long m, long k, int n, long lo, long hi) {
        double[] acc = new double[n];
        int upper = D.loopBound(n);
        for (long row = lo; row < hi; row++) {
            Arrays.fill(acc, 0.0);
            long aRow = row * k;
            long bBase = row / m * k * n;
            for (long kk = 0; kk < k; kk++) {
                double av = a.getAtIndex(DL, aRow + kk);
                DoubleVector va = DoubleVector.broadcast(D, av);
                long bRow = (bBase + kk * n) * Double.BYTES;
                int j = 0;
                for (; j < upper; j += D.length()) {
                    DoubleVector vb = DoubleVector.fromMemorySegment(D, b, bRow + (long) j * Double.BYTES, ORDER);
                    va.fma(vb, DoubleVector.fromArray(D, acc, j)).intoArray(acc, j);
                }
                for (; j < n; j++) acc[j] = Math.fma(av, b.get(DL, bRow + (long) j * Double.BYTES), acc[j]);
            }
            MemorySegment.copy(acc, 0, c, DL, row * n * Double.BYTES, n);
        }
    }

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
