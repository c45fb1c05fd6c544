package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;

/**
 * Convolution in canonical layout. The oracle is the definition: every output element is a
 * double sum over its group's channels and kernel taps (channel-major, taps row-major),
 * rounded once. The fast paths: F32 with unit strides and no input dilation goes to the
 * direct kernel ({@link DirectConvF32}; 2-D 3×3 kernels with at least 16 channels and 32 filters a group first to
 * Winograd F(2×2, 3×3), {@link WinogradConvF32}), kernel-cotangent-shaped F32 convs (the kernel as large as the
 * output) to the channels-last kernel cotangent ({@link KernelCotangentConvF32}); everything else in F32/F64 is im2col plus
 * {@link Gemm}; F16/BF16 are widened to F32 (exact) and rounded once at the end.
 */
final class ConvKernels {
    private final Parallel parallel;
    private final boolean fast;

    ConvKernels(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
        this.fast = config.vectorKernels();
    }

    Buffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        ConvGeometry g = new ConvGeometry(input.shape(), kernel.shape(), spec);
        long n = g.outSize();
        if (n == 0) return HostBuffer.uninitialized(0);
        if ((long) g.cg * g.kernelTaps == 0) return HostBuffer.zeroed(out.byteSize(n));
        MemorySegment x = HostBuffer.of(input.buffer()), k = HostBuffer.of(kernel.buffer());
        if (!fast) {
            HostBuffer result = HostBuffer.uninitialized(out.byteSize(n));
            oracle(g, out, x, k, result.segment());
            return result;
        }
        return switch (out) {
            case F32 -> f32(g, x, k);
            case F64 -> {
                HostBuffer result = HostBuffer.uninitialized(n * Double.BYTES);
                Im2col.run(g, DType.F64, x, k, result.segment(), parallel);
                yield result;
            }
            case F16, BF16 -> narrowed(g, out, input, kernel);
            default -> throw new JBurnException("conv", "expects a float type, got " + out);
        };
    }

    private HostBuffer f32(ConvGeometry g, MemorySegment x, MemorySegment k) {
        HostBuffer result = HostBuffer.uninitialized(g.outSize() * Float.BYTES);
        if (!DirectConvF32.run(g, x, k, result.segment(), parallel) && !KernelCotangentConvF32.run(g, x, k, result.segment(), parallel)) {
            Im2col.run(g, DType.F32, x, k, result.segment(), parallel);
        }
        return result;
    }

    /** F16/BF16: widen both operands to F32 (exact), convolve in F32, round each result once. */
    private HostBuffer narrowed(ConvGeometry g, DType t, Operand input, Operand kernel) {
        HostBuffer xf = widen(input, t), kf = widen(kernel, t);
        HostBuffer yf = null;
        try {
            yf = f32(g, xf.segment(), kf.segment());
            HostBuffer result = HostBuffer.uninitialized(g.outSize() * t.byteSize());
            MemorySegment src = yf.segment(), dst = result.segment();
            parallel.forRange(g.outSize(), 2, (lo, hi) -> {
                for (long i = lo; i < hi; i++) HostElements.setDouble(dst, t, i, HostElements.getDouble(src, DType.F32, i));
            });
            return result;
        } finally {
            xf.release();
            kf.release();
            if (yf != null) yf.release();
        }
    }

    private HostBuffer widen(Operand x, DType t) {
        MemorySegment src = HostBuffer.of(x.buffer());
        HostBuffer out = HostBuffer.uninitialized(x.size() * Float.BYTES);
        MemorySegment dst = out.segment();
        parallel.forRange(x.size(), 2, (lo, hi) -> {
            for (long i = lo; i < hi; i++) HostElements.setDouble(dst, DType.F32, i, HostElements.getDouble(src, t, i));
        });
        return out;
    }

    /** The definition, in double: one output element at a time. */
    private void oracle(ConvGeometry g, DType t, MemorySegment x, MemorySegment k, MemorySegment dst) {
        int[][] tables = g.inputIndexTables();
        int sr = g.spatialRank;
        long[] inStrides = new long[sr];
        long s = 1;
        for (int a = sr - 1; a >= 0; a--) {
            inStrides[a] = s;
            s *= g.in[a];
        }
        long taps = g.kernelTaps;
        parallel.forRange(g.outSize(), g.cg * taps, (lo, hi) -> {
            int[] pos = new int[sr];
            int[] tap = new int[sr];
            for (long i = lo; i < hi; i++) {
                long plane = i / g.outPlane;
                WindowGeometry.seek(pos, g.out, i % g.outPlane);
                int o = (int) (plane % g.outChannels);
                int b = (int) (plane / g.outChannels);
                int grp = o / g.og;
                long imageBase = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
                long kernelBase = (long) o * g.cg * taps;
                double acc = 0;
                for (int c = 0; c < g.cg; c++) {
                    java.util.Arrays.fill(tap, 0);
                    for (long kt = 0; kt < taps; kt++) {
                        long off = 0;
                        for (int a = 0; a < sr && off >= 0; a++) {
                            int idx = tables[a][pos[a] * g.kernel[a] + tap[a]];
                            off = idx < 0 ? -1 : off + idx * inStrides[a];
                        }
                        // A tap on padding or between dilated elements reads a zero and still multiplies
                        // (Nx pads, then convolves): an infinite or NaN weight there gives NaN, as in the fast paths.
                        double xv = off >= 0 ? HostElements.getDouble(x, t, imageBase + c * g.inPlane + off) : 0.0;
                        acc += xv * HostElements.getDouble(k, t, kernelBase + c * taps + kt);
                        WindowGeometry.next(tap, g.kernel);
                    }
                }
                HostElements.setDouble(dst, t, i, acc);
            }
        });
    }
}
