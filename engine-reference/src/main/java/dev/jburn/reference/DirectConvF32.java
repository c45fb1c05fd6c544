package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Direct F32 convolution for unit strides and no input dilation (any padding, kernel dilation,
 * groups, spatial rank). Each input image is copied once into a zero-padded heap array; in
 * that padded plane, flattened row-major, output position {@code q} reads input {@code q + tap}
 * for a fixed offset per kernel tap, so a run of consecutive outputs reads a run of consecutive
 * inputs — across row ends too. The kernel computes whole runs (the few positions past each row's
 * end are computed and dropped) with a 4-channel × 4-vector register tile:
 * {@code acc[j][x] = fma(in[q + tap + x·L], w[o+j, c, tap], acc[j][x])} over channels, then taps.
 * Every output sums channel-major, taps row-major, in F32 with fma.
 */
final class DirectConvF32 {
    private DirectConvF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Output channels per register tile. */
    private static final int NO = 4;
    /** Vectors of output positions per register tile. */
    private static final int NX = 4;
    private static final int TILE = NX * L;
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;

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
        long total = (long) g.batch * g.channels * plane + 2L * TILE;
        if (total > Integer.MAX_VALUE - 16 || plane == 0) return false;
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
        float[] padded = pad(g, x, pdims, planeSize, (int) total, parallel);
        float[] weights = packWeights(g, k);

