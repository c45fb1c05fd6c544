package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.DirectConvPlan;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Convolution on the GPU ({@link MslConv}, direct, f32); F16 and BF16 widened exactly to F32 and each
 * result rounded once back, as the cpu engine does. Returns {@code null} (the cpu engine runs it,
 * counted) for F64, more than {@link DirectConvPlan#MAX_RANK} spatial axes, or past 32-bit indices.
 */
final class MetalConvs {
    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalConvs(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    static boolean supports(DType t) { return t == DType.F32 || t == DType.F16 || t == DType.BF16; }

    MetalBuffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        if (!supports(out) || input.dtype() != out || kernel.dtype() != out) return null;
        int[] words = DirectConvPlan.params(input.shape(), kernel.shape(), spec);
        if (words == null) return null;
        long size = DirectConvPlan.outputSize(words);
        if (size == 0) return backend.uninitialized("conv", 0);
        if (DirectConvPlan.productsPerOutput(words) == 0) return (MetalBuffer) backend.allocate(out.byteSize(size)); // empty sums: zeros
        MemorySegment pipeline = kernels.pipeline(MslConv.source());
        if (pipeline == null) return null;
        try (MetalScratch s = kernels.scratch("conv")) {
            Operand x = s.widened(input), k = s.widened(kernel);
            if (x == null || k == null) return null;
            return s.converted(kernels.produce("conv", pipeline, List.of(x, k), words, 4 * size, size, false), DType.F32, Shape.of(size), out);
        }
    }
}
