package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Convolution on the GPU ({@link MslConv}, direct, f32); F16 and BF16 widened exactly to F32 and each
 * result rounded once back, as the cpu engine does. Returns {@code null} (the cpu engine runs it,
 * counted) for F64, more than {@link MslConv#MAX_RANK} spatial axes, or past 32-bit indices.
 */
final class MetalConvs {
    private static final long LIMIT = Integer.MAX_VALUE;

    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalConvs(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    static boolean supports(DType t) { return t == DType.F32 || t == DType.F16 || t == DType.BF16; }

    /**
     * The kernel's parameter words for {@code input} and {@code kernel} under {@code spec}, and the output's
     * spatial sizes after them; {@code null} past {@link MslConv#MAX_RANK} or 32-bit indices.
     */
    static int[] params(Shape input, Shape kernel, ConvSpec spec) {
        int r = spec.spatialRank();
        if (r > MslConv.MAX_RANK) return null;
        int n = input.dim(0), c = input.dim(1), o = kernel.dim(0), cg = kernel.dim(1);
        int groups = Math.max(spec.featureGroups(), spec.batchGroups());
        long taps = 1, inPlane = 1, outPlane = 1;
        int[] w = new int[MslConv.HEADER + MslConv.PER_AXIS * r];
        for (int d = 0; d < r; d++) {
            int in = input.dim(d + 2), k = kernel.dim(d + 2);
            long inEff = in == 0 ? 0 : (long) (in - 1) * spec.inputDilation()[d] + 1;
            long kEff = (long) (k - 1) * spec.kernelDilation()[d] + 1;
            long out = Math.max(0, Math.floorDiv(inEff + spec.padLow()[d] + spec.padHigh()[d] - kEff, spec.strides()[d]) + 1);
            if (out >= LIMIT || Math.abs((long) spec.padLow()[d]) >= LIMIT / 4 || inEff + kEff >= LIMIT / 4 || out * spec.strides()[d] >= LIMIT / 4) return null;
            int a = MslConv.HEADER + MslConv.PER_AXIS * d;
            w[a] = in;
            w[a + 1] = k;
            w[a + 2] = (int) out;
            w[a + 3] = spec.strides()[d];
            w[a + 4] = spec.kernelDilation()[d];
            w[a + 5] = spec.inputDilation()[d];
            w[a + 6] = spec.padLow()[d];
            taps *= k;
            inPlane *= in;
            outPlane *= out;
        }
        long outSize = (long) (n / spec.batchGroups()) * o * outPlane;
        if (outSize >= LIMIT || input.size() >= LIMIT || kernel.size() >= LIMIT || taps * cg >= LIMIT) return null;
        w[0] = r;
        w[1] = o;
        w[2] = o / groups;
        w[3] = cg;
        w[4] = c;
        w[5] = n / spec.batchGroups();
        w[6] = spec.batchGroups() > 1 ? 1 : 0;
        w[7] = spec.featureGroups() > 1 ? 1 : 0;
        w[8] = (int) taps;
        w[9] = (int) inPlane;
        w[10] = (int) outPlane;
        return w;
    }

    MetalBuffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        if (!supports(out) || input.dtype() != out || kernel.dtype() != out) return null;
        int[] words = params(input.shape(), kernel.shape(), spec);
        if (words == null) return null;
        long size = (long) words[5] * words[1] * words[10];
        if (size == 0) return backend.uninitialized("conv", 0);
        if ((long) words[3] * words[8] == 0) return (MetalBuffer) backend.allocate(out.byteSize(size)); // empty sums: zeros
        MemorySegment pipeline = kernels.pipeline(MslConv.source());
        if (pipeline == null) return null;
        try (MetalScratch s = kernels.scratch("conv")) {
            Operand x = s.widened(input), k = s.widened(kernel);
            if (x == null || k == null) return null;
            return s.converted(kernels.produce("conv", pipeline, List.of(x, k), words, 4 * size, size, false), DType.F32, Shape.of(size), out);
        }
    }
}
