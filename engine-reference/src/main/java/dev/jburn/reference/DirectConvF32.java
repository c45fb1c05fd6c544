package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Direct F32 convolution for unit strides and no input dilation (any padding, kernel dilation,
 * groups, spatial rank). Think of each input channel zero-padded into a plane of
 * {@code n + lo + hi} per axis: flattened row-major, output position {@code q} reads padded input
 * {@code q + tap} for a fixed offset per kernel tap, so a run of consecutive outputs reads a run
 * of consecutive inputs, across row ends too. A task (image, group, run of output rows) copies
 * the part of the padded planes that its run reads into a heap buffer (cache-warm, no bounds
 * logic in the kernel), then computes whole runs — the few positions past each row's end are
 * computed and dropped — with an 8-channel × 3-vector register tile:
 * {@code acc[j][x] = fma(in[q + tap + x·L], w[o+j, c, tap], acc[j][x])} over channels, then taps.
 * Every output sums channel-major, taps row-major, in F32 with fma.
 */
final class DirectConvF32 {
    private DirectConvF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Output channels per register tile. */
    private static final int NO = 8;
    /** Vectors of output positions per register tile. */
    private static final int NX = 3;
    private static final int TILE = NX * L;
    /** Floats of padded input a task copies at most (384 KB: stays in a 1-2 MB L2 beside the weights). */
    private static final long REGION_FLOATS = 96 * 1024;
    /** Weight bytes of a group of channel blocks kept in L1 beside a tile's input. */
    private static final long L1_WEIGHT_BYTES = 12 * 1024;
    /** Computed positions per kept output above which {@link #run} declines (the GEMM path wins). */
    private static final long WASTE_LIMIT = 3;
    private static final long VBYTES = (long) L * Float.BYTES;
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final java.nio.ByteOrder ORDER = java.nio.ByteOrder.nativeOrder();

