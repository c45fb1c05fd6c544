package dev.jburn.reference;

import dev.jburn.Shape;

import java.lang.foreign.MemorySegment;

/**
 * A canonical F32 conv shaped like a kernel cotangent (the kernel at least as large as the output: autodiff's
 * {@code conv(x as [C, N, s...], g as a kernel [O, N, o...])} of a canonical-layout conv layer, the output
 * {@code [C, O, k...]}) run by the channels-last kernel cotangent ({@link ChannelsLastConvF32#kernelGradient}, 12-row panel
 * tiles) over channels-last copies of both operands: {@code x} as {@code [N, s..., C]}, the kernel as {@code [N, o..., O]},
 * the result {@code [k..., C, O]} copied into the canonical output. Where it does not apply the caller's im2col + GEMM runs
 * (which, for the ResNet-like conv's kernel cotangent, built a 58 MB column matrix and ran at ~80 GFLOP/s). A 3×3 kernel
 * cotangent of unit strides and dilations goes to {@link WinogradKernelCotangentF32} first (from the NCHW planes, no copies).
 */
final class KernelCotangentConvF32 {
    private KernelCotangentConvF32() {}

    /** Whether {@link #run} may take the conv of {@code g}: ungrouped, no input dilation, at least as many kernel taps as outputs. */
    static boolean applies(ConvGeometry g) {
        return ChannelsLastConvF32.applies(g.spec) && g.kernelTaps >= g.outPlane;
    }

    /** Runs the conv into {@code dst}, or returns false when it does not apply (then nothing was written). */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel) {
        return run(g, x, k, dst, parallel, false);
    }

    /**
     * {@link #run}; with {@code swapped}, {@code x} and {@code k} come with their first two axes swapped ({@code [C, batch,
     * s...]}, {@code [C, O, k...]}: the NCHW tensors whose transposes a kernel cotangent convolves,
     * {@link CanonicalKernelCotangents}) and the result goes out swapped too ({@code [O, batch, out...]}, OIHW).
     */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel, boolean swapped) {
        if (!applies(g)) return false;
        if (Winograd34KernelCotangentF32.run(g, x, k, dst, parallel, swapped)) return true; // 3x3 taps, 4x4 blocks: 4x fewer flops
        if (WinogradKernelCotangentF32.run(g, x, k, dst, parallel, swapped)) return true; // 3x3 taps: 2.25x fewer flops
        int sr = g.spatialRank;
        // the conv's batch is the cotangent's channels, its channels the cotangent's batch
        int[] xd = new int[sr + 2], kd = new int[sr + 2];
        xd[0] = g.channels;
        kd[0] = g.cg;
        for (int a = 0; a < sr; a++) {
            xd[a + 1] = g.in[a];
            kd[a + 1] = g.kernel[a];
        }
        xd[sr + 1] = g.batch;
        kd[sr + 1] = g.outChannels;
        Shape xs = Shape.of(xd), ks = Shape.of(kd);
        HostBuffer xl = channelsLast(x, g.batch, g.channels, g.inPlane, swapped, parallel);
        HostBuffer kl = null, r = null;
        try {
            kl = channelsLast(k, g.outChannels, g.cg, g.kernelTaps, swapped, parallel);
            r = ChannelsLastConvF32.kernelGradient(xl.segment(), xs, kl.segment(), ks, g.spec, parallel);
            if (r == null) return false;
            // [out..., batch, O] -> [batch, O, out...], or [O, batch, out...] when swapped
            int b = g.batch, o = g.outChannels;
            long p = g.outPlane;
            StridedCopy.plan(new int[] {b, o, (int) p}, new long[] {o, 1, (long) b * o},
                    swapped ? new long[] {p, b * p, 1} : new long[] {o * p, p, 1}, Float.BYTES, true).run(r.segment(), 0, dst, 0, parallel);
            return true;
        } finally {
            xl.release();
            if (kl != null) kl.release();
            if (r != null) r.release();
        }
    }

    /** {@code [a, b, plane]} (or {@code [b, a, plane]} when {@code swapped}) as {@code [b, plane, a]}. */
    static HostBuffer channelsLast(MemorySegment src, int a, int b, long plane, boolean swapped, Parallel parallel) {
        HostBuffer out = HostBuffer.uninitialized((long) a * b * plane * Float.BYTES);
        long[] from = swapped ? new long[] {a * plane, 1, plane} : new long[] {plane, 1, b * plane};
        StridedCopy.plan(new int[] {b, (int) plane, a}, from, new long[] {plane * a, a, 1}, Float.BYTES, true)
                .run(src, 0, out.segment(), 0, parallel);
        return out;
    }
}
