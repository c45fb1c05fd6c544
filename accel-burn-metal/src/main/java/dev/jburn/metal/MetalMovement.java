package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.CopyPlan;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Slice, reverse, pad, concatenate, put-slice and iota on the GPU: each a {@link CopyPlan} run by
 * {@link MslMovement}'s strided copy (one dispatch per concatenated part), iota a counter then the
 * shared emitter's cast. Operands are checked by the backend first ({@link MetalChecks}). Every
 * method returns {@code null} where the kernels' 32-bit indices do not reach or Metal allows the
 * pipeline too few threads; the backend then runs the op on the cpu engine, counted.
 */
final class MetalMovement {
    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalMovement(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    MetalBuffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        CopyPlan p = CopyPlan.slice(x.shape(), starts, lengths, strides);
        return copy("slice", x, null, p, p.count());
    }

    /** Output axis {@code i} is input axis {@code perm[i]}: one pipeline for every shape (the backend's own transpose holds the shape in its source). */
    MetalBuffer transpose(Operand x, int[] perm) {
        return copy("transpose", x, null, CopyPlan.transpose(x.shape(), perm), x.size());
    }

    /** Input axis {@code i} to output axis {@code axes[i]}, as {@link #transpose} one pipeline for every shape. */
    MetalBuffer broadcast(Operand x, Shape outShape, int[] axes) {
        return copy("broadcast", x, null, CopyPlan.broadcast(x.shape(), outShape, axes), outShape.size());
    }

    MetalBuffer reverse(Operand x, int[] axes) {
        return copy("reverse", x, null, CopyPlan.reverse(x.shape(), axes), x.size());
    }

    MetalBuffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        CopyPlan p = CopyPlan.pad(x.shape(), lo, hi, interior);
        return copy("pad", x, padValue, p, p.count());
    }

    /** {@code x} through {@code plan} into a new buffer of {@code outElements} (padding read from {@code padValue}). */
    private MetalBuffer copy(String op, Operand x, Operand padValue, CopyPlan plan, long outElements) {
        DType t = x.dtype();
        if (!plan.fitsInt32(x.size(), outElements)) return null;
        if (plan.count() == 0) return backend.uninitialized(op, t.byteSize(outElements));
        MemorySegment pipeline = kernels.pipeline(MslMovement.copy(t.byteSize()));
        if (pipeline == null) return null;
        return kernels.produce(op, pipeline, List.of(x, padValue == null ? x : padValue), plan.params(), t.byteSize(outElements), plan.count(), false);
    }

    /** One dispatch of the strided copy: {@code src} (padding from {@code pad}) through {@code plan} into {@code out}. */
    private void run(String op, MemorySegment pipeline, Operand src, Operand pad, CopyPlan plan, MetalBuffer out) {
        if (plan.count() == 0) return;
        try (MetalScratch s = kernels.scratch(op)) {
            kernels.launch(op, pipeline, List.of(MetalChecks.operand(op, src).shared(), MetalChecks.operand(op, pad).shared(),
                    s.parameters(plan.params()), out.shared()), plan.count());
        }
    }

    /** The parts placed one after another along {@code axis}: one dispatch per non-empty part. */
    MetalBuffer concatenate(List<Operand> parts, int axis) {
        Operand first = parts.getFirst();
        int[] dims = first.shape().dims();
        dims[axis] = 0;
        for (Operand o : parts) dims[axis] += o.shape().dim(axis);
        Shape outShape = Shape.of(dims);
        List<CopyPlan> plans = new ArrayList<>(parts.size());
        long offset = 0;
        for (Operand o : parts) {
            long[] starts = new long[outShape.rank()];
            starts[axis] = offset;
            CopyPlan p = CopyPlan.place(o.shape(), outShape, starts);
            if (!p.fitsInt32(o.size(), outShape.size())) return null;
            plans.add(p);
            offset += o.shape().dim(axis);
        }
        DType t = first.dtype();
        if (outShape.size() == 0) return backend.uninitialized("concatenate", 0);
        MemorySegment pipeline = kernels.pipeline(MslMovement.copy(t.byteSize()));
        if (pipeline == null) return null;
        MetalBuffer out = backend.uninitialized("concatenate", t.byteSize(outShape.size()));
        try {
            for (int i = 0; i < parts.size(); i++) run("concatenate", pipeline, parts.get(i), parts.get(i), plans.get(i), out);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** {@code x} copied (shared storage: the CPU copies what the GPU then reads), then {@code update} written at {@code starts}. */
    MetalBuffer putSlice(Operand x, int[] starts, Operand update) {
        long[] at = new long[starts.length];
        for (int i = 0; i < at.length; i++) at[i] = starts[i];
        CopyPlan p = CopyPlan.place(update.shape(), x.shape(), at);
        DType t = x.dtype();
        if (!p.fitsInt32(update.size(), x.size())) return null;
        MemorySegment pipeline = p.count() == 0 ? null : kernels.pipeline(MslMovement.copy(t.byteSize()));
        if (p.count() != 0 && pipeline == null) return null;
        long bytes = t.byteSize(x.size());
        MetalBuffer out = backend.uninitialized("putSlice", bytes);
        try {
            out.contents().copyFrom(MetalChecks.operand("putSlice", x).contents().asSlice(0, bytes));
            run("putSlice", pipeline, update, update, p, out);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /**
     * Counting along {@code axis} (or the flattened shape): the u32 counter, then the shared cast to
     * {@code dtype}, which is the cpu engine's iota for counts below 2^31. PRED (a cast would give 0/1
     * where the cpu engine keeps the count's low bits) and what the cast cannot express fall back.
     */
    MetalBuffer iota(Shape shape, DType dtype, int axis) {
        long n = shape.size();
        if (dtype == DType.PRED || n >= Integer.MAX_VALUE) return null;
        if (dtype != DType.U32 && kernels.source(dev.jburn.kernels.ElementwiseKernel.cast(DType.U32, dtype, Shape.of(4))).isEmpty()) return null;
        if (n == 0) return backend.uninitialized("iota", 0);
        long dim = n, stride = 1;
        if (axis >= 0) {
            dim = shape.dim(axis);
            for (int d = axis + 1; d < shape.rank(); d++) stride *= shape.dim(d);
        }
        MemorySegment pipeline = kernels.pipeline(MslMovement.iota());
        if (pipeline == null) return null;
        try (MetalScratch s = kernels.scratch("iota")) {
            return s.converted(kernels.produce("iota", pipeline, List.of(), new int[] {(int) dim, (int) stride}, 4 * n, n, false),
                    DType.U32, Shape.of(n), dtype);
        }
    }
}
