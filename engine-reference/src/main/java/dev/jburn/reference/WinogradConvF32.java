package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * 3×3 F32 convolutions (2 spatial axes, unit strides, no dilation, any padding and groups) as Winograd F(2×2, 3×3):
 * each 2×2 block of outputs ("tile") from its 4×4 input patch {@code d} as {@code Aᵀ[Σ_c (G g Gᵀ) ⊙ (Bᵀ d B)]A}, so
 * 16 multiply-adds per channel and filter where the direct form has 36 (2.25× fewer). Per task (image, group, a band of
 * tile rows): the zero-padded input rows are copied to a heap region, transformed to {@code V[point][channel][tile]}
 * (16 tiles in the lanes, the patch columns deinterleaved from two loads); each of the 16 points is a GEMM over the
 * channels with the transformed kernel, run by {@link FilterLaneTile#run} (12 tiles × 32 filters, the kernel packed per
 * point {@code [point][block][channel][32]} in aligned native memory; with AVX2's 8 lanes {@link FilterLaneTile#run6}, 6
 * tiles × 16 filters, which fits 16 registers); the output transform takes a tile group's 16
 * points to its 2×2 outputs per filter, which are gathered per filter and stored with masks (as {@link FilterLaneTile#store}).
 *
 * <p><b>F(4×4, 3×3) with AVX2 and AVX-512</b> ({@link #fourByFour}): the same tasks with 4×4 tiles from 6×6 patches, 36 points, so 36
 * multiply-adds per channel, filter and 16 outputs where F(2×2) has 64 (1.78× fewer GEMM products). Its transforms are
 * {@link WinogradF43}'s, shared with {@link ChannelsLastWinograd4x4F32}: the input side a channel at a time (its padded rows
 * split by column phase, {@link #fillPhases}, then {@link WinogradF43#transformInput} on 8 tiles a vector), the output
 * side {@link #transformOutput4}. The ResNet-like conv (and its input cotangent, the same conv with the flipped kernel)
 * on one AVX2 thread: 45 ms by F(2×2), 29-31 by F(4×4), of which the point GEMMs ~16.5, the input side ~6.5 (the row split
 * ~4), the output transform ~3.5 and the stores ~2.3. With 512-bit vectors F(2×2) only, as before.
 *
 * <p>Not the direct form's summation: each output is a different rounding of the same sum (the kernel transform in
 * double, rounded once; the input and output transforms in F32). {@code WinogradConvTest} checks it against the
 * definition in double. Non-finite values: a transform mixes a patch's values ({@code ∞ - ∞} makes a NaN where the
 * definition has an ∞), so when any output of a computed tile is not finite (either form), {@link #run} returns false and the caller
 * runs the direct form over the whole conv (an Inf or NaN in the input or the kernel always reaches some output of the
 * tiles that read it: every point feeds at least one of a tile's outputs with a nonzero coefficient).
 */
final class WinogradConvF32 {
    private WinogradConvF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final java.nio.ByteOrder ORDER = java.nio.ByteOrder.nativeOrder();
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    /**
     * Tiles per point GEMM tile: {@link FilterLaneTile#run}'s 12 with 512-bit vectors, {@link FilterLaneTile#run6}'s 6 with
     * AVX2's 16 registers (the 12-row tile spills there).
     */
    private static final int ROWS = FilterLaneTile.TILE_ROWS;
    private static final int COLS = FilterLaneTile.COLS, POINTS = 16;
    /** Floats of transformed input a task keeps at most (512 KB, in L2 beside the region and the point sums). */
    private static final long V_FLOATS = 128 * 1024;
    /** Whether {@link DirectConvF32#run} tries this form first (off: {@code -Djburn.directconv.winograd=false}). */
    static final boolean ON = (L == 16 || L == 8) && !"false".equals(System.getProperty("jburn.directconv.winograd"));
    /** Input channels per group from which the transforms pay for themselves. */
    private static final int MIN_CHANNELS = 16;
    /** Filters per group from which it runs: a 512-bit tile's 32 (two AVX2 tiles' 16 columns each: the same rule). */
    private static final int MIN_FILTERS = 32;

    /** Lanes {@code 2i} and {@code 2i + 1} of two concatenated vectors: a patch column's even and odd input columns. */
    private static final FloatVector EVEN, ODD;
    /** Lane {@code i} of a filter's gather from the staged outputs: position {@code i}, {@code COLS} apart. */
    private static final int[] STAGE_INDEX = java.util.stream.IntStream.range(0, Math.max(L, 1)).map(i -> i * COLS).toArray();

    static {
        float[] e = new float[L], o = new float[L];
        for (int i = 0; i < L; i++) {
            e[i] = 2 * i;
            o[i] = 2 * i + 1;
        }
        EVEN = FloatVector.fromArray(S, e, 0);
        ODD = FloatVector.fromArray(S, o, 0);
    }

    /** Whether {@link #run} takes this conv (it may still decline one with non-finite results). */
    static boolean applies(ConvGeometry g) {
        if (!ON || g.spatialRank != 2 || g.og < MIN_FILTERS || g.cg < MIN_CHANNELS) return false;
        for (int i = 0; i < 2; i++) {
            if (g.kernel[i] != 3 || g.spec.strides()[i] != 1 || g.spec.inputDilation()[i] != 1 || g.spec.kernelDilation()[i] != 1
                    || g.out[i] < 2) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@link #run} takes F(4×4, 3×3) for a conv that {@link #applies}: with 8 or 16 float lanes
     * ({@link ChannelsLastWinograd4x4F32#widthOn}), off with {@code -Djburn.winograd4x4=false} (as {@link ChannelsLastWinograd4x4F32}'s), where
     * its products (36 a 4×4 tile) are at most 3/4 of F(2×2)'s (16 a 2×2 tile; not for outputs of 2, 5 or 6 a side), a
     * row has at least 6 tiles (the input transform runs 8 a vector) and the conv at least {@link #MIN_TILES4} tiles an
     * image group in all (its kernel transform, 2.25× F(2×2)'s, is paid once a call). Measured on one AVX2 machine
     * (F(2×2) ÷ F(4×4) time, 2 threads; 1 thread in brackets): 64 channels, 56×56 outputs × 8 images 1.34 (1.32), × 1 image
     * 1.09 (1.23); 28×28 × 8, 128 and 256 channels 1.42 and 1.26 (1.40, 1.22); 24×24 × 8 1.28 (1.30); 14×14 × 8, 256
     * channels (4 tiles a row: not taken) 1.03 (0.94).
     */
    static boolean fourByFour(ConvGeometry g) {
        if (!F4) return false;
        long ty = (g.out[0] + 3) / 4, tx = (g.out[1] + 3) / 4;
        long f4 = 36L * ty * tx, f2 = 16L * ((g.out[0] + 1) / 2) * ((g.out[1] + 1) / 2);
        return 4 * f4 <= 3 * f2 && tx >= 6 && (long) g.outBatch * g.groups * ty * tx >= MIN_TILES4;
    }

    /** The fewest F(4×4) tiles a conv takes it with ({@link #fourByFour}): one image of 56×56 outputs has 196. */
    static final int MIN_TILES4 = 128;

    /** F(4×4, 3×3) in {@link #run} (see {@link #fourByFour}). */
    static final boolean F4 = ChannelsLastWinograd4x4F32.widthOn(L) && ON;

    /**
     * Runs the convolution into {@code dst}; false when it does not apply or a computed output is not finite (then
     * {@code dst} holds partial results and the caller must write all of it).
     */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel) {
        if (!applies(g)) return false;
        return run(g, x, k, dst, parallel, fourByFour(g) ? 4 : 2);
    }

    /**
     * {@link #run} with tiles of {@code m × m} outputs: F(2×2, 3×3) ({@code m = 2}, any width) or F(4×4, 3×3) ({@code m =
     * 4}, where {@link #F4}: 8 or 16 lanes by default). F(4×4)'s tasks are F(2×2)'s with 36 points, and its input side per channel: the channel's padded
     * rows split by column phase ({@link #fillPhases}), so that a vector of tiles' patch columns are plain loads, then
     * {@link WinogradF43#transformInput}; its output transform {@link #transformOutput4}.
     */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel, int m) {
        if (!applies(g) || m != 2 && !(m == 4 && F4)) return false;
        final int points = (m + 2) * (m + 2);
        final int ho = g.out[0], wo = g.out[1], h = g.in[0], w = g.in[1];
        final int lo0 = g.spec.padLow()[0], lo1 = g.spec.padLow()[1];
        final int ph = h + lo0 + g.spec.padHigh()[0], pw = w + lo1 + g.spec.padHigh()[1]; // padded plane
        final int ty = (ho + m - 1) / m, tx = (wo + m - 1) / m; // tile rows and columns
        final int txv = (tx + L - 1) / L * L; // tile columns the input transform writes per row (whole vectors)
        final int pl = txv + L; // F(4×4): a column phase's floats in a region row (one vector past the last read: see fillPhases)
        final int rp = m == 2 ? 2 * txv + 2 : 6 * pl; // region row pitch: every column a vector of tiles reads
        int nty = (int) Math.max(1, Math.min(ty, V_FLOATS / ((long) points * g.cg * tx)));
        long images = (long) g.outBatch * g.groups;
        long wanted = 4L * parallel.threads();
        if (images * ((ty + nty - 1) / nty) < wanted) nty = (int) Math.max(1, Math.min(nty, ty / ((wanted + images - 1) / images)));
        if (m == 4) nty = fewestGroups(ty, tx, nty);
        final int bandRows = nty;
        final int bands = (ty + bandRows - 1) / bandRows;
        final int rr = m * bandRows + 2; // region rows
        final int tCap = bandRows * tx, tp = oddLines(tCap + L); // tiles of a band; V row pitch (the last vector's spill)
        final int groupsCap = (tCap + ROWS - 1) / ROWS;
        final int blocks = (g.og + COLS - 1) / COLS;
        final int stagePos = m * ROWS + L; // staged positions per output row of a tile group (gathers read L from any)
        final int vPoint = g.cg * tp + L, mPoint = groupsCap * ROWS * COLS + L; // a point's V and M, a line apart from 4 KB multiples
        // F(2×2): every channel's region rows; F(4×4): one channel's phase-split rows and a padded row to split
        long regionF = m == 2 ? (long) g.cg * rr * rp : (long) rr * rp + 4L * pl, vF = (long) points * vPoint, mF = (long) points * mPoint;
        long yF = (long) m * stagePos * COLS, tmpF = m == 2 ? 0 : 36L * L;
        if (regionF + vF + mF + yF + tmpF > Integer.MAX_VALUE - 16 || (long) g.groups * points * blocks * g.cg * COLS > Integer.MAX_VALUE - 16) {
            return false; // the scratch or the packed kernel would pass int indexing
        }
        final int vAt = (int) regionF, mAt = (int) (regionF + vF), yAt = (int) (regionF + vF + mF), tmpAt = (int) (regionF + vF + mF + yF);
        final int scratch = (int) (regionF + vF + mF + yF + tmpF);
        int[] stepAt = new int[g.cg];
        for (int c = 0; c < g.cg; c++) stepAt[c] = c * tp;
        long cost = (long) bandRows * tx * m * m * g.og * g.cg * 9;
        long tasks = images * bands;
        boolean[] notFinite = new boolean[1];
        HostBuffer u = m == 2 ? packKernel(g, k, blocks) : packKernel4(g, k, blocks, parallel);
        try {
            MemorySegment us = u.segment();
            parallel.forRange(tasks, cost, (lo, hi) -> {
                float[] a = Scratch.floats(scratch);
                long[] pieceAt = new long[ROWS];
                int[] pieceFrom = new int[ROWS], pieceLen = new int[ROWS];
                FloatVector bad = FloatVector.zero(S);
                for (long task = lo; task < hi; task++) {
                    int band = (int) (task % bands), grp = (int) (task / bands % g.groups), b = (int) (task / bands / g.groups);
                    int ty0 = band * bandRows, nt = Math.min(bandRows, ty - ty0), tiles = nt * tx;
                    long channel0 = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
                    if (m == 2) {
                        fill(x, channel0, g.inPlane, g.cg, h, w, lo0, lo1, ph, pw, 2 * ty0, rr, rp, a);
                        transformInput(a, g.cg, rr, rp, nt, tx, tp, vAt, vPoint);
                    } else {
                        for (int c = 0; c < g.cg; c++) {
                            fillPhases(x, channel0 + c * g.inPlane, h, w, lo0, lo1, ph, pw, 4 * ty0, rr, txv, a, rr * rp);
                            for (int r = 0; r < nt; r++) {
                                for (int col = 0; col < tx; col += L) {
                                    WinogradF43.transformInput(a, 4 * r * rp + col, rp, pl, vAt + c * tp + r * tx + col, vPoint, tmpAt);
                                }
                            }
                            zeroTail(a, vAt + c * tp, vPoint, points, nt * tx + (txv - tx), tp);
                        }
                    }
                    int groups = (tiles + ROWS - 1) / ROWS;
                    for (int blk = 0; blk < blocks; blk++) {
                        for (int p = 0; p < points; p++) {
                            long bBase = ((((long) grp * points + p) * blocks + blk) * g.cg) * COLS * Float.BYTES;
                            int vBase = vAt + p * vPoint;
                            for (int tg = 0; tg < groups; tg++) {
                                if (ROWS == FilterLaneTile.ROWS) {
                                    FilterLaneTile.run(a, vBase + tg * ROWS, stepAt, 0, g.cg, us, bBase, a, mAt + p * mPoint + tg * ROWS * COLS, true);
                                } else {
                                    FilterLaneTile.run6(a, vBase + tg * ROWS, stepAt, 0, g.cg, us, bBase, a, mAt + p * mPoint + tg * ROWS * COLS, true);
                                }
                            }
                        }
                        int valid = Math.min(COLS, g.og - blk * COLS);
                        long outBase = ((long) b * g.outChannels + (long) grp * g.og + (long) blk * COLS) * g.outPlane;
                        for (int tg = 0; tg < groups; tg++) {
                            int n = Math.min(ROWS, tiles - tg * ROWS);
                            bad = m == 2 ? transformOutput(a, mAt, mPoint, tg, n, yAt, stagePos, bad)
                                    : transformOutput4(a, mAt, mPoint, tg, n, yAt, stagePos, tmpAt, bad);
                            for (int half = 0; half < m; half++) {
                                int pieces = pieces(m, tg * ROWS, n, tx, ty0, half, ho, wo, outBase, pieceAt, pieceFrom, pieceLen);
                                store(a, yAt + half * stagePos * COLS, valid, dst, g.outPlane * Float.BYTES, pieces, pieceAt, pieceFrom, pieceLen);
                            }
                        }
                    }
                }
                if (bad.compare(jdk.incubator.vector.VectorOperators.NE, bad).anyTrue()) notFinite[0] = true; // NaN: some y - y was not 0
            });
        } finally {
            u.release();
        }
        return !notFinite[0];
    }

    /**
     * One channel's padded rows {@code py0 .. py0 + rows - 1} (from the channel's plane at float {@code channel} of
     * {@code x}) into {@code a[0 ..]}, each split by column phase: row {@code r} at {@code r·6·pl} ({@code pl = txv + L})
     * holds six arrays of {@code pl} floats, array {@code j < 4} the padded columns {@code 4i + j}, arrays 4 and 5 the
     * columns {@code 4i + 4} and {@code 4i + 5} (arrays 0 and 1 one further on), so a patch row's six columns for {@code L}
     * tiles {@code col ..} are six plain loads {@code pl} apart. Zeros outside the input and past the padded plane. Each
     * row is copied into {@code a[row ..]} (vector loads from {@code x}), then split with scalar moves: with AVX2 the vector
     * splits (two rounds of even and odd lanes of two vectors, as selections or rearranges) took longer, and so did scalar
     * reads of {@code x}.
     */
    private static void fillPhases(MemorySegment x, long channel, int h, int w, int lo0, int lo1, int ph, int pw, int py0, int rows,
                                   int txv, float[] a, int row) {
        final int pl = txv + L, rp = 6 * pl;
        int q0 = Math.max(0, lo1), q1 = Math.min(pw, w + lo1); // padded columns that hold input columns q - lo1
        int end = (q1 + 3) >> 2; // groups of four padded columns with input in them
        for (int r = 0; r < rows; r++) {
            int py = py0 + r, iy = py - lo0, at = r * rp;
            java.util.Arrays.fill(a, at, at + rp, 0f);
            if (py >= ph || iy < 0 || iy >= h || q1 <= q0) continue;
            for (int q = 0; q < q0; q++) a[row + q] = 0f;
            for (int q = q1; q < 4 * end; q++) a[row + q] = 0f;
            DirectConvF32.load(x, (channel + (long) iy * w + (q0 - lo1)) * Float.BYTES, a, row + q0, q1 - q0);
            for (int i = 0; i < end; i++) {
                int t = row + 4 * i;
                float t0 = a[t], t1 = a[t + 1], t2 = a[t + 2], t3 = a[t + 3];
                a[at + i] = t0;
                a[at + pl + i] = t1;
                a[at + 2 * pl + i] = t2;
                a[at + 3 * pl + i] = t3;
                // arrays 4 and 5 at i - 1 (for i = 0 the unread last float of the array before)
                a[at + 4 * pl + i - 1] = t0;
                a[at + 5 * pl + i - 1] = t1;
            }
        }
    }

    /**
     * The band height up to {@code most} tile rows whose bands have the fewest {@code ROWS}-tile groups in all (the larger
     * on a tie): a band's last group is part-empty unless its tiles are a multiple of {@code ROWS}. The ResNet-like conv
     * with F(4×4) (14 × 14 tiles, 6-tile groups with AVX2): 3 rows (42 tiles, 7 full groups; 33 groups an image) where
     * the V budget allows 4 (56 tiles, 10 groups; 35 an image), ~2 ms of 30 on one thread.
     */
    private static int fewestGroups(int ty, int tx, int most) {
        int best = most;
        long bestGroups = Long.MAX_VALUE;
        for (int n = most; n >= 1; n--) {
            long groups = (long) (ty / n) * ((n * tx + ROWS - 1) / ROWS) + (ty % n == 0 ? 0 : ((ty % n) * tx + ROWS - 1) / ROWS);
            if (groups < bestGroups) {
                bestGroups = groups;
                best = n;
            }
        }
        return best;
    }

    /** Zeros for tiles {@code from .. tp - 1} of the V rows at {@code a[v + p·pointStride]}: tiles past a band's last, never stored. */
    private static void zeroTail(float[] a, int v, int pointStride, int points, int from, int tp) {
        for (int p = 0; p < points; p++) java.util.Arrays.fill(a, v + p * pointStride + from, v + p * pointStride + tp, 0f);
    }

    /**
     * F(4×4)'s {@link #transformOutput}: the 4×4 outputs of tile group {@code tg}'s first {@code n} tiles, per {@code L}
     * filters: {@code Aᵀ} over each column of point sums into {@code a[tmp ..]}, then over each of its rows into the stage
     * ({@code [output row of the tile][4·tile + column][COLS]} from {@code yAt}). Returns {@code bad} plus {@code y - y} of
     * every staged output.
     */
    private static FloatVector transformOutput4(float[] a, int mAt, int pStride, int tg, int n, int yAt, int stagePos, int tmp,
                                                FloatVector bad) {
        for (int t = 0; t < n; t++) {
            for (int v = 0; v < COLS; v += L) {
                int m = mAt + tg * ROWS * COLS + t * COLS + v;
                for (int kk = 0; kk < 6; kk++) WinogradF43.outputColumn(a, m + kk * pStride, 6 * pStride, tmp + kk * L, 6 * L);
                for (int i = 0; i < 4; i++) WinogradF43.outputColumn(a, tmp + 6 * i * L, L, yAt + (i * stagePos + 4 * t) * COLS + v, COLS);
            }
        }
        for (int i = 0; i < 4; i++) {
            for (int y = yAt + i * stagePos * COLS, end = y + 4 * n * COLS; y < end; y += L) {
                FloatVector yv = FloatVector.fromArray(S, a, y);
                bad = bad.add(yv.sub(yv));
            }
        }
        return bad;
    }

    /**
     * The padded input rows {@code py0 .. py0 + rows - 1} of every channel into {@code a} ({@code [channel][row][rp]}):
     * zeros outside the input and past the padded plane.
     */
    private static void fill(MemorySegment x, long channel0, long inPlane, int cg, int h, int w, int lo0, int lo1, int ph, int pw,
                             int py0, int rows, int rp, float[] a) {
        java.util.Arrays.fill(a, 0, cg * rows * rp, 0f);
        int q0 = Math.max(0, lo1), q1 = Math.min(pw, w + lo1); // region columns that hold input columns q - lo1
        if (q1 <= q0) return;
        for (int c = 0; c < cg; c++) {
            for (int r = 0; r < rows; r++) {
                int py = py0 + r, iy = py - lo0;
                if (py >= ph || iy < 0 || iy >= h) continue;
                DirectConvF32.load(x, (channel0 + c * inPlane + (long) iy * w + (q0 - lo1)) * Float.BYTES, a, (c * rows + r) * rp + q0, q1 - q0);
            }
        }
    }

    /**
     * {@code V[point][c][t] = (Bᵀ d B)[point]} for the tiles {@code t = row·tx + col} of a band, 16 a vector: a patch row's
     * four columns {@code 2col + j} are the even and odd lanes of two loads at {@code 2col} and {@code 2col + 2}. A row's
     * last vector spills past its {@code tx} tiles into the next row's, which is written after it (the band's last one
     * into the {@code L} spare tiles).
     */
    private static void transformInput(float[] a, int cg, int rows, int rp, int nt, int tx, int tp, int vAt, int pointStride) {
        for (int c = 0; c < cg; c++) {
            int cBase = c * rows * rp;
            for (int r = 0; r < nt; r++) {
                for (int col = 0; col < tx; col += L) {
                    int base = cBase + 2 * r * rp + 2 * col;
                    FloatVector t00, t01, t02, t03, t10, t11, t12, t13, t20, t21, t22, t23, t30, t31, t32, t33;
                    FloatVector lo = FloatVector.fromArray(S, a, base), hi = FloatVector.fromArray(S, a, base + L);
                    FloatVector lo2 = FloatVector.fromArray(S, a, base + 2), hi2 = FloatVector.fromArray(S, a, base + 2 + L);
                    FloatVector d0 = EVEN.selectFrom(lo, hi), d1 = ODD.selectFrom(lo, hi), d2 = EVEN.selectFrom(lo2, hi2), d3 = ODD.selectFrom(lo2, hi2);
                    t00 = d0.sub(d2); t01 = d1.add(d2); t02 = d2.sub(d1); t03 = d1.sub(d3);
                    base += rp;
                    lo = FloatVector.fromArray(S, a, base); hi = FloatVector.fromArray(S, a, base + L);
                    lo2 = FloatVector.fromArray(S, a, base + 2); hi2 = FloatVector.fromArray(S, a, base + 2 + L);
                    d0 = EVEN.selectFrom(lo, hi); d1 = ODD.selectFrom(lo, hi); d2 = EVEN.selectFrom(lo2, hi2); d3 = ODD.selectFrom(lo2, hi2);
                    t10 = d0.sub(d2); t11 = d1.add(d2); t12 = d2.sub(d1); t13 = d1.sub(d3);
                    base += rp;
                    lo = FloatVector.fromArray(S, a, base); hi = FloatVector.fromArray(S, a, base + L);
                    lo2 = FloatVector.fromArray(S, a, base + 2); hi2 = FloatVector.fromArray(S, a, base + 2 + L);
                    d0 = EVEN.selectFrom(lo, hi); d1 = ODD.selectFrom(lo, hi); d2 = EVEN.selectFrom(lo2, hi2); d3 = ODD.selectFrom(lo2, hi2);
                    t20 = d0.sub(d2); t21 = d1.add(d2); t22 = d2.sub(d1); t23 = d1.sub(d3);
                    base += rp;
                    lo = FloatVector.fromArray(S, a, base); hi = FloatVector.fromArray(S, a, base + L);
                    lo2 = FloatVector.fromArray(S, a, base + 2); hi2 = FloatVector.fromArray(S, a, base + 2 + L);
                    d0 = EVEN.selectFrom(lo, hi); d1 = ODD.selectFrom(lo, hi); d2 = EVEN.selectFrom(lo2, hi2); d3 = ODD.selectFrom(lo2, hi2);
                    t30 = d0.sub(d2); t31 = d1.add(d2); t32 = d2.sub(d1); t33 = d1.sub(d3);
                    int v = vAt + c * tp + r * tx + col;
                    t00.sub(t20).intoArray(a, v); t01.sub(t21).intoArray(a, v + pointStride);
                    t02.sub(t22).intoArray(a, v + 2 * pointStride); t03.sub(t23).intoArray(a, v + 3 * pointStride);
                    t10.add(t20).intoArray(a, v + 4 * pointStride); t11.add(t21).intoArray(a, v + 5 * pointStride);
                    t12.add(t22).intoArray(a, v + 6 * pointStride); t13.add(t23).intoArray(a, v + 7 * pointStride);
                    t20.sub(t10).intoArray(a, v + 8 * pointStride); t21.sub(t11).intoArray(a, v + 9 * pointStride);
                    t22.sub(t12).intoArray(a, v + 10 * pointStride); t23.sub(t13).intoArray(a, v + 11 * pointStride);
                    t10.sub(t30).intoArray(a, v + 12 * pointStride); t11.sub(t31).intoArray(a, v + 13 * pointStride);
                    t12.sub(t32).intoArray(a, v + 14 * pointStride); t13.sub(t33).intoArray(a, v + 15 * pointStride);
                }
            }
            // tiles past the band's last (computed by the last tile group, never stored): zeros, not stale floats
            for (int p = 0; p < POINTS; p++) {
                int v = vAt + p * pointStride + c * tp;
                java.util.Arrays.fill(a, v + nt * tx + (txv(tx) - tx), v + tp, 0f);
            }
        }
    }

    private static int txv(int tx) { return (tx + L - 1) / L * L; }

    /**
     * {@code n} rounded up to whole lines and then to an odd count of them: rows that far apart fall in different L1
     * sets (the 64 channels of a point 512 bytes apart would share 8 of its 64 sets).
     */
    private static int oddLines(int n) {
        int lines = (n + L - 1) / L;
        return (lines | 1) * L;
    }

    /**
     * The 2×2 outputs of tile group {@code tg}'s first {@code n} tiles, per 16 filters: {@code Aᵀ m A} of the 16 point
     * sums in {@code a[mAt..]} ({@code [point][group][ROWS][COLS]}, points {@code pStride} apart), staged as {@code [output row of the tile][2·tile +
     * column][COLS]} from {@code yAt}. Returns {@code bad} plus {@code y - y} of every output (NaN once one is not finite).
     */
    private static FloatVector transformOutput(float[] a, int mAt, int pStride, int tg, int n, int yAt, int stagePos, FloatVector bad) {
        for (int t = 0; t < n; t++) {
            for (int v = 0; v < COLS; v += L) {
                int m = mAt + tg * ROWS * COLS + t * COLS + v;
                FloatVector m00 = FloatVector.fromArray(S, a, m), m01 = FloatVector.fromArray(S, a, m + pStride);
                FloatVector m02 = FloatVector.fromArray(S, a, m + 2 * pStride), m03 = FloatVector.fromArray(S, a, m + 3 * pStride);
                FloatVector m10 = FloatVector.fromArray(S, a, m + 4 * pStride), m11 = FloatVector.fromArray(S, a, m + 5 * pStride);
                FloatVector m12 = FloatVector.fromArray(S, a, m + 6 * pStride), m13 = FloatVector.fromArray(S, a, m + 7 * pStride);
                FloatVector m20 = FloatVector.fromArray(S, a, m + 8 * pStride), m21 = FloatVector.fromArray(S, a, m + 9 * pStride);
                FloatVector m22 = FloatVector.fromArray(S, a, m + 10 * pStride), m23 = FloatVector.fromArray(S, a, m + 11 * pStride);
                FloatVector m30 = FloatVector.fromArray(S, a, m + 12 * pStride), m31 = FloatVector.fromArray(S, a, m + 13 * pStride);
                FloatVector m32 = FloatVector.fromArray(S, a, m + 14 * pStride), m33 = FloatVector.fromArray(S, a, m + 15 * pStride);
                // Aᵀ over the patch rows: s0 = m0 + m1 + m2, s1 = m1 - m2 - m3
                FloatVector s00 = m00.add(m10).add(m20), s01 = m01.add(m11).add(m21), s02 = m02.add(m12).add(m22), s03 = m03.add(m13).add(m23);
                FloatVector s10 = m10.sub(m20).sub(m30), s11 = m11.sub(m21).sub(m31), s12 = m12.sub(m22).sub(m32), s13 = m13.sub(m23).sub(m33);
                // then over the columns
                FloatVector y00 = s00.add(s01).add(s02), y01 = s01.sub(s02).sub(s03);
                FloatVector y10 = s10.add(s11).add(s12), y11 = s11.sub(s12).sub(s13);
                int y = yAt + 2 * t * COLS + v;
                y00.intoArray(a, y);
                y01.intoArray(a, y + COLS);
                y10.intoArray(a, y + stagePos * COLS);
                y11.intoArray(a, y + stagePos * COLS + COLS);
                bad = bad.add(y00.sub(y00)).add(y01.sub(y01)).add(y10.sub(y10)).add(y11.sub(y11));
            }
        }
        return bad;
    }

    /**
     * The output row pieces of output row {@code half} of tiles {@code t0 .. t0 + n - 1} (a band's tiles {@code row·tx +
     * col}): per piece, the byte of its first output in the first filter's plane, its first staged position and its
     * length (outputs past the last row or column dropped); returns the count.
     */
    private static int pieces(int m, int t0, int n, int tx, int ty0, int half, int ho, int wo, long outBase, long[] pieceAt,
                              int[] pieceFrom, int[] pieceLen) {
        int count = 0;
        for (int t = t0; t < t0 + n; ) {
            int row = t / tx, col = t % tx, end = Math.min(t0 + n, (row + 1) * tx); // tiles of this tile row
            int oy = m * (ty0 + row) + half, ox = m * col, len = Math.min(m * (end - t), wo - ox);
            if (oy < ho && len > 0) {
                pieceAt[count] = (outBase + (long) oy * wo + ox) * Float.BYTES;
                pieceFrom[count] = m * (t - t0);
                pieceLen[count++] = len;
            }
            t = end;
        }
        return count;
    }

    /** Each piece's outputs of filters {@code 0 .. valid-1}: gathered from the stage, {@code L} at a time, stored with masks. */
    private static void store(float[] a, int stage, int valid, MemorySegment dst, long planeBytes, int pieces, long[] pieceAt,
                              int[] pieceFrom, int[] pieceLen) {
        for (int k = 0; k < pieces; k++) {
            for (int i = 0; i < pieceLen[k]; i += L) {
                VectorMask<Float> m = S.indexInRange(i, pieceLen[k]);
                int from = stage + (pieceFrom[k] + i) * COLS;
                long at = pieceAt[k] + (long) i * Float.BYTES;
                for (int f = 0; f < valid; f++) {
                    FloatVector.fromArray(S, a, from + f, STAGE_INDEX, 0).intoMemorySegment(dst, at + f * planeBytes, ORDER, m);
                }
            }
        }
    }

    /**
     * {@code U = G g Gᵀ} per filter and channel (in double, rounded once), as {@code [group][point][block of 32
     * filters][channel][32]} in 64-byte aligned native memory; 0 for filters past the group's last.
     */
    static HostBuffer packKernel(ConvGeometry g, MemorySegment k, int blocks) {
        float[] src = new float[(int) ((long) g.outChannels * g.cg * 9)];
        MemorySegment.copy(k, FL, 0, src, 0, src.length);
        float[] u = new float[g.groups * POINTS * blocks * g.cg * COLS];
        double[] gg = new double[12], t = new double[16];
        for (int grp = 0; grp < g.groups; grp++) {
            for (int o = 0; o < g.og; o++) {
                for (int c = 0; c < g.cg; c++) {
                    int s = ((grp * g.og + o) * g.cg + c) * 9;
                    for (int j = 0; j < 3; j++) { // G g: the kernel's rows combined
                        double g0 = src[s + j], g1 = src[s + 3 + j], g2 = src[s + 6 + j];
                        gg[j] = g0;
                        gg[3 + j] = (g0 + g1 + g2) / 2;
                        gg[6 + j] = (g0 - g1 + g2) / 2;
                        gg[9 + j] = g2;
                    }
                    for (int i = 0; i < 4; i++) { // (G g) Gᵀ: then its columns
                        double g0 = gg[3 * i], g1 = gg[3 * i + 1], g2 = gg[3 * i + 2];
                        t[4 * i] = g0;
                        t[4 * i + 1] = (g0 + g1 + g2) / 2;
                        t[4 * i + 2] = (g0 - g1 + g2) / 2;
                        t[4 * i + 3] = g2;
                    }
                    for (int p = 0; p < POINTS; p++) {
                        u[(((grp * POINTS + p) * blocks + o / COLS) * g.cg + c) * COLS + o % COLS] = (float) t[p];
                    }
                }
            }
        }
        HostBuffer b = HostBuffer.uninitialized((long) u.length * Float.BYTES);
        MemorySegment.copy(u, 0, b.segment(), FL, 0, u.length);
        return b;
    }

    /**
     * F(4×4)'s {@link #packKernel}: {@code U = G g Gᵀ} ({@link WinogradF43#transformKernel}, in double, rounded once) as
     * {@code [group][point][block][channel][COLS]}, 0 for filters past the group's last. A task a (group, block), each
     * (block, channel)'s 36 rows of {@code COLS} floats built on the heap and copied out: the ResNet-like conv's 64 × 64
     * pairs took 2.1 ms on one thread written element by element into one heap array and then copied (its 256 × 256
     * pairs 13 ms), a tenth of the conv's time on two threads.
     */
    static HostBuffer packKernel4(ConvGeometry g, MemorySegment k, int blocks, Parallel parallel) {
        final int points = WinogradF43.POINTS;
        float[] src = new float[(int) ((long) g.outChannels * g.cg * 9)];
        MemorySegment.copy(k, FL, 0, src, 0, src.length);
        HostBuffer b = HostBuffer.uninitialized((long) g.groups * points * blocks * g.cg * COLS * Float.BYTES);
        MemorySegment u = b.segment();
        parallel.forRange((long) g.groups * blocks, (long) COLS * g.cg * 500, (lo, hi) -> {
            double[] gg = new double[18], t = new double[points];
            float[] rows = new float[points * COLS];
            for (long task = lo; task < hi; task++) {
                int grp = (int) (task / blocks), blk = (int) (task % blocks), valid = Math.min(COLS, g.og - blk * COLS);
                for (int c = 0; c < g.cg; c++) {
                    if (valid < COLS) java.util.Arrays.fill(rows, 0f);
                    for (int j = 0; j < valid; j++) {
                        WinogradF43.transformKernel(src, ((grp * g.og + blk * COLS + j) * g.cg + c) * 9, gg, t);
                        for (int p = 0; p < points; p++) rows[p * COLS + j] = (float) t[p];
                    }
                    for (int p = 0; p < points; p++) {
                        long at = ((((long) grp * points + p) * blocks + blk) * g.cg + c) * COLS * Float.BYTES;
                        MemorySegment.copy(rows, p * COLS, u, FL, at, COLS);
                    }
                }
            }
        });
        return b;
    }
}
