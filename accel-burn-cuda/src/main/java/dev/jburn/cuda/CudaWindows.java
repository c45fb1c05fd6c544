package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Window reductions ({@link WindowPlan}) and window scatters ({@link WindowScatterKernels}) on the
 * GPU; each returns null where it has no kernel, and the backend falls back.
 */
final class CudaWindows {
    private final CudaBackend backend;

    CudaWindows(CudaBackend backend) { this.backend = backend; }

    /** Window sums, products, maxima and minima as identity padding, a strided gather of the windows and a generated reduction ({@link WindowPlan}). */
    Buffer reduce(WindowOp op, Operand x, WindowSpec spec) {
        Buffer direct = extreme(op, x, spec);
        return direct != null ? direct : planned(op, x, spec);
    }

    /** {@link #reduce} through {@link WindowPlan} (padding, a strided gather, a generated reduction), or null. */
    Buffer planned(WindowOp op, Operand x, WindowSpec spec) {
        WindowPlan plan = WindowPlan.covers(op, x.dtype()) ? WindowPlan.of(x.shape(), spec) : null;
        if (plan == null) return null;
        DType t = x.dtype();
        int es = t.byteSize();
        boolean padding = false;
        for (int i = 0; i < plan.padLo().length; i++) padding |= plan.padLo()[i] != 0 || plan.padHi()[i] != 0;
        Buffer identity = null, padded = null, windows = null, result = null;
        try (var _ = backend.device().enter(); Arena a = Arena.ofConfined()) {
            Operand src = x;
            if (padding) {
                MemorySegment bits = a.allocate(8);
                bits.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0, WindowPlan.identityBits(op, t));
                identity = backend.upload(bits.asSlice(0, es));
                padded = backend.pad(x, new Operand(identity, t, Shape.of()), plan.padLo(), plan.padHi(), new int[plan.padLo().length]);
                src = new Operand(padded, t, plan.padded());
            }
            windows = backend.gatherView(src, plan.windows(), op.opName());
            result = backend.generated().reduce(WindowPlan.reduction(op), new Operand(windows, t, Shape.of(plan.windows().dims())), plan.reduceAxes(), t);
        } finally {
            // Stream order makes releasing the temporaries safe before the kernels have run (see CachingAllocator).
            for (Buffer b : new Buffer[] {identity, padded, windows}) if (b != null) b.release();
        }
        return result;
    }

    /** Window maxima and minima in one pass ({@link WindowExtremeKernels}), or null where that kernel does not apply. */
    Buffer extreme(WindowOp op, Operand x, WindowSpec spec) {
        if (op != WindowOp.WINDOW_MAX && op != WindowOp.WINDOW_MIN) return null;
        DType t = x.dtype();
        int rank = x.shape().rank();
        long n = x.size();
        if (!WindowExtremeKernels.covers(t) || rank == 0 || rank > StridedView.MAX_RANK || n == 0) return null;
        WindowGeometry g = WindowGeometry.of(x.shape(), spec);
        long[] in = g.in(), win = g.win(), st = g.st(), dil = g.dil(), lo = g.lo(), outDims = g.outDims();
        long windowSize = g.windowSize(), windows = g.windows();
        if (windows == 0 || windowSize > WindowExtremeKernels.MAX_WINDOW || !g.fits32(n)) {
            return null;
        }
        try (var _ = backend.device().enter(); Arena a = Arena.ofConfined()) {
            CudaBuffer out = backend.newBuffer(t.byteSize(windows), op.opName());
            try {
                boolean max = op == WindowOp.WINDOW_MAX;
                if (g.unpadded()) {
                    backend.launch(WindowExtremeKernels.unpadded(t, max), WindowExtremeKernels.UNPADDED_ENTRY, LineKernels.blocks(windows),
                            LineKernels.THREADS, 0, new KernelArgs(a).pointer(CudaBackend.ptr(x)).pointer(out.pointer()).i32((int) windows).i32(rank)
                                    .ints(FastDivisors.struct(outDims)).ints(FastDivisors.ints(g.windowSteps())).ints(FastDivisors.ints(g.positionSteps()))
                                    .ints(FastDivisors.ints(win)).i32((int) windowSize),
                            op.opName());
                } else {
                    backend.launch(WindowExtremeKernels.source(t, max), WindowExtremeKernels.ENTRY, LineKernels.blocks(windows),
                            LineKernels.THREADS, 0, new KernelArgs(a).pointer(CudaBackend.ptr(x)).pointer(out.pointer()).i32((int) windows).i32(rank)
                                    .ints(FastDivisors.struct(in)).ints(FastDivisors.struct(outDims)).ints(FastDivisors.struct(win))
                                    .ints(FastDivisors.ints(st)).ints(FastDivisors.ints(dil)).ints(FastDivisors.ints(lo)).i32((int) windowSize),
                            op.opName());
                }
            } catch (RuntimeException ex) {
                out.release();
                throw ex;
            }
            return out;
        }
    }

    /**
     * F16/BF16 scatters (max-pool gradients under mixed precision) through F64 on the device: the widening casts are
     * exact, the F64 kernel selects the same elements and sums exactly as the cpu engine does in double, and the one
     * cast back rounds once, so the result equals the cpu engine's bit for bit, with no trip to the host.
     */
    private Buffer scatterViaF64(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        DType t = source.dtype();
        Buffer wx = null, ws = null, wi = null, r = null;
        try {
            Operand x64 = x.dtype() == DType.F16 || x.dtype() == DType.BF16
                    ? new Operand(wx = backend.cast(x, DType.F64), DType.F64, x.shape()) : x;
            Operand s64 = new Operand(ws = backend.cast(source, DType.F64), DType.F64, source.shape());
            Operand i64 = new Operand(wi = backend.cast(init, DType.F64), DType.F64, init.shape());
            r = scatter(op, x64, s64, i64, spec);
            if (r == null) return null;
            return backend.cast(new Operand(r, DType.F64, x.shape()), t);
        } finally {
            // Stream order makes releasing the temporaries safe before the kernels have run (see CachingAllocator).
            for (Buffer b : new Buffer[] {wx, ws, wi, r}) if (b != null) b.release();
        }
    }

    /** Window scatters as a selecting kernel and an accumulating kernel ({@link WindowScatterKernels}), in the cpu engine's order. */
    Buffer scatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        return scatter(op, x, source, init, spec, true);
    }

    /** {@link #scatter}, taking the one-pass kernel for disjoint windows only when {@code disjointKernel} (false: for A/B timing). */
    Buffer scatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec, boolean disjointKernel) {
        boolean max = switch (op) {
            case WINDOW_SCATTER_MAX -> true;
            case WINDOW_SCATTER_MIN -> false;
            case WINDOW_SUM, WINDOW_PRODUCT, WINDOW_MAX, WINDOW_MIN -> {
                throw new dev.jburn.JBurnException(op.opName(), "is not a window scatter");
            }
        };
        int rank = x.shape().rank();
        DType t = source.dtype();
        if ((t == DType.F16 || t == DType.BF16) && rank > 0 && rank <= StridedView.MAX_RANK) return scatterViaF64(op, x, source, init, spec);
        if (!WindowScatterKernels.covers(t) || rank == 0 || rank > StridedView.MAX_RANK) return null;
        WindowGeometry g = WindowGeometry.of(x.shape(), spec);
        long[] in = g.in(), win = g.win(), st = g.st(), dil = g.dil(), lo = g.lo(), outDims = g.outDims();
        long windowSize = g.windowSize(), windows = g.windows();
        long n = x.size();
        try (var _ = backend.device().enter(); Arena a = Arena.ofConfined()) {
            CudaBuffer out = backend.newBuffer(t.byteSize(n), op.opName());
            if (n == 0) return out;
            if (disjointKernel && WindowScatterKernels.isDisjoint(win, st, dil, windowSize) && g.fits32(n) && g.loOffset() < (1L << 29)) {
                boolean padded = !g.unpadded();
                try {
                    if (!g.tiles()) {
                        backend.launch(WindowScatterKernels.fill(t), WindowScatterKernels.FILL_ENTRY, LineKernels.blocks(n), LineKernels.THREADS, 0,
                                new KernelArgs(a).pointer(CudaBackend.ptr(init)).pointer(out.pointer()).i32((int) n), op.opName());
                    }
                    if (windows > 0) {
                        KernelArgs args = new KernelArgs(a).pointer(CudaBackend.ptr(x)).pointer(CudaBackend.ptr(source)).pointer(CudaBackend.ptr(init))
                                .pointer(out.pointer()).i32((int) windows).i32(rank).ints(FastDivisors.struct(outDims))
                                .ints(FastDivisors.ints(g.windowSteps())).ints(FastDivisors.ints(g.positionSteps())).ints(FastDivisors.ints(win))
                                .i32((int) windowSize);
                        if (padded) args.ints(FastDivisors.ints(st)).ints(FastDivisors.ints(lo)).ints(FastDivisors.ints(in)).i32((int) g.loOffset());
                        backend.launch(WindowScatterKernels.tiled(x.dtype(), t, max, padded), WindowScatterKernels.TILED_ENTRY, LineKernels.blocks(windows),
                                LineKernels.THREADS, 0, args, op.opName());
                    }
                } catch (RuntimeException ex) {
                    out.release();
                    throw ex;
                }
                return out;
            }
            CudaBuffer sel = backend.newBuffer(windows * 8, op.opName());
            try {
                if (g.fits32(n)) {
                    if (windows > 0) {
                        backend.launch(WindowScatterKernels.select32(x.dtype(), max), WindowScatterKernels.SELECT32_ENTRY, LineKernels.blocks(windows),
                                LineKernels.THREADS, 0, new KernelArgs(a).pointer(CudaBackend.ptr(x)).pointer(sel.pointer()).i32((int) windows).i32(rank)
                                        .ints(FastDivisors.struct(in)).ints(FastDivisors.struct(outDims)).ints(FastDivisors.struct(win))
                                        .ints(FastDivisors.ints(st)).ints(FastDivisors.ints(dil)).ints(FastDivisors.ints(lo)).i32((int) windowSize),
                                op.opName());
                    }
                    backend.launch(WindowScatterKernels.scatter32(t), WindowScatterKernels.SCATTER32_ENTRY, LineKernels.blocks(n), LineKernels.THREADS, 0,
                            new KernelArgs(a).pointer(CudaBackend.ptr(source)).pointer(CudaBackend.ptr(init)).pointer(sel.pointer()).pointer(out.pointer())
                                    .i32((int) n).i32(rank).ints(FastDivisors.struct(in)).ints(FastDivisors.ints(outDims)).ints(FastDivisors.struct(win))
                                    .ints(FastDivisors.struct(st)).ints(FastDivisors.ints(dil)).ints(FastDivisors.ints(lo)).i32((int) windowSize),
                            op.opName());
                    return out;
                }
                if (windows > 0) {
                    backend.launch(WindowScatterKernels.select(x.dtype(), max), WindowScatterKernels.SELECT_ENTRY, LineKernels.blocks(windows),
                            LineKernels.THREADS, 0, new KernelArgs(a).pointer(CudaBackend.ptr(x)).pointer(sel.pointer()).i64(windows).i32(rank)
                                    .longs(StridedView.padded(in)).longs(StridedView.padded(outDims)).longs(StridedView.padded(win))
                                    .longs(StridedView.padded(st)).longs(StridedView.padded(dil)).longs(StridedView.padded(lo)).i64(windowSize),
                            op.opName());
                }
                backend.launch(WindowScatterKernels.scatter(t), WindowScatterKernels.SCATTER_ENTRY, LineKernels.blocks(n), LineKernels.THREADS, 0,
                        new KernelArgs(a).pointer(CudaBackend.ptr(source)).pointer(CudaBackend.ptr(init)).pointer(sel.pointer()).pointer(out.pointer()).i64(n).i32(rank)
                                .longs(StridedView.padded(in)).longs(StridedView.padded(outDims)).longs(StridedView.padded(win))
                                .longs(StridedView.padded(st)).longs(StridedView.padded(dil)).longs(StridedView.padded(lo)).i64(windowSize),
                        op.opName());
            } catch (RuntimeException ex) {
                out.release();
                throw ex;
            } finally {
                sel.release();
            }
            return out;
        }
    }
}
