package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Window reductions and window scatters. The oracle walks each window in row-major order
 * ({@link WindowGeometry}), accumulating floats in a double and integers in a wrapping long
 * (U64 compared unsigned), and rounds once on write. With vector kernels on, F32/F64 pooling
 * over the last two axes goes to {@link PoolingF32}/{@link PoolingF64}, and windows that leave
 * the trailing axes alone (channels last) to {@link ChannelPooling}.
 *
 * <p>Scatter: each window picks the position of its max (min) — the last one among ties, a NaN
 * over every number (the last NaN), never a padding position — and its source value is added
 * there; sums are exact in double (integers wrap) and rounded once, as Nx's BinaryBackend.
 */
final class WindowKernels {
    private final Parallel parallel;
    private final boolean fast;

    WindowKernels(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
        this.fast = config.vectorKernels();
    }

    // ---- reductions -----------------------------------------------------------------------------

    Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec) {
        ReduceOp red = op.reduction();
        DType t = x.dtype();
        Shape outShape = Shape.of(WindowGeometry.outputDims(x.shape(), spec));
        HostBuffer result = HostBuffer.uninitialized(outShape.size() * t.byteSize());
        if (outShape.size() == 0) return result;
        MemorySegment src = HostBuffer.of(x.buffer()), dst = result.segment();
        if (fast && (t == DType.F32 || t == DType.F64)) {
            PoolPlan plan = PoolPlan.of(x.shape(), spec);
            if (plan != null) {
                if (t == DType.F32) PoolingF32.run(red, src, dst, plan, parallel);
                else PoolingF64.run(red, src, dst, plan, parallel);
                return result;
            }
            ChannelPooling.Plan blocks = ChannelPooling.of(x.shape(), spec, 8);
            if (blocks != null) {
                if (t == DType.F32) ChannelPooling.f32(red, src, dst, blocks, parallel);
                else ChannelPooling.f64(red, src, dst, blocks, parallel);
                return result;
            }
        }
        oracleReduce(red, x, spec, outShape, src, dst);
        return result;
    }

    private void oracleReduce(ReduceOp op, Operand x, WindowSpec spec, Shape outShape, MemorySegment src, MemorySegment dst) {
        WindowGeometry g = new WindowGeometry(x.shape(), spec);
        DType t = x.dtype();
        boolean isFloat = t.isFloat(), u64 = t == DType.U64;
        int[] outDims = outShape.dims();
        parallel.forRange(outShape.size(), g.windowSize, (lo, hi) -> {
            int[] coord = new int[g.rank];
            WindowGeometry.seek(coord, outDims, lo);
            for (long i = lo; i < hi; i++) {
                if (isFloat) {
                    double acc = ReductionKernels.floatIdentity(op);
                    for (long k = 0; k < g.windowSize; k++) {
                        long off = g.offset(coord, k);
                        if (off >= 0) acc = combine(op, acc, HostElements.getDouble(src, t, off));
                    }
                    HostElements.setDouble(dst, t, i, acc);
                } else {
                    long acc = ReductionKernels.integerIdentity(op, t);
                    for (long k = 0; k < g.windowSize; k++) {
                        long off = g.offset(coord, k);
                        if (off >= 0) acc = combine(op, acc, HostElements.getLong(src, t, off), u64);
                    }
                    HostElements.setLong(dst, t, i, acc);
                }
                WindowGeometry.next(coord, outDims);
            }
        });
    }

    /** Math.max/min propagate NaN and order -0.0 below 0.0, as the vector lanes do. */
    private static double combine(ReduceOp op, double acc, double v) {
        return switch (op) {
            case SUM -> acc + v;
            case PRODUCT -> acc * v;
            case REDUCE_MAX -> Math.max(acc, v);
            case REDUCE_MIN -> Math.min(acc, v);
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "is not a window reduction");
        };
    }

    private static long combine(ReduceOp op, long acc, long v, boolean u64) {
        return switch (op) {
            case SUM -> acc + v;
            case PRODUCT -> acc * v;
            case REDUCE_MAX -> (u64 ? Long.compareUnsigned(v, acc) > 0 : v > acc) ? v : acc;
            case REDUCE_MIN -> (u64 ? Long.compareUnsigned(v, acc) < 0 : v < acc) ? v : acc;
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "is not a window reduction");
        };
    }

    // ---- scatter --------------------------------------------------------------------------------

    Buffer windowScatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        boolean max = switch (op) {
            case WINDOW_SCATTER_MAX -> true;
            case WINDOW_SCATTER_MIN -> false;
            case WINDOW_SUM, WINDOW_PRODUCT, WINDOW_MAX, WINDOW_MIN -> throw new JBurnException(op.opName(), "is not a window scatter");
        };
        long n = x.size();
        if (n > Integer.MAX_VALUE - 8) throw new JBurnException(op.opName(), "tensors of " + n + " elements are too large for the cpu engine");
        DType t = source.dtype();
        HostBuffer result = HostBuffer.uninitialized(n * t.byteSize());
        MemorySegment dst = result.segment();
        MemorySegment initSeg = HostBuffer.of(init.buffer());
        WindowGeometry g = new WindowGeometry(x.shape(), spec);
        int lead = WindowGeometry.trivialLeadingAxes(spec);
        long planes = 1, perPlane = 1;
        for (int a = 0; a < g.rank; a++) {
            if (a < lead) planes *= g.outDims[a];
            else perPlane *= g.outDims[a];
        }
        // Windows never leave their plane, so planes can accumulate in parallel without races.
        Scatter s = new Scatter(g, x.dtype(), HostBuffer.of(x.buffer()), t, HostBuffer.of(source.buffer()), max, perPlane);
        if (t.isFloat()) {
            double[] acc = new double[(int) n];
            Arrays.fill(acc, HostElements.getDouble(initSeg, t, 0));
            run(planes, perPlane * g.windowSize, (lo, hi) -> s.floats(acc, lo, hi));
            parallel.forRange(n, 2, (lo, hi) -> { for (long i = lo; i < hi; i++) HostElements.setDouble(dst, t, i, acc[(int) i]); });
        } else {
            long[] acc = new long[(int) n];
            Arrays.fill(acc, HostElements.getLong(initSeg, t, 0));
            run(planes, perPlane * g.windowSize, (lo, hi) -> s.integers(acc, lo, hi));
            parallel.forRange(n, 2, (lo, hi) -> { for (long i = lo; i < hi; i++) HostElements.setLong(dst, t, i, acc[(int) i]); });
        }
        return result;
    }

    private void run(long planes, long cost, Parallel.RangeBody body) {
        if (fast) parallel.forRange(planes, cost, body);
        else body.run(0, planes);
    }

    /** Selection and accumulation for the windows of planes {@code [lo, hi)}. */
    private record Scatter(WindowGeometry g, DType xt, MemorySegment x, DType t, MemorySegment source, boolean max, long perPlane) {
        void floats(double[] acc, long lo, long hi) {
            int[] coord = new int[g.rank];
            WindowGeometry.seek(coord, g.outDims, lo * perPlane);
            for (long w = lo * perPlane; w < hi * perPlane; w++) {
                long at = select(coord);
                if (at >= 0) acc[(int) at] += HostElements.getDouble(source, t, w);
                WindowGeometry.next(coord, g.outDims);
            }
        }

        void integers(long[] acc, long lo, long hi) {
            int[] coord = new int[g.rank];
            WindowGeometry.seek(coord, g.outDims, lo * perPlane);
            for (long w = lo * perPlane; w < hi * perPlane; w++) {
                long at = select(coord);
                if (at >= 0) acc[(int) at] += HostElements.getLong(source, t, w);
                WindowGeometry.next(coord, g.outDims);
            }
        }

        /** Offset of the selected element of the window at {@code coord}, or -1 when the window is all padding. */
        private long select(int[] coord) {
            long best = -1;
            if (xt.isFloat()) {
                double bv = 0;
                for (long k = 0; k < g.windowSize; k++) {
                    long off = g.offset(coord, k);
                    if (off < 0) continue;
                    double v = HostElements.getDouble(x, xt, off);
                    if (best < 0 || Double.isNaN(v) || (!Double.isNaN(bv) && (max ? v >= bv : v <= bv))) {
                        best = off;
                        bv = v;
                    }
                }
            } else {
                boolean u64 = xt == DType.U64;
                long bv = 0;
                for (long k = 0; k < g.windowSize; k++) {
                    long off = g.offset(coord, k);
                    if (off < 0) continue;
                    long v = HostElements.getLong(x, xt, off);
                    int c = u64 ? Long.compareUnsigned(v, bv) : Long.compare(v, bv);
                    if (best < 0 || (max ? c >= 0 : c <= 0)) {
                        best = off;
                        bv = v;
                    }
                }
            }
            return best;
        }
    }
}
