package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.KernelSource;
import dev.jburn.kernels.SliceLayout;
import dev.jburn.op.ReduceOp;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Gather, indexed add/put and argmax/argmin on the GPU ({@link MslIndexing}'s kernels). Indices are
 * checked on the host before the dispatch (shared storage: the CPU reads the buffer the GPU will): an
 * index out of range returns {@code null}, and the cpu engine raises its exact error, counted as a
 * fallback. Every method also returns {@code null} where the types have no kernel or the 32-bit
 * indices do not reach; operands are checked by the backend first ({@link MetalChecks}).
 */
final class MetalIndexing {
    private static final long LIMIT = Integer.MAX_VALUE;

    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalIndexing(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    /** Whether every index row of {@code indices} ({@code [rows, k]}, integers) lies inside {@code x} on {@code axes}. */
    private static boolean inRange(Operand indices, Shape x, int[] axes, long rows) {
        MemorySegment idx = MetalChecks.operand("index", indices).contents();
        int k = axes.length;
        for (long e = 0; e < rows * k; e++) {
            long v = HostElements.getLong(idx, indices.dtype(), e);
            if (v < 0 || v >= x.dim(axes[(int) (e % k)])) return false;
        }
        return true;
    }

    MetalBuffer gather(Operand x, Operand indices, int[] axes) {
        long rows = 1;
        for (int i = 0; i < indices.shape().rank() - 1; i++) rows *= indices.shape().dim(i);
        SliceLayout layout = SliceLayout.of(x.shape(), axes);
        long n = rows * layout.sliceSize();
        DType t = x.dtype();
        if (n >= LIMIT || x.size() >= LIMIT || indices.size() >= LIMIT) return null;
        if (n == 0) return backend.uninitialized("gather", 0);
        if (!inRange(indices, x.shape(), axes, rows)) return null;
        MemorySegment pipeline = kernels.pipeline(MslIndexing.gather(t.byteSize(), indices.dtype()));
        if (pipeline == null) return null;
        return kernels.produce("gather", pipeline, List.of(x, indices), layout.params((int) n, (int) rows, (int) layout.sliceSize()), t.byteSize(n), n, false);
    }

    /** Whether an indexed add (or put) of {@code t} has a kernel. */
    static boolean updates(DType t, boolean accumulate) {
        return !accumulate || MslIndexing.accumulator(t) != null;
    }

    MetalBuffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        String op = accumulate ? "indexedAdd" : "indexedPut";
        DType t = target.dtype();
        if (!updates(t, accumulate)) return null;
        long rows = indices.shape().dim(0);
        SliceLayout layout = SliceLayout.of(target.shape(), axes);
        if (target.size() >= LIMIT || updates.size() >= LIMIT || indices.size() >= LIMIT) return null;
        long bytes = t.byteSize(target.size());
        boolean work = rows > 0 && layout.sliceSize() > 0;
        if (work && !inRange(indices, target.shape(), axes, rows)) return null;
        KernelSource src = MslIndexing.indexUpdate(accumulate ? MslIndexing.accumulator(t) : null, t.byteSize(), indices.dtype());
        MemorySegment pipeline = work ? kernels.pipeline(src) : null;
        if (work && pipeline == null) return null;
        MetalBuffer out = backend.uninitialized(op, bytes);
        try {
            out.contents().copyFrom(MetalChecks.operand(op, target).contents().asSlice(0, bytes));
            if (!work) return out;
            try (MetalScratch s = kernels.scratch(op)) {
                kernels.launch(op, pipeline, List.of(MetalChecks.operand(op, updates).shared(), MetalChecks.operand(op, indices).shared(),
                        s.parameters(layout.params((int) layout.sliceSize(), (int) rows)), out.shared()), layout.sliceSize());
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Whether argmax/argmin of {@code in} into {@code out} has a kernel (F16/BF16 through an exact widening to F32). */
    static boolean argReduces(DType in, DType out) {
        return out.isInteger() && (in == DType.F16 || in == DType.BF16 || MslIndexing.compareType(in) != null);
    }

    /**
     * One threadgroup per row after the axis is moved last ({@link MetalMovement}); F16/BF16 compare as
     * their exact F32 values (the shared cast). An empty axis (the cpu engine's answer) falls back.
     */
    MetalBuffer argReduce(ReduceOp op, Operand x, int axis, boolean high, DType out) {
        if (op != ReduceOp.ARGMAX && op != ReduceOp.ARGMIN) return null;
        if (!argReduces(x.dtype(), out)) return null;
        int rank = x.shape().rank();
        long len = axis < 0 ? x.size() : x.shape().dim(axis);
        if (len == 0 || x.size() >= LIMIT) return null;
        long rows = x.size() / len;
        String name = op.opName();
        if (rows == 0) return backend.uninitialized(name, 0);
        try (MetalScratch s = kernels.scratch(name)) {
            Operand src = x.dtype() == DType.F16 || x.dtype() == DType.BF16 ? s.widened(x) : x;
            if (src != null && axis >= 0 && axis != rank - 1) {
                int[] perm = new int[rank];
                for (int d = 0, k = 0; d < rank; d++) if (d != axis) perm[k++] = d;
                perm[rank - 1] = axis;
                src = s.permuted(src, perm);
            }
            if (src == null) return null;
            MemorySegment pipeline = kernels.pipeline(MslIndexing.argReduce(src.dtype(), out, op == ReduceOp.ARGMAX, high));
            if (pipeline == null) return null;
            return kernels.produce(name, pipeline, List.of(src), new int[] {(int) len}, out.byteSize(rows), rows, true);
        }
    }
}
