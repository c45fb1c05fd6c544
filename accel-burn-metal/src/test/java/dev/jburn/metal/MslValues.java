package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.spi.HostElements;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;

/** Kernel inputs: edge values first (±0, ±Inf, NaN, subnormals, type extremes), then random ones; or few tied values. */
final class MslValues {
    private static final double[] FLOAT_EDGES = {0.0, -0.0, 1, -1, 0.5, -0.5, 1.5, -2.5, 2.5, 3, -7, 1e-3, 100, 65504, -65504, 65520,
            1e30, -1e30, 3.4e38, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Float.MIN_VALUE, 1e-42,
            6e-8, 0.9999, 2.0000001, 2147483648.0, -2147483649.0, 9.3e18, -9.3e18, 4294967296.0};
    private static final long[] INT_EDGES = {0, 1, -1, 2, -2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 127, 128, -128, -129, 255, 256,
            32767, -32768, 65535, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFFFFFFL, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 53};
    private static final double[] FLOAT_TIES = {0.0, -0.0, 1, -1, 0.5, 2, 2, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    private static final long[] INT_TIES = {0, 1, -1, 3, 5, 5, 7, -128, 127, 1000};

    private MslValues() {}

    /** {@code n} elements of {@code t}: the edge values, then random ones of every magnitude. */
    static MemorySegment edges(Arena a, DType t, long n, Random r) {
        MemorySegment m = a.allocate(Math.max(1, n) * t.byteSize(), 16);
        for (int i = 0; i < n; i++) {
            if (t.isFloat()) {
                HostElements.setDouble(m, t, i, i < FLOAT_EDGES.length ? FLOAT_EDGES[i] : (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(9) - 4));
            } else if (t.isPred()) {
                HostElements.setLong(m, t, i, r.nextInt(2));
            } else {
                HostElements.setLong(m, t, i, i < INT_EDGES.length ? INT_EDGES[i] : r.nextLong() >> r.nextInt(64));
            }
        }
        return m;
    }

    /** {@code n} elements from few values, so ties, NaN and both zeros are common and sums stay small. */
    static MemorySegment tied(Arena a, DType t, long n, Random r) {
        MemorySegment m = a.allocate(Math.max(1, n) * t.byteSize(), 16);
        for (int i = 0; i < n; i++) {
            if (t.isFloat()) HostElements.setDouble(m, t, i, FLOAT_TIES[r.nextInt(FLOAT_TIES.length)]);
            else if (t.isPred()) HostElements.setLong(m, t, i, r.nextInt(2));
            else HostElements.setLong(m, t, i, INT_TIES[r.nextInt(INT_TIES.length)]);
        }
        return m;
    }

    /**
     * Where {@code got} and {@code expected} (both {@code n} elements of {@code t}) differ, or null: bit for bit (any NaN
     * matches any NaN), or within a relative tolerance per dtype when {@code approx}.
     */
    static String firstDifference(DType t, MemorySegment got, MemorySegment expected, long n, boolean approx) {
        for (int i = 0; i < n; i++) {
            if (t.isFloat()) {
                double g = HostElements.getDouble(got, t, i), e = HostElements.getDouble(expected, t, i);
                boolean ok;
                if (Double.isNaN(g) || Double.isNaN(e)) ok = Double.isNaN(g) && Double.isNaN(e);
                else if (!approx) ok = Double.doubleToRawLongBits(g) == Double.doubleToRawLongBits(e);
                else {
                    double tol = t == DType.F32 ? 1e-5 : 1e-2;
                    ok = g == e || Math.abs(g - e) <= tol * Math.abs(e) || (Math.abs(e) < 1e-30 && Math.abs(g) < 1e-30);
                }
                if (!ok) return "element " + i + ": kernel " + g + ", cpu engine " + e;
            } else {
                long g = HostElements.getLong(got, t, i), e = HostElements.getLong(expected, t, i);
                if (g != e) return "element " + i + ": kernel " + g + ", cpu engine " + e;
            }
        }
        return null;
    }
}
