package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reductions, arg reductions and scans. The scalar oracle reads every element as a double
 * (floats) or a long (integers, raw bits; U64 compared unsigned), accumulates in that width
 * and converts once on write, so F32/F16/BF16 sums are rounded once. With vector kernels on,
 * sums, maxima and minima of F32/F64/S32/S64 over one contiguous run of axes go to
 * {@link VectorReductions}.
 */
final class ReductionKernels {
    private final Parallel parallel;
    private final EngineConfig config;

    ReductionKernels(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }

    // ---- reduce ---------------------------------------------------------------------------------

    Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) {
        Shape s = x.shape();
        long outCount = 1;
        boolean[] reduced = new boolean[s.rank()];
        for (int a : axes) reduced[a] = true;
        for (int i = 0; i < s.rank(); i++) if (!reduced[i]) outCount *= s.dim(i);
        HostBuffer result = HostBuffer.uninitialized(out.byteSize(outCount));
        if (outCount == 0) return result;
        if (config.vectorKernels()) {
            AxisSplit run = AxisSplit.aroundRun(s, axes);
            if (run != null && run.n() > 0
                    && VectorReductions.reduce(parallel, op, x.dtype(), HostBuffer.of(x.buffer()), run, result.segment())) {
                return result;
            }
        }
        oracleReduce(op, x, reduced, out, result.segment());
        return result;
    }

    private enum Family { FLOAT, INTEGER, TRUTH }

    private void oracleReduce(ReduceOp op, Operand x, boolean[] reduced, DType out, MemorySegment dst) {
        Shape s = x.shape();
        long[] strides = s.strides();
        int kept = 0;
        for (boolean r : reduced) if (!r) kept++;
        int[] keptDims = new int[kept], redDims = new int[s.rank() - kept];
        long[] keptStrides = new long[kept], redStrides = new long[s.rank() - kept];
        long redCount = 1, outCount = 1;
        for (int i = 0, k = 0, r = 0; i < s.rank(); i++) {
            if (reduced[i]) {
                redDims[r] = s.dim(i);
                redStrides[r++] = strides[i];
                redCount *= s.dim(i);
            } else {
                keptDims[k] = s.dim(i);
                keptStrides[k++] = strides[i];
                outCount *= s.dim(i);
            }
        }
        DType in = x.dtype();
        Family family = switch (op) {
            case ALL, ANY -> Family.TRUTH;
            case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN -> in.isFloat() ? Family.FLOAT : Family.INTEGER;
            case ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "is not a primitive reduction");
        };
        MemorySegment src = HostBuffer.of(x.buffer());
        long count = redCount;
        parallel.forRange(outCount, Math.max(1, count), (lo, hi) -> {
            Strides.Walker outer = new Strides.Walker(keptDims, keptStrides);
            Strides.Walker inner = new Strides.Walker(redDims, redStrides);
            outer.seek(lo);
            for (long i = lo; i < hi; i++) {
                long base = outer.offsets[0];
                inner.seek(0);
                switch (family) {
                    case FLOAT -> {
                        double acc = floatIdentity(op);
                        for (long r = 0; r < count; r++, inner.next()) {
                            acc = combine(op, acc, HostElements.getDouble(src, in, base + inner.offsets[0]));
                        }
                        HostElements.setDouble(dst, out, i, acc);
                    }
                    case INTEGER -> {
                        long acc = integerIdentity(op, in);
                        boolean u64 = in == DType.U64;
                        for (long r = 0; r < count; r++, inner.next()) {
                            acc = combine(op, acc, HostElements.getLong(src, in, base + inner.offsets[0]), u64);
                        }
                        HostElements.setLong(dst, out, i, acc);
                    }
                    case TRUTH -> {
                        boolean all = op == ReduceOp.ALL;
                        boolean acc = all;
                        for (long r = 0; r < count && acc == all; r++, inner.next()) {
                            acc = isTrue(src, in, base + inner.offsets[0]);
                        }
                        dst.set(ValueLayout.JAVA_BYTE, i, (byte) (acc ? 1 : 0));
                    }
                }
                outer.next();
            }
        });
    }

    static double floatIdentity(ReduceOp op) {
        return switch (op) {
            case SUM -> 0.0;
            case PRODUCT -> 1.0;
            case REDUCE_MAX -> Double.NEGATIVE_INFINITY;
            case REDUCE_MIN -> Double.POSITIVE_INFINITY;
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "has no float identity");
        };
    }

    static long integerIdentity(ReduceOp op, DType t) {
        return switch (op) {
            case SUM -> 0L;
            case PRODUCT -> 1L;
            case REDUCE_MAX -> t.isPred() ? 0L : t.minLong();
            case REDUCE_MIN -> t.maxLong();
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "has no integer identity");
        };
    }

    /** Math.max/min keep NaN and order -0.0 below 0.0, the same as the Vector API lanes. */
    private static double combine(ReduceOp op, double acc, double v) {
        return switch (op) {
            case SUM -> acc + v;
            case PRODUCT -> acc * v;
            case REDUCE_MAX -> Math.max(acc, v);
            case REDUCE_MIN -> Math.min(acc, v);
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "cannot combine");
        };
    }

    /** Sums and products wrap (two's complement is exact modulo the type width). */
    private static long combine(ReduceOp op, long acc, long v, boolean u64) {
        return switch (op) {
            case SUM -> acc + v;
            case PRODUCT -> acc * v;
            case REDUCE_MAX -> (u64 ? Long.compareUnsigned(v, acc) > 0 : v > acc) ? v : acc;
            case REDUCE_MIN -> (u64 ? Long.compareUnsigned(v, acc) < 0 : v < acc) ? v : acc;
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "cannot combine");
        };
    }

    /** Non-zero is true; NaN is non-zero. */
    private static boolean isTrue(MemorySegment src, DType t, long i) {
        if (t.isFloat()) {
            double v = HostElements.getDouble(src, t, i);
            return v != 0 || v != v;
        }
        return HostElements.getLong(src, t, i) != 0;
    }

    // ---- argmax / argmin ------------------------------------------------------------------------

    Buffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out) {
        boolean max = switch (op) {
            case ARGMAX -> true;
            case ARGMIN -> false;
            case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY, MEAN, LOG_SUM_EXP ->
                    throw new JBurnException(op.opName(), "is not an arg reduction");
        };
        AxisSplit split = AxisSplit.around(x.shape(), axis);
        long lines = split.lines();
        HostBuffer result = HostBuffer.uninitialized(out.byteSize(lines));
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = result.segment();
        DType in = x.dtype();
        parallel.forRange(lines, Math.max(1, split.n()), (lo, hi) -> {
            for (long line = lo; line < hi; line++) {
                long start = split.lineStart(line);
                long best = in.isFloat()
                        ? argFloat(src, in, start, split.n(), split.inner(), max, tieBreakHigh)
                        : argInteger(src, in, start, split.n(), split.inner(), max, tieBreakHigh);
                HostElements.setLong(dst, out, line, best);
            }
        });
        return result;
    }

    /**
     * As Nx's BinaryBackend: every NaN takes the lead (so the last NaN wins, whatever the tie
     * break), and once a NaN leads no number can replace it.
     */
    private static long argFloat(MemorySegment src, DType t, long start, long n, long stride, boolean max, boolean high) {
        long best = -1;
        double bestValue = 0;
        boolean nan = false;
        for (long k = 0; k < n; k++) {
            double v = HostElements.getDouble(src, t, start + k * stride);
            if (v != v) {
                best = k;
                nan = true;
            } else if (!nan && (best < 0 || better(Double.compare(v == 0 ? 0.0 : v, bestValue == 0 ? 0.0 : bestValue), max, high))) {
                best = k;
                bestValue = v;
            }
        }
        return best;
    }

    private static long argInteger(MemorySegment src, DType t, long start, long n, long stride, boolean max, boolean high) {
        boolean u64 = t == DType.U64;
        long best = -1, bestValue = 0;
        for (long k = 0; k < n; k++) {
            long v = HostElements.getLong(src, t, start + k * stride);
            if (best < 0 || better(u64 ? Long.compareUnsigned(v, bestValue) : Long.compare(v, bestValue), max, high)) {
                best = k;
                bestValue = v;
            }
        }
        return best;
    }

    private static boolean better(int cmp, boolean max, boolean high) {
        return max ? (high ? cmp >= 0 : cmp > 0) : (high ? cmp <= 0 : cmp < 0);
    }

    // ---- cumulative -----------------------------------------------------------------------------

    /** Lines along the scan axis are processed in tiles of this many neighbours, for locality. */
    private static final int SCAN_TILE = 1024;

    Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) {
        DType t = x.dtype();
        AxisSplit split = AxisSplit.around(x.shape(), axis);
        HostBuffer result = HostBuffer.uninitialized(t.byteSize(x.size()));
        if (x.size() == 0) return result;
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = result.segment();
        long tiles = (split.inner() + SCAN_TILE - 1) / SCAN_TILE;
        parallel.forRange(split.outer() * tiles, split.n() * Math.min(SCAN_TILE, split.inner()), (lo, hi) -> {
            for (long task = lo; task < hi; task++) {
                long o = task / tiles;
                long i0 = (task % tiles) * SCAN_TILE;
                int w = (int) Math.min(SCAN_TILE, split.inner() - i0);
                long base = o * split.n() * split.inner() + i0;
                if (t.isFloat()) scanFloat(op, src, dst, t, base, split.n(), split.inner(), w, reverse);
                else scanInteger(op, src, dst, t, base, split.n(), split.inner(), w, reverse);
            }
        });
        return result;
    }

    /**
     * Float scans run in the type's own arithmetic: F64 in double, the narrower floats in float
     * (double arithmetic rounded to float after every step equals float arithmetic). The first
     * element starts each scan, so a leading -0.0 is kept.
     */
    private static void scanFloat(CumulativeOp op, MemorySegment src, MemorySegment dst, DType t,
                                  long base, long n, long stride, int w, boolean reverse) {
        boolean f64 = t == DType.F64;
        double[] acc = new double[w];
        for (long step = 0; step < n; step++) {
            long k = reverse ? n - 1 - step : step;
            long row = base + k * stride;
            for (int j = 0; j < w; j++) {
                double v = HostElements.getDouble(src, t, row + j);
                double a = step == 0 ? v : switch (op) {
                    case CUMULATIVE_SUM -> acc[j] + v;
                    case CUMULATIVE_PRODUCT -> acc[j] * v;
                    case CUMULATIVE_MAX -> Math.max(acc[j], v);
                    case CUMULATIVE_MIN -> Math.min(acc[j], v);
                };
                acc[j] = f64 ? a : (float) a;
                HostElements.setDouble(dst, t, row + j, acc[j]);
            }
        }
    }

    private static void scanInteger(CumulativeOp op, MemorySegment src, MemorySegment dst, DType t,
                                    long base, long n, long stride, int w, boolean reverse) {
        boolean u64 = t == DType.U64;
        long[] acc = new long[w];
        for (long step = 0; step < n; step++) {
            long k = reverse ? n - 1 - step : step;
            long row = base + k * stride;
            for (int j = 0; j < w; j++) {
                long v = HostElements.getLong(src, t, row + j);
                acc[j] = step == 0 ? v : switch (op) {
                    case CUMULATIVE_SUM -> acc[j] + v;
                    case CUMULATIVE_PRODUCT -> acc[j] * v;
                    case CUMULATIVE_MAX -> (u64 ? Long.compareUnsigned(v, acc[j]) > 0 : v > acc[j]) ? v : acc[j];
                    case CUMULATIVE_MIN -> (u64 ? Long.compareUnsigned(v, acc[j]) < 0 : v < acc[j]) ? v : acc[j];
                };
                HostElements.setLong(dst, t, row + j, acc[j]);
            }
        }
    }
}
