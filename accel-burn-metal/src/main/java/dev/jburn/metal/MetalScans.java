package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.CumulativeOp;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Cumulative sum, product, max and min on the GPU ({@link MslScans}: one thread per line, in order, so
 * the cpu engine's bits); F16 and BF16 as their exact F32 values, each result rounded once back (the cpu
 * engine scans them in float too). Returns {@code null} (the cpu engine runs it, counted) for PRED and
 * F64, or past 32-bit indices.
 */
final class MetalScans {
    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalScans(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    /** Whether scans of {@code t} run here. */
    static boolean supports(DType t) {
        return t == DType.F16 || t == DType.BF16 || MslScans.supports(t);
    }

    MetalBuffer scan(CumulativeOp op, Operand x, int axis, boolean reverse) {
        DType t = x.dtype();
        if (!supports(t) || x.size() >= Integer.MAX_VALUE) return null;
        if (x.size() == 0) return backend.uninitialized(op.opName(), 0);
        if (t == DType.F16 || t == DType.BF16) {
            try (MetalScratch s = kernels.scratch(op.opName())) {
                Operand wide = s.widened(x);
                return s.converted(wide == null ? null : scan(op, wide, axis, reverse), DType.F32, x.shape(), t);
            }
        }
        Shape s = x.shape();
        long len = s.dim(axis), inner = 1;
        for (int d = axis + 1; d < s.rank(); d++) inner *= s.dim(d);
        long lines = x.size() / len;
        MemorySegment pipeline = kernels.pipeline(MslScans.scan(op, t, reverse));
        if (pipeline == null) return null;
        return kernels.produce(op.opName(), pipeline, List.of(x), new int[] {(int) len, (int) inner}, t.byteSize(x.size()), lines, false);
    }
}
