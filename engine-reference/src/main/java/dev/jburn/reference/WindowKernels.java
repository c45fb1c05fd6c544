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
        HostBuffer result = HostBuffer.uninitialized(t.byteSize(outShape.size()));
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
        HostBuffer result = HostBuffer.uninitialized(t.byteSize(n));
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
        if (fast && t == DType.F32 && x.dtype() == DType.F32) {
            fastScatterF32(g, lead, HostBuffer.of(x.buffer()), HostBuffer.of(source.buffer()), initSeg.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, 0), max, dst, n);
            return result;
        }
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

    /**
     * {@code select(x > 0, windowScatterMax(x, source, +0), +0)} for F32 {@code x} and {@code source}, in one pass, where the
     * channels-last scatter applies (disjoint windows, at least 8 channels a position): the ReLU's gradient is decided by
     * the value each window selects ({@link ReluGatedScatters}); {@code null} elsewhere (the caller runs the two ops).
     */
    Buffer reluGatedScatterMax(Operand x, Operand source, WindowSpec spec) {
        if (!fast || x.dtype() != DType.F32 || source.dtype() != DType.F32 || x.size() > Integer.MAX_VALUE - 8) return null;
        WindowGeometry g = new WindowGeometry(x.shape(), spec);
        ChannelScatterGeometry cg = channelScatter(g, WindowGeometry.trivialLeadingAxes(spec), x.size());
        if (cg.inner < 8 || cg.planes == 0 || !disjointWindows(g)) return null;
        HostBuffer result = HostBuffer.uninitialized(x.size() * Float.BYTES);
        MemorySegment xs = HostBuffer.of(x.buffer()), src = HostBuffer.of(source.buffer()), dst = result.segment();
        run(cg.planes, cg.perPlane * cg.inner * g.windowSize, (lo, hi) -> ChannelScatterF32.planes(g, cg.posDims, lo, hi, cg.perPlane,
                cg.inner, cg.inPlane, xs, src, dst, true, true));
        return result;
    }

    /** The channels-last split of a scatter's windows: {@code planes} of {@code perPlane} positions over {@code posDims}, {@code inner} channels each. */
    private record ChannelScatterGeometry(long planes, long perPlane, int[] posDims, int inner, int inPlane) {}

    /**
     * {@link ChannelScatterGeometry} for {@code g}: trailing axes whose windows are trivial (channels last) form an inner run
     * of contiguous elements that share one list of window offsets; positions are the windows of the axes before them.
     */
    private static ChannelScatterGeometry channelScatter(WindowGeometry g, int lead, long n) {
        int trail = g.rank;
        long inner = 1;
        while (trail > lead && g.winDims[trail - 1] == 1 && g.outDims[trail - 1] == g.inDims[trail - 1]
                && g.index(trail - 1, 0, 0) == 0 && isIdentity(g, trail - 1)) {
            trail--;
            inner *= g.inDims[trail];
        }
        long planes = 1, perPlane = 1;
        for (int a = 0; a < g.rank; a++) {
            if (a < lead) planes *= g.outDims[a];
            else if (a < trail) perPlane *= g.outDims[a];
        }
        int[] posDims = java.util.Arrays.copyOf(g.outDims, g.rank);
        for (int a = trail; a < g.rank; a++) posDims[a] = 1;
        return new ChannelScatterGeometry(planes, perPlane, posDims, (int) Math.min(inner, Integer.MAX_VALUE), planes == 0 ? 0 : (int) (n / planes));
    }

    /**
     * The F32 scatter with the window geometry worked out once per window position: trailing axes
     * whose windows are trivial (channels last) form an inner run of {@code inner} contiguous
     * elements that share one list of window offsets; the selection and accumulation are those of
     * {@link Scatter} (same order, ties and NaN rule, exact double sums rounded once).
     */
    private void fastScatterF32(WindowGeometry g, int lead, MemorySegment x, MemorySegment source, float init, boolean max,
                                MemorySegment dst, long n) {
        ChannelScatterGeometry cg = channelScatter(g, lead, n);
        long planes = cg.planes, perPlane = cg.perPlane, inner = cg.inner;
        int[] posDims = cg.posDims;
        java.lang.foreign.ValueLayout.OfFloat fl = java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
        if (Float.floatToRawIntBits(init) == 0 && disjointWindows(g)) {
            // Every input element gets at most one source value: no sums, so no double accumulator
            // (an n-element array to allocate, fill and convert); 0 + v rounds as the double sum does.
            if (inner >= 8) { // channels last: a vector of channels per window, a plane at a time
                this.run(planes, perPlane * inner * g.windowSize, (lo, hi) -> ChannelScatterF32.planes(g, posDims, lo, hi, perPlane, cg.inner,
                        cg.inPlane, x, source, dst, max, false));
                return;
            }
            dst.fill((byte) 0);
            scatterWindows(g, posDims, planes, perPlane, inner, x, max, (best, w) -> dst.setAtIndex(fl, best, 0f + source.getAtIndex(fl, w)));
            return;
        }
        double[] acc = new double[(int) n];
        Arrays.fill(acc, init);
        scatterWindows(g, posDims, planes, perPlane, inner, x, max, (best, w) -> acc[(int) best] += source.getAtIndex(fl, w));
        parallel.forRange(n, 1, (lo, hi) -> {
            for (long i = lo; i < hi; i++) dst.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) acc[(int) i]);
        });
    }

    /** Takes source element {@code w} for the selected input element {@code best}. */
    @FunctionalInterface
    private interface Pick {
        void at(long best, long w);
    }

    /**
     * For every window position of planes (one per run of {@code inner} channels): the selected
     * element of each channel's window, handed to {@code pick} with its source element.
     */
    private void scatterWindows(WindowGeometry g, int[] posDims, long planes, long perPlane, long inner, MemorySegment x,
                                boolean max, Pick pick) {
        forPositions(g, posDims, planes, perPlane, inner, (offs, cnt, w0) -> {
            for (long c = 0; c < inner; c++) pick.at(selectF32(x, offs, cnt, c, max), w0 + c);
        });
    }

    /** One window position: its input offsets {@code offs[0..cnt)} ({@code cnt > 0}) and its first source element {@code w0}. */
    @FunctionalInterface
    private interface PositionBody {
        void at(long[] offs, int cnt, long w0);
    }

    /** Every window position of planes (one per run of {@code inner} channels), in parallel over planes. */
    private void forPositions(WindowGeometry g, int[] posDims, long planes, long perPlane, long inner, PositionBody body) {
        run(planes, perPlane * inner * g.windowSize, (lo, hi) -> {
            int[] coord = new int[g.rank];
            int[] k = new int[g.rank];
            long[] offs = new long[(int) g.windowSize];
            WindowGeometry.seek(coord, posDims, lo * perPlane);
            for (long pos = lo * perPlane; pos < hi * perPlane; pos++) {
                int cnt = g.offsets(coord, k, offs);
                if (cnt > 0) body.at(offs, cnt, pos * inner);
                WindowGeometry.next(coord, posDims);
            }
        });
    }

    /** The selected element of window {@code offs[0..cnt)} (each + {@code c}): {@link Scatter}'s order, ties and NaN rule. */
    private static long selectF32(MemorySegment x, long[] offs, int cnt, long c, boolean max) {
        long best = offs[0] + c;
        float bv = x.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, best);
        for (int j = 1; j < cnt; j++) {
            long off = offs[j] + c;
            float v = x.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, off);
            if (v != v || (bv == bv && (max ? v >= bv : v <= bv))) {
                best = off;
                bv = v;
            }
        }
        return best;
    }

    /** Whether no two windows share an input element: along every axis, window {@code o} starts past window {@code o-1}'s end. */
    private static boolean disjointWindows(WindowGeometry g) {
        for (int a = 0; a < g.rank; a++) {
            int wd = g.winDims[a];
            for (int o = 1; o < g.outDims[a]; o++) {
                int prevMax = -1, curMin = Integer.MAX_VALUE;
                for (int k = 0; k < wd; k++) {
                    prevMax = Math.max(prevMax, g.index(a, o - 1, k));
                    int i = g.index(a, o, k);
                    if (i >= 0) curMin = Math.min(curMin, i);
                }
                if (curMin <= prevMax) return false;
            }
        }
        return true;
    }

    /** Whether the window along {@code axis} (of size 1) maps output index {@code o} to input index {@code o}. */
    private static boolean isIdentity(WindowGeometry g, int axis) {
        for (int o = 0; o < g.outDims[axis]; o++) if (g.index(axis, o, 0) != o) return false;
        return true;
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