    /** Runs the convolution, or returns false when it does not apply (then nothing was written). */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel) {
        int sr = g.spatialRank;
        for (int i = 0; i < sr; i++) {
            if (g.spec.strides()[i] != 1 || g.spec.inputDilation()[i] != 1) return false;
        }
        // Padded plane: n + lo + hi per axis (negative padding crops).
        int[] pdims = new int[sr];
        long plane = 1;
        for (int i = 0; i < sr; i++) {
            pdims[i] = g.in[i] + g.spec.padLow()[i] + g.spec.padHigh()[i];
            plane *= pdims[i];
        }
        long packed = (long) g.groups * ((g.og + NO - 1) / NO) * NO * g.cg * g.kernelTaps;
        if (plane == 0 || plane > Integer.MAX_VALUE - 16 || packed > Integer.MAX_VALUE - 16) return false;
        int planeSize = (int) plane;
        long[] pstrides = new long[sr];
        long s = 1;
        for (int i = sr - 1; i >= 0; i--) {
            pstrides[i] = s;
            s *= pdims[i];
        }
        int taps = (int) g.kernelTaps;
        int[] tapOff = new int[taps];
        int[] t = new int[sr];
        for (int tp = 0; tp < taps; tp++) {
            long off = 0;
            for (int i = 0; i < sr; i++) off += (long) t[i] * g.spec.kernelDilation()[i] * pstrides[i];
            tapOff[tp] = (int) off;
            WindowGeometry.next(t, g.kernel);
        }
        // Output rows: all spatial axes but the last; row r starts at position rowStart(r) of the padded plane.
        int outLast = g.out[sr - 1];
        long rows = g.outPlane / outLast;
        int[] rowStart = new int[(int) rows];
        int[] pos = new int[sr - 1];
        int[] outerDims = java.util.Arrays.copyOf(g.out, sr - 1);
        for (int r = 0; r < rows; r++) {
            long off = 0;
            for (int i = 0; i < sr - 1; i++) off += pos[i] * pstrides[i];
            rowStart[r] = (int) off;
            WindowGeometry.next(pos, outerDims);
        }
        // Runs compute whole padded rows: when the output is a small corner of the padded plane (the
        // kernel cotangent's conv: a few outputs, a kernel as large as the image) most of that work
        // would be dropped, and the column-matrix GEMM does better.
        long computed = (long) roundUp(rowStart[(int) rows - 1] + outLast - rowStart[0]);
        if (computed > WASTE_LIMIT * g.outPlane) return false;
        float[] weights = packWeights(g, k);
        int maxTap = tapOff[taps - 1];
        // Output as wide as the padded plane on every axis but the first: output index == padded position.
        boolean dense = java.util.stream.IntStream.range(1, sr).allMatch(i -> g.out[i] == pdims[i]);
        int rowPitch = sr == 1 ? planeSize : (int) pstrides[sr - 2];
        // A task's padded input (channels × (span + halo)) should stay in L2; enough tasks to share out.
        long budget = Math.max(TILE, REGION_FLOATS / g.cg - maxTap - TILE);
        long rowsPerTask = Math.max(1, Math.min(rows, budget / rowPitch));
        long wanted = 4L * parallel.threads();
        long images = (long) g.outBatch * g.groups;
        if (images < wanted) {
            long perImage = (wanted + images - 1) / images;
            rowsPerTask = Math.min(rowsPerTask, Math.max(1, (rows + perImage - 1) / perImage));
        }
        int perTask = (int) rowsPerTask;
        int chunks = (int) ((rows + perTask - 1) / perTask);
        long tasks = images * chunks;
        int blocks = (g.og + NO - 1) / NO;
        long blockWeightBytes = (long) g.cg * taps * NO * Float.BYTES;
        int group = blockWeightBytes <= L1_WEIGHT_BYTES / 2 ? (int) (L1_WEIGHT_BYTES / blockWeightBytes) : blocks;
        int spanCap = spanCapacity(rowStart, perTask, outLast);
        long regionCap = (long) spanCap + maxTap + TILE;
        if ((long) g.cg * regionCap > Integer.MAX_VALUE - 16) return false;
        long cost = (long) perTask * outLast * g.og * g.cg * taps;
        parallel.forRange(tasks, cost, (lo, hi) -> {
            float[] region = Scratch.floats((int) (g.cg * regionCap));
            float[] tile = new float[NO * TILE];
            int[] channelOffsets = new int[g.cg];
            for (long task = lo; task < hi; task++) {
                int chunk = (int) (task % chunks);
                int grp = (int) (task / chunks % g.groups);
                int b = (int) (task / chunks / g.groups);
                int r0 = chunk * perTask, r1 = (int) Math.min(rows, r0 + (long) perTask);
                int qa = rowStart[r0], qb = rowStart[r1 - 1] + outLast;
                int span = roundUp(qb - qa);
                int len = span + maxTap + TILE;
                long channel0 = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
                for (int c = 0; c < g.cg; c++) fillRegion(g, x, channel0 + c * g.inPlane, pdims, planeSize, qa, len, region, c * len);
                // One tap (1×1 kernels): a single loop over channels runs faster than channels × one tap.
                if (taps == 1) {
                    for (int c = 0; c < g.cg; c++) channelOffsets[c] = c * len;
                }
                int[] offs = taps == 1 ? channelOffsets : tapOff;
                int outerLoop = taps == 1 ? 1 : g.cg;
                long outChannel0 = (long) b * g.outChannels + (long) grp * g.og;
                // Positions outer, channel blocks inner, so a tile's input stays in L1 across the blocks; small
                // kernels go in groups of blocks whose weights fit L1 beside it.
                for (int g0 = 0; g0 < blocks; g0 += group) {
                    int g1 = Math.min(blocks, g0 + group);
                    int row = r0;
                    for (int q = 0; q < span; q += TILE) {
                        int q0 = qa + q;
                        while (row < r1 && rowStart[row] + outLast <= q0) row++;
                        for (int blk = g0; blk < g1; blk++) {
                            int wBase = (grp * blocks + blk) * g.cg * taps * NO;
                            int valid = Math.min(NO, g.og - blk * NO);
                            long outBase = (outChannel0 + (long) blk * NO) * g.outPlane;
                            if (dense && valid == NO && q0 + TILE <= qb) {
                                // no dropped positions: the tile is one contiguous run of every channel's output plane
                                tile(region, q, len, weights, wBase, outerLoop, offs, null, dst, (outBase + q0) * Float.BYTES,
                                        g.outPlane * Float.BYTES);
                            } else {
                                tile(region, q, len, weights, wBase, outerLoop, offs, tile, null, 0, 0);
                                flush(tile, valid, dst, outBase, g.outPlane, q0, rowStart, row, r1, outLast);
                            }
                        }
                    }
                }
            }
        });
        return true;
    }

    /**
     * One register tile: 8 output channels × {@code TILE} positions starting at {@code inPos} of each
     * channel's run in {@code in} (runs {@code plane} apart), summing channels × taps; the result goes to
     * {@code out[j·TILE + p]} for channel {@code j}, or, when {@code dst} is given, straight to {@code dst}
     * (channel {@code j} at byte {@code dstByte + j·chanBytes}).
     */
    private static void tile(float[] in, int inPos, int plane, float[] w, int wBase, int channels, int[] tapOff, float[] out,
                             MemorySegment dst, long dstByte, long chanBytes) {
        FloatVector a00 = FloatVector.zero(S);
        FloatVector a01 = a00, a02 = a00, a10 = a00, a11 = a00, a12 = a00, a20 = a00;
        FloatVector a21 = a00, a22 = a00, a30 = a00, a31 = a00, a32 = a00, a40 = a00;
        FloatVector a41 = a00, a42 = a00, a50 = a00, a51 = a00, a52 = a00, a60 = a00;
        FloatVector a61 = a00, a62 = a00, a70 = a00, a71 = a00, a72 = a00;
        int taps = tapOff.length;
        int wi = wBase;
        for (int c = 0; c < channels; c++) {
            int cBase = inPos + c * plane;
            for (int tp = 0; tp < taps; tp++, wi += NO) {
                int p = cBase + tapOff[tp];
                FloatVector x0 = FloatVector.fromArray(S, in, p + 0 * L);
                FloatVector x1 = FloatVector.fromArray(S, in, p + 1 * L);
                FloatVector x2 = FloatVector.fromArray(S, in, p + 2 * L);
                FloatVector w0 = FloatVector.broadcast(S, w[wi + 0]);
                a00 = x0.fma(w0, a00); a01 = x1.fma(w0, a01); a02 = x2.fma(w0, a02);
                FloatVector w1 = FloatVector.broadcast(S, w[wi + 1]);
                a10 = x0.fma(w1, a10); a11 = x1.fma(w1, a11); a12 = x2.fma(w1, a12);
                FloatVector w2 = FloatVector.broadcast(S, w[wi + 2]);
                a20 = x0.fma(w2, a20); a21 = x1.fma(w2, a21); a22 = x2.fma(w2, a22);
                FloatVector w3 = FloatVector.broadcast(S, w[wi + 3]);
                a30 = x0.fma(w3, a30); a31 = x1.fma(w3, a31); a32 = x2.fma(w3, a32);
                FloatVector w4 = FloatVector.broadcast(S, w[wi + 4]);
                a40 = x0.fma(w4, a40); a41 = x1.fma(w4, a41); a42 = x2.fma(w4, a42);
                FloatVector w5 = FloatVector.broadcast(S, w[wi + 5]);
                a50 = x0.fma(w5, a50); a51 = x1.fma(w5, a51); a52 = x2.fma(w5, a52);
                FloatVector w6 = FloatVector.broadcast(S, w[wi + 6]);
                a60 = x0.fma(w6, a60); a61 = x1.fma(w6, a61); a62 = x2.fma(w6, a62);
                FloatVector w7 = FloatVector.broadcast(S, w[wi + 7]);
                a70 = x0.fma(w7, a70); a71 = x1.fma(w7, a71); a72 = x2.fma(w7, a72);
            }
        }
        if (dst == null) {
            a00.intoArray(out, 0 * L); a01.intoArray(out, 1 * L); a02.intoArray(out, 2 * L);
            a10.intoArray(out, 3 * L); a11.intoArray(out, 4 * L); a12.intoArray(out, 5 * L);
            a20.intoArray(out, 6 * L); a21.intoArray(out, 7 * L); a22.intoArray(out, 8 * L);
            a30.intoArray(out, 9 * L); a31.intoArray(out, 10 * L); a32.intoArray(out, 11 * L);
            a40.intoArray(out, 12 * L); a41.intoArray(out, 13 * L); a42.intoArray(out, 14 * L);
            a50.intoArray(out, 15 * L); a51.intoArray(out, 16 * L); a52.intoArray(out, 17 * L);
            a60.intoArray(out, 18 * L); a61.intoArray(out, 19 * L); a62.intoArray(out, 20 * L);
            a70.intoArray(out, 21 * L); a71.intoArray(out, 22 * L); a72.intoArray(out, 23 * L);
        } else {
            long o0 = dstByte + 0 * chanBytes;
            a00.intoMemorySegment(dst, o0 + 0 * VBYTES, ORDER); a01.intoMemorySegment(dst, o0 + 1 * VBYTES, ORDER);
            a02.intoMemorySegment(dst, o0 + 2 * VBYTES, ORDER);
            long o1 = dstByte + 1 * chanBytes;
            a10.intoMemorySegment(dst, o1 + 0 * VBYTES, ORDER); a11.intoMemorySegment(dst, o1 + 1 * VBYTES, ORDER);
            a12.intoMemorySegment(dst, o1 + 2 * VBYTES, ORDER);
            long o2 = dstByte + 2 * chanBytes;
            a20.intoMemorySegment(dst, o2 + 0 * VBYTES, ORDER); a21.intoMemorySegment(dst, o2 + 1 * VBYTES, ORDER);
            a22.intoMemorySegment(dst, o2 + 2 * VBYTES, ORDER);
            long o3 = dstByte + 3 * chanBytes;
            a30.intoMemorySegment(dst, o3 + 0 * VBYTES, ORDER); a31.intoMemorySegment(dst, o3 + 1 * VBYTES, ORDER);
            a32.intoMemorySegment(dst, o3 + 2 * VBYTES, ORDER);
            long o4 = dstByte + 4 * chanBytes;
            a40.intoMemorySegment(dst, o4 + 0 * VBYTES, ORDER); a41.intoMemorySegment(dst, o4 + 1 * VBYTES, ORDER);
            a42.intoMemorySegment(dst, o4 + 2 * VBYTES, ORDER);
            long o5 = dstByte + 5 * chanBytes;
            a50.intoMemorySegment(dst, o5 + 0 * VBYTES, ORDER); a51.intoMemorySegment(dst, o5 + 1 * VBYTES, ORDER);
            a52.intoMemorySegment(dst, o5 + 2 * VBYTES, ORDER);
            long o6 = dstByte + 6 * chanBytes;
            a60.intoMemorySegment(dst, o6 + 0 * VBYTES, ORDER); a61.intoMemorySegment(dst, o6 + 1 * VBYTES, ORDER);
            a62.intoMemorySegment(dst, o6 + 2 * VBYTES, ORDER);
            long o7 = dstByte + 7 * chanBytes;
            a70.intoMemorySegment(dst, o7 + 0 * VBYTES, ORDER); a71.intoMemorySegment(dst, o7 + 1 * VBYTES, ORDER);
            a72.intoMemorySegment(dst, o7 + 2 * VBYTES, ORDER);
        }
    }

    /**
     * Positions {@code [qa, qa + len)} of one channel's zero-padded plane (flattened), into
     * {@code region[at..]}: zeros, then the input row pieces that land there.
     */
    private static void fillRegion(ConvGeometry g, MemorySegment x, long channel, int[] pdims, int plane, int qa, int len,
                                   float[] region, int at) {
        java.util.Arrays.fill(region, at, at + len, 0f);
        int last = g.spatialRank - 1;
        int rowLen = pdims[last], lo = g.spec.padLow()[last];
        int from = Math.max(0, -lo), to = Math.min(g.in[last], rowLen - lo); // kept input columns (negative padding crops)
        if (to <= from) return;
        int firstRow = qa / rowLen, lastRow = Math.min(plane / rowLen - 1, (qa + len - 1) / rowLen);
        for (int pr = firstRow; pr <= lastRow; pr++) {
            long inRow = 0, mult = 1;
            int rest = pr;
            boolean inside = true;
            for (int i = last - 1; i >= 0 && inside; i--) {
                int coord = rest % pdims[i] - g.spec.padLow()[i];
                rest /= pdims[i];
                inside = coord >= 0 && coord < g.in[i];
                inRow += coord * mult;
                mult *= g.in[i];
            }
            if (!inside) continue;
            int start = pr * rowLen + lo + from - qa;
            int a = Math.max(0, start), b = Math.min(len, start + (to - from));
            if (a < b) {
                load(x, (channel + inRow * g.in[last] + from + (a - start)) * Float.BYTES, region, at + a, b - a);
            }
        }
    }

    /** Weights as {@code [group][block of 4 output channels][channel][tap][4]}; missing channels of a last partial block are 0. */
    private static float[] packWeights(ConvGeometry g, MemorySegment k) {
        int taps = (int) g.kernelTaps;
        int blocks = (g.og + NO - 1) / NO;
        float[] w = new float[g.groups * blocks * g.cg * taps * NO];
        float[] src = new float[(int) ((long) g.outChannels * g.cg * taps)];
        MemorySegment.copy(k, FL, 0, src, 0, src.length);
        for (int grp = 0; grp < g.groups; grp++) {
            for (int o = 0; o < g.og; o++) {
                int blk = o / NO, j = o % NO;
                int from = (grp * g.og + o) * g.cg * taps;
                int dstBase = (grp * blocks + blk) * g.cg * taps * NO + j;
                for (int c = 0; c < g.cg; c++) {
                    for (int tp = 0; tp < taps; tp++) {
                        w[dstBase + (c * taps + tp) * NO] = src[from + c * taps + tp];
                    }
                }
            }
        }
        return w;
    }

    /**
     * Writes the valid channels of a tile that covers padded positions {@code [q0, q0 + TILE)}: the
     * parts of output rows {@code row..r1-1} it overlaps (positions past a row's end are dropped).
     */
    private static void flush(float[] tile, int valid, MemorySegment dst, long outBase, long outPlane, int q0,
                              int[] rowStart, int row, int r1, int outLast) {
        int q1 = q0 + TILE;
        for (int r = row; r < r1 && rowStart[r] < q1; r++) {
            int s = Math.max(q0, rowStart[r]), e = Math.min(q1, rowStart[r] + outLast);
            if (s >= e) continue;
            long at = outBase + (long) r * outLast + (s - rowStart[r]);
            for (int j = 0; j < valid; j++) store(tile, j * TILE + (s - q0), dst, (at + j * outPlane) * Float.BYTES, e - s);
        }
    }

    /** {@code n} floats from {@code src} at byte {@code offset} into {@code dst[at..]} (short runs: vector moves beat MemorySegment.copy). */
    private static void load(MemorySegment src, long offset, float[] dst, int at, int n) {
        int i = 0;
        for (; i <= n - L; i += L) FloatVector.fromMemorySegment(S, src, offset + (long) i * Float.BYTES, ORDER).intoArray(dst, at + i);
        if (i < n) {
            VectorMask<Float> m = S.indexInRange(i, n);
            FloatVector.fromMemorySegment(S, src, offset + (long) i * Float.BYTES, ORDER, m).intoArray(dst, at + i, m);
        }
    }

    /** {@code n} floats from {@code src[at..]} to {@code dst} at byte {@code offset}. */
    private static void store(float[] src, int at, MemorySegment dst, long offset, int n) {
        int i = 0;
        for (; i <= n - L; i += L) FloatVector.fromArray(S, src, at + i).intoMemorySegment(dst, offset + (long) i * Float.BYTES, ORDER);
        if (i < n) {
            VectorMask<Float> m = S.indexInRange(i, n);
            FloatVector.fromArray(S, src, at + i, m).intoMemorySegment(dst, offset + (long) i * Float.BYTES, ORDER, m);
        }
    }

    private static int roundUp(int n) { return (n + TILE - 1) / TILE * TILE; }

    /** The largest rounded span of {@code rowsPerTask} consecutive rows. */
    private static int spanCapacity(int[] rowStart, int rowsPerTask, int outLast) {
        int max = 0;
        for (int r0 = 0; r0 < rowStart.length; r0 += rowsPerTask) {
            int r1 = Math.min(rowStart.length, r0 + rowsPerTask);
            max = Math.max(max, roundUp(rowStart[r1 - 1] + outLast - rowStart[r0]));
        }
        return max;
    }
}
