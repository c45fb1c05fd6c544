package dev.jburn.reference;

import dev.jburn.Shape;

import java.lang.foreign.MemorySegment;

/**
 * A canonical F32 conv shaped like a kernel cotangent (the kernel at least as large as the output: autodiff's
 * {@code conv(x as [C, N, s...], g as a kernel [O, N, o...])} of a canonical-layout conv layer, the output
 * {@code [C, O, k...]}) run by the channels-last kernel cotangent ({@link ChannelsLastConvF32#kernelGradient}, 12-row panel
 * tiles) over channels-last copies of both operands: {@code x} as {@code [N, s..., C]}, the kernel as {@code [N, o..., O]},
 * the result {@code [k..., C, O]} copied into the canonical output. Where it does not apply the caller's im2col + GEMM runs
 * (which, for the ResNet-like conv's kernel cotangent, built a 58 MB column matrix and ran at ~80 GFLOP/s).
 */
final class KernelCotangentConvF32 {
    private KernelCotangentConvF32() {}

    /** Runs the conv into {@code dst}, or returns false when it does not apply (then nothing was written). */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel) {
        if (!ChannelsLastConvF32.applies(g.spec) || g.kernelTaps < g.outPlane) return false;
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
        HostBuffer xl = channelsLast(x, g.batch, g.channels, g.inPlane, parallel);
        HostBuffer kl = null, r = null;
        try {
            kl = channelsLast(k, g.outChannels, g.cg, g.kernelTaps, parallel);
            r = ChannelsLastConvF32.kernelGradient(xl.segment(), xs, kl.segment(), ks, g.spec, parallel);
            if (r == null) return false;
            // [out..., batch, O] -> [batch, O, out...]
            long planes = (long) g.batch * g.outChannels;
            StridedCopy.plan(new int[] {(int) planes, (int) g.outPlane}, new long[] {1, planes}, new long[] {g.outPlane, 1},
                    Float.BYTES, true).run(r.segment(), 0, dst, 0, parallel);
            return true;
        } finally {
            xl.release();
            if (kl != null) kl.release();
            if (r != null) r.release();
        }
    }

    /** {@code [a, b, plane]} as {@code [b, plane, a]}. */
    private static HostBuffer channelsLast(MemorySegment src, int a, int b, long plane, Parallel parallel) {
        HostBuffer out = HostBuffer.uninitialized((long) a * b * plane * Float.BYTES);
        StridedCopy.plan(new int[] {b, (int) plane, a}, new long[] {plane, 1, b * plane}, new long[] {plane * a, a, 1},
                Float.BYTES, true).run(src, 0, out.segment(), 0, parallel);
        return out;
    }
}
