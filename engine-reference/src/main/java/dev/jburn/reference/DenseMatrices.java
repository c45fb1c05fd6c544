package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.spi.HostElements;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Moves matrices between tensor memory (any float dtype) and the {@code double[]} work arrays the
 * linear-algebra kernels compute in. Every float type is computed in double; F32, F16 and BF16
 * round to nearest even once, on write.
 */
final class DenseMatrices {
    private DenseMatrices() {}

    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** Elements {@code [offset, offset + count)} of {@code s} as doubles. */
    static double[] read(MemorySegment s, DType t, long offset, int count) {
        double[] out = new double[count];
        switch (t) {
            case F64 -> MemorySegment.copy(s, D, offset * 8, out, 0, count);
            case F32 -> {
                for (int i = 0; i < count; i++) out[i] = s.getAtIndex(F, offset + i);
            }
            default -> {
                for (int i = 0; i < count; i++) out[i] = HostElements.getDouble(s, t, offset + i);
            }
        }
        return out;
    }

    /** Writes {@code v[0, count)} to elements {@code [offset, offset + count)} of {@code s}, rounding to {@code t}. */
    static void write(MemorySegment s, DType t, long offset, double[] v, int count) {
        switch (t) {
            case F64 -> MemorySegment.copy(v, 0, s, D, offset * 8, count);
            case F32 -> {
                for (int i = 0; i < count; i++) s.setAtIndex(F, offset + i, (float) v[i]);
            }
            default -> {
                for (int i = 0; i < count; i++) HostElements.setDouble(s, t, offset + i, v[i]);
            }
        }
    }

    /** Writes the lower triangle of the {@code n × n} row-major {@code v}, with zeros above the diagonal. */
    static void writeLower(MemorySegment s, DType t, long offset, double[] v, int n) {
        double[] row = new double[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(v, i * n, row, 0, i + 1);
            java.util.Arrays.fill(row, i + 1, n, 0.0);
            write(s, t, offset + (long) i * n, row, n);
        }
    }

    /** The transpose of the {@code rows × cols} row-major {@code v} (also turns column-major into row-major). */
    static double[] transpose(double[] v, int rows, int cols) {
        double[] out = new double[v.length];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) out[j * rows + i] = v[i * cols + j];
        }
        return out;
    }

    /** Scale {@code 2^-e} (exact) that brings the largest finite magnitude near 1; 1 for zero or non-finite data. */
    static double powerOfTwoScale(double[] v) {
        double max = 0;
        for (double x : v) max = Math.max(max, Math.abs(x));
        if (max == 0 || !Double.isFinite(max)) return 1;
        return Math.scalb(1.0, -Math.getExponent(max));
    }

    /** True when every element is finite. */
    static boolean allFinite(double[] v) {
        for (double x : v) if (!Double.isFinite(x)) return false;
        return true;
    }
}
