package dev.jburn.reference;

import dev.jburn.DType;

import java.lang.foreign.MemorySegment;

/**
 * The general fast convolution (any strides, dilations, padding, groups) in F32 or F64: per
 * output image and group, the receptive fields are copied into a column matrix
 * {@code col[Cg·K × P]} (row = channel and kernel tap, column = output position; zero where a
 * tap falls on padding or between dilated input elements), and then one {@link Gemm} call
 * computes {@code out[og × P] = kernel[og × Cg·K] · col}. The kernel needs no copy: its
 * canonical layout is already that matrix.
 */
final class Im2col {
    private Im2col() {}

    static void run(ConvGeometry g, DType t, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel) {
        int w = t.byteSize();
        long rows = (long) g.cg * g.kernelTaps;
        long cols = g.outPlane;
        if (rows > Integer.MAX_VALUE || cols > Integer.MAX_VALUE) {
            throw new dev.jburn.JBurnException("conv", "a column matrix of " + rows + " × " + cols + " is too large");
        }
        int[][] tables = g.inputIndexTables();
        HostBuffer col = HostBuffer.uninitialized(rows * cols * w);
        try {
            MemorySegment c = col.segment();
            for (int b = 0; b < g.outBatch; b++) {
                for (int grp = 0; grp < g.groups; grp++) {
                    long imageBase = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
                    parallel.forRange(rows, cols, (lo, hi) -> fill(g, tables, w, x, imageBase, c, lo, hi));
                    Gemm.View a = Gemm.View.rowMajor(k, (long) grp * g.og * rows, rows);
                    Gemm.View bm = Gemm.View.rowMajor(c, 0, cols);
                    Gemm.View out = Gemm.View.rowMajor(dst, ((long) b * g.outChannels + (long) grp * g.og) * cols, cols);
                    if (t == DType.F32) Gemm.sgemm(g.og, (int) cols, (int) rows, a, bm, out, false, parallel);
                    else Gemm.dgemm(g.og, (int) cols, (int) rows, a, bm, out, false, parallel);
                }
            }
        } finally {
            col.release();
        }
    }

    /** Column-matrix rows {@code [lo, hi)}: row {@code r} is channel {@code r / K}, kernel tap {@code r % K}. */
    private static void fill(ConvGeometry g, int[][] tables, int w, MemorySegment x, long imageBase, MemorySegment col,
                             long lo, long hi) {
        int sr = g.spatialRank;
        int last = sr - 1;
        long[] inStrides = new long[sr];
        long s = 1;
        for (int a = sr - 1; a >= 0; a--) {
            inStrides[a] = s;
            s *= g.in[a];
        }
        int[] tap = new int[sr];
        int[] pos = new int[sr];
        int outLast = g.out[last];
        int kLast = g.kernel[last];
        int[] lastTable = tables[last];
        for (long r = lo; r < hi; r++) {
            long channelBase = imageBase + (r / g.kernelTaps) * g.inPlane;
            WindowGeometry.seek(tap, g.kernel, r % g.kernelTaps);
            long dstRow = r * g.outPlane;
            java.util.Arrays.fill(pos, 0);
            // Walk the output positions row by row: the outer axes fix an input row (or padding),
            // the last axis runs along it.
            for (long p = 0; p < g.outPlane; p += outLast) {
                long rowOff = 0;
                for (int a = 0; a < last && rowOff >= 0; a++) {
                    int idx = tables[a][pos[a] * g.kernel[a] + tap[a]];
                    rowOff = idx < 0 ? -1 : rowOff + idx * inStrides[a];
                }
                long d = dstRow + p;
                if (rowOff < 0) {
                    col.asSlice(d * w, (long) outLast * w).fill((byte) 0);
                } else {
                    long src = channelBase + rowOff;
                    for (int o = 0; o < outLast; o++) {
                        int idx = lastTable[o * kLast + tap[last]];
                        if (idx < 0) zero(col, d + o, w);
                        else Elements.copy(x, src + idx, col, d + o, w);
                    }
                }
                // advance the outer output coordinates (the last axis is covered by the run)
                for (int a = last - 1; a >= 0; a--) {
                    if (++pos[a] < g.out[a]) break;
                    pos[a] = 0;
                }
            }
        }
    }

    private static void zero(MemorySegment s, long index, int w) {
        if (w == 4) s.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, index, 0);
        else s.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, index, 0L);
    }
}
