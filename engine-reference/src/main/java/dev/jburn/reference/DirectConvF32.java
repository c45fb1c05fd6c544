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
    /** Computed positions per kept output above which {@link #run} declines (the GEMM path wins). */
    private static final long WASTE_LIMIT = 3;
    /** Input channels per pass over a task's positions (the block's weights for them: 4.5 KB of L1 with 3×3 taps). */
    private static final int CHUNK_CHANNELS = Integer.getInteger("jburn.directconv.chunk", 16);
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final java.nio.ByteOrder ORDER = java.nio.ByteOrder.nativeOrder();

    /**
     * Runs the convolution, or returns false when it does not apply (then the caller writes every output: a Winograd try
     * that met a non-finite value may have written some).
     */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel) {
        // 3×3 kernels with enough channels and filters: Winograd's 2.25× fewer multiply-adds; this form where it declines
        // (shapes, or a non-finite output: then the direct form rewrites every output).
        if (WinogradConvF32.run(g, x, k, dst, parallel)) return true;
        return run(g, x, k, dst, parallel, LANES);
    }

    /**
     * Whether {@link #run} takes {@link FilterLaneTile}s where the groups have at least a tile's filters (32, or 16 with
     * 8-lane vectors): with 512-bit vectors (32 registers hold {@link FilterLaneTile#run}'s 24 accumulators) and with
     * AVX2's 256-bit ones ({@link FilterLaneTile#run6}'s 12 accumulators in 16 registers; there this path's own 8 × 3-vector
     * tile spills its 24 accumulators). Not on other widths, where neither has run.
     */
    static final boolean LANES = (FilterLaneTile.L == 16 || FilterLaneTile.L == 8) && !Boolean.getBoolean("jburn.directconv.nolanes");

    /** {@link #run}, with {@code lanes} false keeping the positions-in-lanes tiles everywhere (tests compare the two). */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel, boolean lanes) {
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
        int spanCap = spanCapacity(rowStart, perTask, outLast);
        long regionCap = (long) spanCap + maxTap + TILE;
        if ((long) g.cg * regionCap + (long) g.groups * ((g.og + NO - 1) / NO) * (spanCap / TILE) * NO * TILE > Integer.MAX_VALUE - 16) {
            return false;
        }
        long cost = (long) perTask * outLast * g.og * g.cg * taps;
        long laneParts = (long) ((g.og + FilterLaneTile.COLS - 1) / FilterLaneTile.COLS) * (spanCap / FilterLaneTile.TILE_ROWS + 1)
                * FilterLaneTile.TILE_ROWS * FilterLaneTile.COLS;
        if (lanes && g.og >= FilterLaneTile.COLS && (long) g.cg * regionCap + laneParts <= Integer.MAX_VALUE - 16) {
            laneTiles(g, x, k, dst, parallel, pdims, planeSize, tapOff, rowStart, outLast, perTask, chunks, tasks, (int) regionCap, cost);
            return true;
        }
        int outerLoop = taps == 1 ? 1 : g.cg;
        int chunk = taps == 1 ? 1 : Math.max(1, Math.min(g.cg, CHUNK_CHANNELS));
        // One tile's sums when a single chunk covers every channel; else every (block, tile) of a task, 8 × TILE floats each.
        int parts = outerLoop > chunk ? blocks * (spanCap / TILE) : 1;
        int tilesCap = parts == 1 ? 0 : spanCap / TILE;
        parallel.forRange(tasks, cost, (lo, hi) -> {
            // The region, then the partial sums of every (block, tile) of the task between channel chunks (8 channels × TILE
            // floats each): one per-thread scratch array, not a fresh one per call.
            int partAt = (int) (g.cg * regionCap);
            float[] region = Scratch.floats(partAt + parts * NO * TILE), part = region;
            int[] channelOffsets = new int[g.cg];
            for (long task = lo; task < hi; task++) {
                int chunkIdx = (int) (task % chunks);
                int grp = (int) (task / chunks % g.groups);
                int b = (int) (task / chunks / g.groups);
                int r0 = chunkIdx * perTask, r1 = (int) Math.min(rows, r0 + (long) perTask);
                int qa = rowStart[r0], qb = rowStart[r1 - 1] + outLast;
                int span = roundUp(qb - qa);
                int nTiles = span / TILE;
                int len = span + maxTap + TILE;
                long channel0 = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
                for (int c = 0; c < g.cg; c++) fillRegion(g, x, channel0 + c * g.inPlane, pdims, planeSize, qa, len, region, c * len);
                // One tap (1×1 kernels): a single loop over channels runs faster than channels × one tap.
                if (taps == 1) {
                    for (int c = 0; c < g.cg; c++) channelOffsets[c] = c * len;
                }
                int[] offs = taps == 1 ? channelOffsets : tapOff;
                long outChannel0 = (long) b * g.outChannels + (long) grp * g.og;
                // Channel chunks outer, then blocks, then positions: a block's weights for one chunk stay in L1 while the
                // chunk's input streams past once per block; each tile's sums wait in part between chunks (stored and
                // reloaded exactly, so every output is still one fma chain over channels, then taps).
                for (int c0 = 0; c0 < outerLoop; c0 += chunk) {
                    int c1 = Math.min(outerLoop, c0 + chunk);
                    boolean last = c1 == outerLoop;
                    for (int blk = 0; blk < blocks; blk++) {
                        int wBase = ((grp * blocks + blk) * g.cg + c0) * taps * NO;
                        int valid = Math.min(NO, g.og - blk * NO);
                        long outBase = (outChannel0 + (long) blk * NO) * g.outPlane;
                        int row = r0;
                        for (int ti = 0; ti < nTiles; ti++) {
                            int q = ti * TILE, q0 = qa + q;
                            int at = partAt + (parts == 1 ? 0 : (blk * tilesCap + ti) * NO * TILE);
                            tile(region, q, len, weights, wBase, c0, c1, offs, part, at, c0 == 0);
                            if (!last) continue;
                            while (row < r1 && rowStart[row] + outLast <= q0) row++;
                            if (dense && valid == NO && q0 + TILE <= qb) {
                                // no dropped positions: the tile is one contiguous run of every channel's output plane
                                for (int j = 0; j < NO; j++) {
                                    store(part, at + j * TILE, dst, (outBase + j * g.outPlane + q0) * Float.BYTES, TILE);
                                }
                            } else {
                                flush(part, at, valid, dst, outBase, g.outPlane, q0, rowStart, row, r1, outLast);
                            }
                        }
                    }
                }
            }
        });
        return true;
    }

    /**
     * The tasks of {@link #run} with {@link FilterLaneTile}s: the same regions (a task's zero-padded channel planes, all
     * {@code len} floats long), 12 positions × 32 filters a tile (6 × 16 on AVX2), each output the fma chain over channels, then taps, that
     * {@link #tile} computes: the same bits. Channel chunks outer, then filter blocks, then positions, as {@link #run}'s.
     */
    private static void laneTiles(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel,
                                  int[] pdims, int planeSize, int[] tapOff, int[] rowStart, int outLast, int perTask, int chunks,
                                  long tasks, int len, long cost) {
        final int cols = FilterLaneTile.COLS, tileRows = FilterLaneTile.TILE_ROWS;
        int taps = tapOff.length;
        int blocks = (g.og + cols - 1) / cols;
        int steps = g.cg * taps;
        int[] stepAt = new int[steps];
        for (int c = 0; c < g.cg; c++) {
            for (int tp = 0; tp < taps; tp++) stepAt[c * taps + tp] = c * len + tapOff[tp];
        }
        int rows = rowStart.length;
        int chunk = Math.max(1, Math.min(g.cg, LANE_CHUNK_CHANNELS));
        int maxTiles = (len - tapOff[taps - 1] - TILE) / tileRows;
        int parts = chunk < g.cg ? blocks * maxTiles : 1;
        HostBuffer wBuffer = packLanes(g, k, blocks);
        try {
            MemorySegment w = wBuffer.segment();
            parallel.forRange(tasks, cost, (lo, hi) -> {
                int partAt = g.cg * len; // the partial sums after the region, in the same per-thread scratch array
                float[] region = Scratch.floats(partAt + parts * tileRows * cols), part = region;
                long[] pieceAt = new long[tileRows];
                int[] laneFrom = new int[tileRows], laneTo = new int[tileRows];
                for (long task = lo; task < hi; task++) {
                    int chunkIdx = (int) (task % chunks);
                    int grp = (int) (task / chunks % g.groups);
                    int b = (int) (task / chunks / g.groups);
                    int r0 = chunkIdx * perTask, r1 = Math.min(rows, r0 + perTask);
                    int qa = rowStart[r0], qb = rowStart[r1 - 1] + outLast;
                    int nTiles = (qb - qa + tileRows - 1) / tileRows;
                    long channel0 = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
                    for (int c = 0; c < g.cg; c++) fillRegion(g, x, channel0 + c * g.inPlane, pdims, planeSize, qa, len, region, c * len);
                    long outChannel0 = (long) b * g.outChannels + (long) grp * g.og;
                    for (int c0 = 0; c0 < g.cg; c0 += chunk) {
                        int c1 = Math.min(g.cg, c0 + chunk);
                        boolean last = c1 == g.cg;
                        for (int blk = 0; blk < blocks; blk++) {
                            long bBase = ((long) (grp * blocks + blk) * steps + (long) c0 * taps) * cols * Float.BYTES;
                            int valid = Math.min(cols, g.og - blk * cols);
                            long outBase = (outChannel0 + (long) blk * cols) * g.outPlane;
                            int row = r0;
                            for (int ti = 0; ti < nTiles; ti++) {
                                int q = ti * tileRows, q0 = qa + q;
                                int at = partAt + (parts == 1 ? 0 : (blk * maxTiles + ti) * tileRows * cols);
                                if (tileRows == FilterLaneTile.ROWS) {
                                    FilterLaneTile.run(region, q, stepAt, c0 * taps, (c1 - c0) * taps, w, bBase, part, at, c0 == 0);
                                } else {
                                    FilterLaneTile.run6(region, q, stepAt, c0 * taps, (c1 - c0) * taps, w, bBase, part, at, c0 == 0);
                                }
                                if (!last) continue;
                                while (row < r1 && rowStart[row] + outLast <= q0) row++;
                                int pieces = pieces(q0, rowStart, row, r1, outLast, outBase, pieceAt, laneFrom, laneTo);
                                FilterLaneTile.store(part, at, valid, dst, g.outPlane * Float.BYTES, pieces, pieceAt, laneFrom, laneTo);
                            }
                        }
                    }
                }
            });
        } finally {
            wBuffer.release();
        }
    }

    /**
     * Input channels per pass of the filter-lane tiles over a task's positions: a 32-filter block's weights for 16
     * channels of 3×3 taps are 18 KB, which stay in L1 while the positions go past (all 64 channels' 74 KB streamed from
     * L2 for each tile: 91 against 110 GFLOP/s on one thread, the ResNet-like conv).
     */
    private static final int LANE_CHUNK_CHANNELS = Integer.getInteger("jburn.directconv.lanechunk", 16);

    /**
     * The output row pieces of a lane tile covering padded positions {@code [q0, q0 + TILE_ROWS)} (rows {@code row..r1-1} that it
     * overlaps, positions past a row's end dropped): per piece, the output byte of the tile's lane 0 as if the piece's row
     * went on (with {@code outBase}, the first filter's plane) and its lanes {@code [laneFrom, laneTo)}; returns the count.
     */
    private static int pieces(int q0, int[] rowStart, int row, int r1, int outLast, long outBase, long[] pieceAt, int[] laneFrom,
                              int[] laneTo) {
        int q1 = q0 + FilterLaneTile.TILE_ROWS, n = 0;
        for (int r = row; r < r1 && rowStart[r] < q1; r++) {
            int s = Math.max(q0, rowStart[r]), e = Math.min(q1, rowStart[r] + outLast);
            if (s >= e) continue;
            pieceAt[n] = (outBase + (long) r * outLast - rowStart[r] + q0) * Float.BYTES;
            laneFrom[n] = s - q0;
            laneTo[n++] = e - q0;
        }
        return n;
    }

    /**
     * The kernel as {@code [group][block of 32 filters][channel][tap][32]} in 64-byte aligned native memory (a pooled
     * host block the caller releases), 0 for filters past the group's last.
     */
    private static HostBuffer packLanes(ConvGeometry g, MemorySegment k, int blocks) {
        final int cols = FilterLaneTile.COLS;
        int taps = (int) g.kernelTaps;
        int steps = g.cg * taps;
        float[] src = new float[(int) ((long) g.outChannels * steps)];
        MemorySegment.copy(k, FL, 0, src, 0, src.length);
        float[] w = new float[g.groups * blocks * steps * cols];
        for (int grp = 0; grp < g.groups; grp++) {
            for (int o = 0; o < g.og; o++) {
                int from = (grp * g.og + o) * steps;
                int to = (grp * blocks + o / cols) * steps * cols + o % cols;
                for (int st = 0; st < steps; st++) w[to + st * cols] = src[from + st];
            }
        }
        HostBuffer b = HostBuffer.uninitialized((long) w.length * Float.BYTES);
        MemorySegment.copy(w, 0, b.segment(), FL, 0, w.length);
        return b;
    }

    /**
     * One register tile: 8 output channels × {@code TILE} positions starting at {@code inPos} of each channel's run in
     * {@code in} (runs {@code plane} apart), continuing the sums in {@code acc[at + j·TILE + p]} (or from zero when
     * {@code fresh}) over channels {@code [c0, c1)} × taps, and storing them back there. Heap arrays only: the copy to
     * the native output is {@link #store}'s.
     */
    private static void tile(float[] in, int inPos, int plane, float[] w, int wBase, int c0, int c1, int[] tapOff,
                             float[] acc, int at, boolean fresh) {
        FloatVector a00, a01, a02, a10, a11, a12, a20, a21, a22, a30, a31, a32;
        FloatVector a40, a41, a42, a50, a51, a52, a60, a61, a62, a70, a71, a72;
        if (fresh) {
            a00 = FloatVector.zero(S);
            a01 = a00; a02 = a00; a10 = a00; a11 = a00; a12 = a00; a20 = a00; a21 = a00; a22 = a00;
            a30 = a00; a31 = a00; a32 = a00; a40 = a00; a41 = a00; a42 = a00; a50 = a00; a51 = a00; a52 = a00;
            a60 = a00; a61 = a00; a62 = a00; a70 = a00; a71 = a00; a72 = a00;
        } else {
            a00 = FloatVector.fromArray(S, acc, at + 0 * L); a01 = FloatVector.fromArray(S, acc, at + 1 * L);
            a02 = FloatVector.fromArray(S, acc, at + 2 * L); a10 = FloatVector.fromArray(S, acc, at + 3 * L);
            a11 = FloatVector.fromArray(S, acc, at + 4 * L); a12 = FloatVector.fromArray(S, acc, at + 5 * L);
            a20 = FloatVector.fromArray(S, acc, at + 6 * L); a21 = FloatVector.fromArray(S, acc, at + 7 * L);
            a22 = FloatVector.fromArray(S, acc, at + 8 * L); a30 = FloatVector.fromArray(S, acc, at + 9 * L);
            a31 = FloatVector.fromArray(S, acc, at + 10 * L); a32 = FloatVector.fromArray(S, acc, at + 11 * L);
            a40 = FloatVector.fromArray(S, acc, at + 12 * L); a41 = FloatVector.fromArray(S, acc, at + 13 * L);
            a42 = FloatVector.fromArray(S, acc, at + 14 * L); a50 = FloatVector.fromArray(S, acc, at + 15 * L);
            a51 = FloatVector.fromArray(S, acc, at + 16 * L); a52 = FloatVector.fromArray(S, acc, at + 17 * L);
            a60 = FloatVector.fromArray(S, acc, at + 18 * L); a61 = FloatVector.fromArray(S, acc, at + 19 * L);
            a62 = FloatVector.fromArray(S, acc, at + 20 * L); a70 = FloatVector.fromArray(S, acc, at + 21 * L);
            a71 = FloatVector.fromArray(S, acc, at + 22 * L); a72 = FloatVector.fromArray(S, acc, at + 23 * L);
        }
        int taps = tapOff.length;
        int wi = wBase;
        for (int c = c0; c < c1; c++) {
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
        a00.intoArray(acc, at + 0 * L); a01.intoArray(acc, at + 1 * L); a02.intoArray(acc, at + 2 * L);
        a10.intoArray(acc, at + 3 * L); a11.intoArray(acc, at + 4 * L); a12.intoArray(acc, at + 5 * L);
        a20.intoArray(acc, at + 6 * L); a21.intoArray(acc, at + 7 * L); a22.intoArray(acc, at + 8 * L);
        a30.intoArray(acc, at + 9 * L); a31.intoArray(acc, at + 10 * L); a32.intoArray(acc, at + 11 * L);
        a40.intoArray(acc, at + 12 * L); a41.intoArray(acc, at + 13 * L); a42.intoArray(acc, at + 14 * L);
        a50.intoArray(acc, at + 15 * L); a51.intoArray(acc, at + 16 * L); a52.intoArray(acc, at + 17 * L);
        a60.intoArray(acc, at + 18 * L); a61.intoArray(acc, at + 19 * L); a62.intoArray(acc, at + 20 * L);
        a70.intoArray(acc, at + 21 * L); a71.intoArray(acc, at + 22 * L); a72.intoArray(acc, at + 23 * L);
    }

    /**
     * Positions {@code [qa, qa + len)} of one channel's zero-padded plane (flattened), into
     * {@code region[at..]}: the input row pieces that land there, zeros around them.
     */
    private static void fillRegion(ConvGeometry g, MemorySegment x, long channel, int[] pdims, int plane, int qa, int len,
                                   float[] region, int at) {
        int last = g.spatialRank - 1;
        int rowLen = pdims[last], lo = g.spec.padLow()[last];
        int from = Math.max(0, -lo), to = Math.min(g.in[last], rowLen - lo); // kept input columns (negative padding crops)
        int zeroFrom = 0; // zeros only between the copied pieces (the whole region first: 2x the stores)
        if (to > from) {
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
                    if (a > zeroFrom) java.util.Arrays.fill(region, at + zeroFrom, at + a, 0f);
                    load(x, (channel + inRow * g.in[last] + from + (a - start)) * Float.BYTES, region, at + a, b - a);
                    zeroFrom = b;
                }
            }
        }
        if (len > zeroFrom) java.util.Arrays.fill(region, at + zeroFrom, at + len, 0f);
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
    private static void flush(float[] tile, int from, int valid, MemorySegment dst, long outBase, long outPlane, int q0,
                              int[] rowStart, int row, int r1, int outLast) {
        int q1 = q0 + TILE;
        for (int r = row; r < r1 && rowStart[r] < q1; r++) {
            int s = Math.max(q0, rowStart[r]), e = Math.min(q1, rowStart[r] + outLast);
            if (s >= e) continue;
            long at = outBase + (long) r * outLast + (s - rowStart[r]);
            for (int j = 0; j < valid; j++) store(tile, from + j * TILE + (s - q0), dst, (at + j * outPlane) * Float.BYTES, e - s);
        }
    }

    /** {@code n} floats from {@code src} at byte {@code offset} into {@code dst[at..]} (short runs: vector moves beat MemorySegment.copy). */
    static void load(MemorySegment src, long offset, float[] dst, int at, int n) {
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
