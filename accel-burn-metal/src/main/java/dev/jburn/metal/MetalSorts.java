package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Stable sort and argsort on the GPU ({@link MslSort}: keys from the bits, a merge sort per line, the cpu
 * engine's results bit for bit, every dtype). Scratch for the keys and positions (24 bytes per element)
 * lives for one dispatch. Returns {@code null} (the cpu engine runs it, counted) past 32-bit indices.
 */
final class MetalSorts {
    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalSorts(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    /** Sorted values ({@code index == null}) or positions in {@code index}. */
    MetalBuffer sort(Operand x, int axis, boolean descending, DType index) {
        String op = index == null ? "sort" : "argsort";
        DType out = index == null ? x.dtype() : index;
        if (x.size() == 0) return backend.uninitialized(op, 0);
        if (x.size() >= Integer.MAX_VALUE / 2) return null;
        Shape s = x.shape();
        long len = s.dim(axis), inner = 1;
        for (int d = axis + 1; d < s.rank(); d++) inner *= s.dim(d);
        MemorySegment pipeline = kernels.pipeline(MslSort.sort(x.dtype(), descending, index));
        if (pipeline == null) return null;
        try (MetalScratch scratch = kernels.scratch(op)) {
            MetalBuffer keys = scratch.hold(backend.uninitialized(op, 16 * x.size()));
            MetalBuffer positions = scratch.hold(backend.uninitialized(op, 8 * x.size()));
            return kernels.produce(op, pipeline, List.of(x, new Operand(keys, DType.S64, Shape.of(2 * x.size())),
                    new Operand(positions, DType.S32, Shape.of(2 * x.size()))), new int[] {(int) len, (int) inner}, out.byteSize(x.size()),
                    x.size() / len, false);
        }
    }
}
