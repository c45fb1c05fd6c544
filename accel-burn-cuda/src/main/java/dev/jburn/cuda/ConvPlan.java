package dev.jburn.cuda;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

/**
 * How a convolution runs as movement kernels and one batched GEMM (im2col): the input is padded
 * (input dilation as interior padding), a strided view of the padded input gathers every window
 * into {@code cols [G, N, o..., C/G, k...]}, GEMM per feature group multiplies
 * {@code [N·o..., C/G·k...]} by the group's kernel {@code [O/G, C/G·k...]ᵀ}, and a transpose puts
 * {@code [G, N, o..., O/G]} into the output layout {@code [N, O, o...]}. Pure arithmetic on shapes,
 * tested against the cpu engine without a GPU. Covers batch groups of 1, non-negative padding and up to
 * two spatial axes (so every view fits the copy kernel's rank of 8); other convolutions fall back.
 *
 * @param padLo     low padding per input axis (0 for N and C)
 * @param padHi     high padding per input axis
 * @param interior  interior padding per input axis (input dilation − 1)
 * @param padded    the padded input's shape
 * @param cols      the im2col view of the padded input
 * @param groups    G, the GEMM batch
 * @param m         N · Π o
 * @param n         O / G
 * @param k         C / G · Π k
 * @param toOutput  view of the GEMM result {@code [G, N, Π o, O/G]} as {@code [N, G, O/G, Π o]} = {@code [N, O, o...]}
 * @param outShape  the output shape
 */
record ConvPlan(int[] padLo, int[] padHi, int[] interior, Shape padded, StridedView cols, long groups, long m, long n, long k,
                StridedView toOutput, Shape outShape) {

    /** The plan, or null when this convolution is not one the GPU path covers. */
    static ConvPlan of(Shape input, Shape kernel, ConvSpec spec) {
        int r = spec.spatialRank();
        if (spec.batchGroups() != 1 || r < 1 || r > 2 || input.size() == 0 || kernel.size() == 0) return null;
        for (int i = 0; i < r; i++) if (spec.padLow()[i] < 0 || spec.padHigh()[i] < 0) return null;
        int rank = r + 2;
        int[] lo = new int[rank], hi = new int[rank], interior = new int[rank];
        long[] pd = new long[rank];
        pd[0] = input.dim(0);
        pd[1] = input.dim(1);
        for (int i = 0; i < r; i++) {
            lo[i + 2] = spec.padLow()[i];
            hi[i + 2] = spec.padHigh()[i];
            interior[i + 2] = spec.inputDilation()[i] - 1;
            long d = input.dim(i + 2);
            pd[i + 2] = lo[i + 2] + hi[i + 2] + d + Math.max(0, d - 1) * interior[i + 2];
        }
        Shape padded = Shape.of(pd);
        long[] ps = StridedView.rowMajorStrides(padded);
        long g = spec.featureGroups(), nBatch = input.dim(0), c = input.dim(1), o = kernel.dim(0);
        long cg = c / g, og = o / g;
        long[] out = new long[r];
        long outSpatial = 1, kSpatial = 1;
        for (int i = 0; i < r; i++) {
            long effective = (kernel.dim(i + 2) - 1L) * spec.kernelDilation()[i] + 1;
            out[i] = pd[i + 2] < effective ? 0 : (pd[i + 2] - effective) / spec.strides()[i] + 1;
            outSpatial *= out[i];
            kSpatial *= kernel.dim(i + 2);
        }
        if (outSpatial == 0) return null;
        // cols [G, N, o..., Cg, k...]
        int vr = 3 + 2 * r;
        long[] vd = new long[vr], vs = new long[vr];
        vd[0] = g;
        vs[0] = cg * ps[1];
        vd[1] = nBatch;
        vs[1] = ps[0];
        for (int i = 0; i < r; i++) {
            vd[2 + i] = out[i];
            vs[2 + i] = ps[i + 2] * spec.strides()[i];
        }
        vd[2 + r] = cg;
        vs[2 + r] = ps[1];
        for (int i = 0; i < r; i++) {
            vd[3 + r + i] = kernel.dim(i + 2);
            vs[3 + r + i] = ps[i + 2] * spec.kernelDilation()[i];
        }
        StridedView cols = new StridedView(0, vd, vs);
        long m = nBatch * outSpatial;
        // GEMM result [G, N, S, Og] (row-major) read as [N, G, Og, S].
        long sS = og, sN = outSpatial * og, sG = nBatch * outSpatial * og;
        StridedView toOutput = new StridedView(0, new long[] {nBatch, g, og, outSpatial}, new long[] {sN, sG, 1, sS});
        long[] os = new long[rank];
        os[0] = nBatch;
        os[1] = o;
        System.arraycopy(out, 0, os, 2, r);
        return new ConvPlan(lo, hi, interior, padded, cols, g, m, og, cg * kSpatial, toOutput, Shape.of(os));
    }
}
