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
        if (g.groups == 1 && cols < SMALL_PLANE && rows * cols * g.outBatch <= BATCHED_LIMIT) {
            batched(g, t, tables, x, k, dst, parallel, (int) rows, (int) cols);
            return;
        }
        HostBuffer col = HostBuffer.uninitialized(rows * cols * w);
        try {
            MemorySegment c = col.segment();
            for (int b = 0; b < g.outBatch; b++) {
                for (int grp = 0; grp < g.groups; grp++) {
                    long imageBase = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
                    parallel.forRange(rows, cols, (lo, hi) -> fill(g, tables, w, x, imageBase, c, cols, 0, lo, hi));
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

    /** Output planes below this many positions go {@link #batched} (the kernel cotangent's conv: a kernel as large as the image). */
    private static final long SMALL_PLANE = 64;
    /** Most elements of the batched column matrix. */
    private static final long BATCHED_LIMIT = 16L << 20;

    /**
     * Every output image in one GEMM, for small output planes (the kernel cotangent's conv: a
     * kernel as large as the image, a few outputs): the <em>transposed</em> column matrix
     * {@code colT[B·P × Cg·K]} holds image {@code b}'s output position {@code q} in row
     * {@code b·P + q}, {@code tmp[O × B·P] = kernel · colTᵀ}, and {@code tmp[o, b·P + q]} goes to
     * {@code out[b, o, q]}. One wide GEMM packs the kernel once instead of once per image, and
     * its panels are full where a {@code P}-column GEMM's are not. Transposed, because a row of
     * {@code colT} walks the kernel taps, whose last axis reads consecutive inputs: runs as long
     * as the kernel's rows, where the untransposed matrix has runs as short as the output's rows.
     */
    private static void batched(ConvGeometry g, DType t, int[][] tables, MemorySegment x, MemorySegment k, MemorySegment dst,
                                Parallel parallel, int rows, int cols) {
        int w = t.byteSize();
        long wide = (long) cols * g.outBatch;
        HostBuffer col = HostBuffer.uninitialized(rows * wide * w);
        HostBuffer tmp = HostBuffer.uninitialized(g.og * wide * w);
        try {
            MemorySegment c = col.segment(), o = tmp.segment();
            TapRuns runs = new TapRuns(g, tables);
            parallel.forRange(wide, rows, (lo, hi) -> {
                int[] pos = new int[g.spatialRank], tap = new int[g.spatialRank];
                for (long u = lo; u < hi; u++) {
                    long imageBase = (long) g.image((int) (u / cols), 0) * g.channels * g.inPlane;
                    fillTransposed(g, tables, runs, w, x, imageBase, u % cols, c, u * rows, pos, tap);
                }
            });
            Gemm.View a = Gemm.View.rowMajor(k, 0, rows);
            Gemm.View bm = Gemm.View.rowMajor(c, 0, rows).transposed();
            Gemm.View out = Gemm.View.rowMajor(o, 0, wide);
            if (t == DType.F32) Gemm.sgemm(g.og, (int) wide, rows, a, bm, out, false, parallel);
            else Gemm.dgemm(g.og, (int) wide, rows, a, bm, out, false, parallel);
            parallel.forRange((long) g.outBatch * g.og, cols, (lo, hi) -> {
                for (long u = lo; u < hi; u++) {
                    long b = u / g.og, oc = u % g.og;
                    MemorySegment.copy(o, (oc * wide + b * cols) * w, dst, ((b * g.outChannels + oc) * cols) * w, (long) cols * w);
                }
            });
        } finally {
            col.release();
            tmp.release();
        }
    }

    /**
     * Per output index {@code o} of the last spatial axis, the kernel taps along it that read
     * input (not padding): {@code [lo[o], hi[o])}, reading input {@code first[o]} on; or
     * {@code consecutive} false when taps read inputs with gaps (kernel or input dilation),
     * and then the table is walked tap by tap.
     */
    private static final class TapRuns {
        final boolean consecutive;
        final int[] lo, hi, first;

        TapRuns(ConvGeometry g, int[][] tables) {
            int last = g.spatialRank - 1, kLast = g.kernel[last], outLast = g.out[last];
            int[] table = tables[last];
            lo = new int[outLast];
            hi = new int[outLast];
            first = new int[outLast];
            boolean ok = true;
            for (int o = 0; o < outLast; o++) {
                int a = 0;
                while (a < kLast && table[o * kLast + a] < 0) a++;
                int b = a;
                while (b < kLast && table[o * kLast + b] >= 0) b++;
                lo[o] = a;
                hi[o] = b;
                first[o] = a < kLast ? table[o * kLast + a] : 0;
                for (int kt = a; kt < kLast && ok; kt++) {
                    int idx = table[o * kLast + kt];
                    ok = kt < b ? idx == first[o] + (kt - a) : idx < 0;
                }
            }
            consecutive = ok;
        }
    }

    /**
     * Row {@code dstRow..} of the transposed column matrix: output position {@code q} of the image at
     * {@code imageBase}, every (channel, kernel tap) in the kernel's order.
     */
    private static void fillTransposed(ConvGeometry g, int[][] tables, TapRuns runs, int w, MemorySegment x, long imageBase,
                                       long q, MemorySegment col, long dstRow, int[] pos, int[] tap) {
        int sr = g.spatialRank, last = sr - 1;
        int kLast = g.kernel[last];
        WindowGeometry.seek(pos, g.out, q);
        int oLast = pos[last];
        int[] lastTable = tables[last];
        int lo = runs.lo[oLast], hi = runs.hi[oLast], first = runs.first[oLast];
        long outerTaps = g.kernelTaps / kLast;
        long d = dstRow;
        for (int c = 0; c < g.cg; c++) {
            long channelBase = imageBase + c * g.inPlane;
            java.util.Arrays.fill(tap, 0);
            for (long ot = 0; ot < outerTaps; ot++, d += kLast) {
                long rowOff = 0, stride = g.in[last];
                for (int a = last - 1; a >= 0 && rowOff >= 0; a--) {
                    int idx = tables[a][pos[a] * g.kernel[a] + tap[a]];
                    rowOff = idx < 0 ? -1 : rowOff + idx * stride;
                    stride *= g.in[a];
                }
                if (rowOff < 0) {
                    col.asSlice(d * w, (long) kLast * w).fill((byte) 0);
                } else if (runs.consecutive) {
                    if (lo > 0) col.asSlice(d * w, (long) lo * w).fill((byte) 0);
                    Elements.copyShortRun(x, channelBase + rowOff + first, col, d + lo, hi - lo, w);
                    if (hi < kLast) col.asSlice((d + hi) * w, (long) (kLast - hi) * w).fill((byte) 0);
                } else {
                    for (int kt = 0; kt < kLast; kt++) {
                        int idx = lastTable[oLast * kLast + kt];
                        if (idx < 0) zero(col, d + kt, w);
                        else Elements.copy(x, channelBase + rowOff + idx, col, d + kt, w);
                    }
                }
                // the next tap of the outer kernel axes
                for (int a = last - 1; a >= 0; a--) {
                    if (++tap[a] < g.kernel[a]) break;
                    tap[a] = 0;
                }
            }
        }
    }

    /**
     * Column-matrix rows {@code [lo, hi)}: row {@code r} is channel {@code r / K}, kernel tap {@code r % K};
     * row {@code r} starts at element {@code r·pitch + colOffset} of {@code col}.
     */
    private static void fill(ConvGeometry g, int[][] tables, int w, MemorySegment x, long imageBase, MemorySegment col,
                             long pitch, long colOffset, long lo, long hi) {
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
        // per tap of the last axis: the input index of output 0 when outputs 0.. read consecutive inputs, else -1
        int[] run = new int[kLast];
        for (int kt = 0; kt < kLast; kt++) {
            int first = lastTable[kt];
            boolean consecutive = first >= 0;
            for (int o = 1; o < outLast && consecutive; o++) consecutive = lastTable[o * kLast + kt] == first + o;
            run[kt] = consecutive ? first : -1;
        }
        WindowGeometry.seek(tap, g.kernel, lo % g.kernelTaps);
        for (long r = lo; r < hi; r++) {
            long channelBase = imageBase + (r / g.kernelTaps) * g.inPlane;
            if (r > lo) WindowGeometry.next(tap, g.kernel);
            int first = run[tap[last]];
            long dstRow = r * pitch + colOffset;
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
                    if (first >= 0) {
                        Elements.copyShortRun(x, src + first, col, d, outLast, w);
                    } else for (int o = 0; o < outLast; o++) {
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