        // Output rows: all spatial axes but the last; row r starts at position rowStart(r) of the padded plane.
        int outLast = g.out[sr - 1];
        long rows = g.outPlane / outLast;
        int[] rowStart = new int[(int) rows];
        int[] pos = new int[Math.max(sr - 1, 0)];
        int[] outerDims = java.util.Arrays.copyOf(g.out, sr - 1);
        for (int r = 0; r < rows; r++) {
            long off = 0;
            for (int i = 0; i < sr - 1; i++) off += pos[i] * pstrides[i];
            rowStart[r] = (int) off;
            WindowGeometry.next(pos, outerDims);
        }
        int rowsPerTask = (int) Math.max(1, Math.min(rows, (8L * TILE + outLast - 1) / outLast));
        int chunks = (int) ((rows + rowsPerTask - 1) / rowsPerTask);
        long tasks = (long) g.outBatch * g.groups * chunks;
        int blocks = (g.og + NO - 1) / NO;
        long cost = (long) rowsPerTask * outLast * g.og * g.cg * taps;
        parallel.forRange(tasks, cost, (lo, hi) -> {
            float[] tmp = new float[NO * spanCapacity(rowStart, rowsPerTask, outLast)];
            for (long task = lo; task < hi; task++) {
                int chunk = (int) (task % chunks);
                int grp = (int) (task / chunks % g.groups);
                int b = (int) (task / chunks / g.groups);
                int r0 = chunk * rowsPerTask, r1 = (int) Math.min(rows, r0 + (long) rowsPerTask);
                int qa = rowStart[r0], qb = rowStart[r1 - 1] + outLast;
                int span = roundUp(qb - qa);
                int inBase = (int) (((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * planeSize);
                for (int blk = 0; blk < blocks; blk++) {
                    int wBase = (grp * blocks + blk) * g.cg * taps * NO;
                    for (int q = 0; q < span; q += TILE) {
                        tile(padded, inBase + qa + q, planeSize, weights, wBase, g.cg, tapOff, tmp, q, span);
                    }
                    int valid = Math.min(NO, g.og - blk * NO);
                    for (int j = 0; j < valid; j++) {
                        long outChan = (long) b * g.outChannels + (long) grp * g.og + blk * NO + j;
                        long outBase = outChan * g.outPlane;
                        for (int r = r0; r < r1; r++) {
                            MemorySegment.copy(tmp, j * span + rowStart[r] - qa, dst, FL,
                                    (outBase + (long) r * outLast) * Float.BYTES, outLast);
                        }
                    }
                }
            }
        });
        return true;
    }

    /** One register tile: 4 output channels × {@code TILE} positions starting at padded index {@code in}. */
    private static void tile(float[] in, int inPos, int plane, float[] w, int wBase, int channels, int[] tapOff,
                             float[] tmp, int q, int span) {
        FloatVector a00 = FloatVector.zero(S), a01 = a00, a02 = a00, a03 = a00;
        FloatVector a10 = a00, a11 = a00, a12 = a00, a13 = a00;
        FloatVector a20 = a00, a21 = a00, a22 = a00, a23 = a00;
        FloatVector a30 = a00, a31 = a00, a32 = a00, a33 = a00;
        int taps = tapOff.length;
        int wi = wBase;
        for (int c = 0; c < channels; c++) {
            int cBase = inPos + c * plane;
            for (int tp = 0; tp < taps; tp++, wi += NO) {
                int p = cBase + tapOff[tp];
                FloatVector x0 = FloatVector.fromArray(S, in, p);
                FloatVector x1 = FloatVector.fromArray(S, in, p + L);
                FloatVector x2 = FloatVector.fromArray(S, in, p + 2 * L);
                FloatVector x3 = FloatVector.fromArray(S, in, p + 3 * L);
                FloatVector w0 = FloatVector.broadcast(S, w[wi]);
                a00 = x0.fma(w0, a00); a01 = x1.fma(w0, a01); a02 = x2.fma(w0, a02); a03 = x3.fma(w0, a03);
                FloatVector w1 = FloatVector.broadcast(S, w[wi + 1]);
                a10 = x0.fma(w1, a10); a11 = x1.fma(w1, a11); a12 = x2.fma(w1, a12); a13 = x3.fma(w1, a13);
                FloatVector w2 = FloatVector.broadcast(S, w[wi + 2]);
                a20 = x0.fma(w2, a20); a21 = x1.fma(w2, a21); a22 = x2.fma(w2, a22); a23 = x3.fma(w2, a23);
                FloatVector w3 = FloatVector.broadcast(S, w[wi + 3]);
                a30 = x0.fma(w3, a30); a31 = x1.fma(w3, a31); a32 = x2.fma(w3, a32); a33 = x3.fma(w3, a33);
            }
        }
        a00.intoArray(tmp, q); a01.intoArray(tmp, q + L); a02.intoArray(tmp, q + 2 * L); a03.intoArray(tmp, q + 3 * L);
        int r1 = span + q;
        a10.intoArray(tmp, r1); a11.intoArray(tmp, r1 + L); a12.intoArray(tmp, r1 + 2 * L); a13.intoArray(tmp, r1 + 3 * L);
        int r2 = 2 * span + q;
        a20.intoArray(tmp, r2); a21.intoArray(tmp, r2 + L); a22.intoArray(tmp, r2 + 2 * L); a23.intoArray(tmp, r2 + 3 * L);
        int r3 = 3 * span + q;
        a30.intoArray(tmp, r3); a31.intoArray(tmp, r3 + L); a32.intoArray(tmp, r3 + 2 * L); a33.intoArray(tmp, r3 + 3 * L);
    }

    /** Every image and channel in a zero-padded plane of {@code pdims}; the array ends with zero slack for tile over-reads. */
    private static float[] pad(ConvGeometry g, MemorySegment x, int[] pdims, int plane, int total, Parallel parallel) {
        float[] out = new float[total];
        int sr = g.spatialRank;
        int last = sr - 1;
        int lo = g.spec.padLow()[last];
        // Kept input range along the last axis (negative padding crops).
        int from = Math.max(0, -lo), to = Math.min(g.in[last], pdims[last] - lo);
        int[] outer = java.util.Arrays.copyOf(g.in, last);
        long inRows = g.inPlane / Math.max(g.in[last], 1);
        long[] pstrides = new long[sr];
        long s = 1;
        for (int i = sr - 1; i >= 0; i--) {
            pstrides[i] = s;
            s *= pdims[i];
        }
        long planes = (long) g.batch * g.channels;
        parallel.forRange(planes, g.inPlane, (a, b) -> {
            int[] pos = new int[last];
            for (long pl = a; pl < b; pl++) {
                java.util.Arrays.fill(pos, 0);
                for (long r = 0; r < inRows; r++) {
                    long dstRow = pl * plane;
                    boolean inside = true;
                    for (int i = 0; i < last; i++) {
                        long p = pos[i] + (long) g.spec.padLow()[i];
                        inside &= p >= 0 && p < pdims[i];
                        dstRow += p * pstrides[i];
                    }
                    if (inside && to > from) {
                        long srcIndex = pl * g.inPlane + r * g.in[last] + from;
                        MemorySegment.copy(x, FL, srcIndex * Float.BYTES, out, (int) (dstRow + lo + from), to - from);
                    }
                    WindowGeometry.next(pos, outer);
                }
            }
        });
        return out;
    }

    /** Weights as {@code [group][block of 4 output channels][channel][tap][4]}; missing channels of a last partial block are 0. */
    private static float[] packWeights(ConvGeometry g, MemorySegment k) {
        int taps = (int) g.kernelTaps;
        int blocks = (g.og + NO - 1) / NO;
        float[] w = new float[g.groups * blocks * g.cg * taps * NO];
        for (int grp = 0; grp < g.groups; grp++) {
            for (int o = 0; o < g.og; o++) {
                int blk = o / NO, j = o % NO;
                long src = ((long) grp * g.og + o) * g.cg * taps;
                int dstBase = (grp * blocks + blk) * g.cg * taps * NO + j;
                for (int c = 0; c < g.cg; c++) {
                    for (int tp = 0; tp < taps; tp++) {
                        w[dstBase + (c * taps + tp) * NO] = k.getAtIndex(FL, src + (long) c * taps + tp);
                    }
                }
            }
        }
        return w;
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
