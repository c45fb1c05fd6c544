package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register tile of the channels-last convolutions ({@link ChannelsLastConvF32}): 6 rows × 2
 * vectors, {@code acc[i][v] += a[rowBase_i + segOff[s] + j] · b[bi + j·COLS + v·L]} over the
 * reduction, which runs through segments of {@code runLength} unit steps. Twelve accumulators, two
 * vector loads and six broadcasts per step fit the 16 registers of AVX2 without spills (a larger
 * tile does not: the NCHW kernel's 24 accumulators spill there; on AVX-512, 12 rows with 12 row bases
 * measured no faster, its row bases crowd the general registers: {@link #run12} has 12 rows from one base). The rows are output positions
 * (then the reduction runs over taps × channels, a run of channels per tap, {@code a} is a zero-padded
 * channels-last image and {@code b} the packed kernel) or kernel rows (then it runs over the cotangent's
 * positions, a run per row, {@code a} is a channel-major image ({@link ChannelMajorImage}) and {@code b}
 * the cotangent in column blocks); every read is in range.
 */
final class ChannelsLastTile {
    private ChannelsLastTile() {}

    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    private static final java.nio.ByteOrder ORDER = java.nio.ByteOrder.nativeOrder();
    /** Rows per tile. */
    static final int ROWS = 6;
    /** Columns per tile: two vectors. */
    static final int COLS = 2 * L;

    /**
     * Runs one tile over segments {@code segFrom .. segFrom + segments - 1} of {@code segOff}, {@code runLength} reduction
     * steps each ({@code acc[i][v] += a[r_i + segOff[s] + j] · b[bi + j·COLS + v·L]}, {@code bi} advancing a run per
     * segment from {@code bBase}), and writes it to {@code acc} (row {@code i} at {@code accBase + i·accPitch}), adding to
     * what is there when {@code accumulate} (so a reduction can be split into chunks). Then {@code bias[biasBase ..]} (when
     * not null) is added to each stored row's rounded sums and with {@code relu} each value {@code v <= 0} becomes +0 (NaN
     * stays), by {@link #finishRow} while the rows are in L1: the same bits as a later pass over the output, without that
     * pass (a scalar loop over the output took more time than the arithmetic of a one-channel conv).
     *
     * <p>Unit steps in {@code a} and a constant one in {@code b}: every index is the loop counter times a constant plus
     * an invariant, so C2 removes the eight range checks of a step, which it could not with the variable strides this
     * tile had before (the channels-last image's channel count, the cotangent's filter count): conv 2 of the small CNN
     * ran 15% faster alone on AVX-512 (90 -> 104 GFLOP/s on one thread, 2026-12-06); the callers copy their operands
     * into such layouts.
     */
    static void run(float[] a, int r0, int r1, int r2, int r3, int r4, int r5, int[] segOff, int segFrom, int segments, int runLength,
                    float[] b, int bBase, float[] acc, int accBase, int accPitch, boolean accumulate, float[] bias,
                    int biasBase, boolean relu) {
        FloatVector z = FloatVector.zero(S);
        int p0 = accBase, p1 = p0 + accPitch, p2 = p1 + accPitch, p3 = p2 + accPitch, p4 = p3 + accPitch, p5 = p4 + accPitch;
        FloatVector a00 = z, a01 = z, a10 = z, a11 = z, a20 = z, a21 = z, a30 = z, a31 = z, a40 = z, a41 = z, a50 = z, a51 = z;
        if (accumulate) { // one branch (not one per accumulator): C2's inlining budget goes to the loop
            a00 = FloatVector.fromArray(S, acc, p0); a01 = FloatVector.fromArray(S, acc, p0 + L);
            a10 = FloatVector.fromArray(S, acc, p1); a11 = FloatVector.fromArray(S, acc, p1 + L);
            a20 = FloatVector.fromArray(S, acc, p2); a21 = FloatVector.fromArray(S, acc, p2 + L);
            a30 = FloatVector.fromArray(S, acc, p3); a31 = FloatVector.fromArray(S, acc, p3 + L);
            a40 = FloatVector.fromArray(S, acc, p4); a41 = FloatVector.fromArray(S, acc, p4 + L);
            a50 = FloatVector.fromArray(S, acc, p5); a51 = FloatVector.fromArray(S, acc, p5 + L);
        }
        int bi = bBase;
        for (int sg = segFrom; sg < segFrom + segments; sg++) {
            int o = segOff[sg];
            for (int j = 0; j < runLength; j++) {
                int bj = bi + j * COLS;
                FloatVector w0 = FloatVector.fromArray(S, b, bj), w1 = FloatVector.fromArray(S, b, bj + L);
                FloatVector x = FloatVector.broadcast(S, a[r0 + o + j]);
                a00 = x.fma(w0, a00);
                a01 = x.fma(w1, a01);
                x = FloatVector.broadcast(S, a[r1 + o + j]);
                a10 = x.fma(w0, a10);
                a11 = x.fma(w1, a11);
                x = FloatVector.broadcast(S, a[r2 + o + j]);
                a20 = x.fma(w0, a20);
                a21 = x.fma(w1, a21);
                x = FloatVector.broadcast(S, a[r3 + o + j]);
                a30 = x.fma(w0, a30);
                a31 = x.fma(w1, a31);
                x = FloatVector.broadcast(S, a[r4 + o + j]);
                a40 = x.fma(w0, a40);
                a41 = x.fma(w1, a41);
                x = FloatVector.broadcast(S, a[r5 + o + j]);
                a50 = x.fma(w0, a50);
                a51 = x.fma(w1, a51);
            }
            bi += runLength * COLS;
        }
        a00.intoArray(acc, p0);
        a01.intoArray(acc, p0 + L);
        a10.intoArray(acc, p1);
        a11.intoArray(acc, p1 + L);
        a20.intoArray(acc, p2);
        a21.intoArray(acc, p2 + L);
        a30.intoArray(acc, p3);
        a31.intoArray(acc, p3 + L);
        a40.intoArray(acc, p4);
        a41.intoArray(acc, p4 + L);
        a50.intoArray(acc, p5);
        a51.intoArray(acc, p5 + L);
        if (bias != null || relu) {
            // a row's own columns only: with a pitch below COLS, a row's spill is the next row's result (all stored by now)
            int width = Math.min(COLS, accPitch);
            for (int i = 0; i < ROWS; i++) finishRow(acc, accBase + i * accPitch, width, bias, biasBase, relu);
        }
    }

    /** Rows of a {@link #run12} tile. */
    static final int RUN12_ROWS = 12;
    /**
     * Floats between the rows of a {@link #run12} tile: a constant, so that each row's broadcast has a constant
     * displacement from one base ({@code vbroadcastss [base + j·4 + i·RUN_STRIDE·4]}) and the tile needs one register
     * for its rows, not twelve ({@link #run}'s row bases, which 12 rows would crowd out of the 16 general registers). At
     * least a run's length: 128 takes the small CNN's conv 2 (runs of 3 taps × 32 channels).
     */
    static final int RUN_STRIDE = 128;

    /**
     * A 12-row tile whose rows are {@link #RUN_STRIDE} apart from {@code r0}: {@code acc[i][v] = Σ_p a[r0 + i·RUN_STRIDE + stepAt[p]]
     * · b[bBase + (p·COLS + v·L)·4 bytes]} over {@code p = 0 .. steps-1} in that order, from zero, stored to the {@code acc} rows
     * ({@code accBase + i·accPitch}; a row's two vectors spill past a pitch below {@code COLS}, as {@link #run}'s). 24
     * accumulators and 14 loads per 24 fma, where {@link #run} has 12 and 8 per 12, with one base for all rows (12 of
     * {@link #run}'s row bases would crowd the general registers). B comes from 64-byte aligned native memory, as the GEMM's.
     * The steps' offsets come from a table, so that the whole reduction, across runs, is one loop: with a loop over the runs
     * around the loop over a run, C2 kept accumulators on the stack (a load and a store per fma: 2x slower), and with a call per
     * run each call loads and stores the tile. Each sum is the fma chain of {@link #run} over the same steps: the same bits.
     */
    static void run12(float[] a, int r0, int[] stepAt, int steps, java.lang.foreign.MemorySegment b, long bBase,
                      float[] acc, int accBase, int accPitch) {
        final int rs = RUN_STRIDE;
        int p0 = accBase, p1 = p0 + accPitch, p2 = p1 + accPitch, p3 = p2 + accPitch, p4 = p3 + accPitch, p5 = p4 + accPitch;
        int p6 = p5 + accPitch, p7 = p6 + accPitch, p8 = p7 + accPitch, p9 = p8 + accPitch, p10 = p9 + accPitch, p11 = p10 + accPitch;
        FloatVector z = FloatVector.zero(S);
        FloatVector a00 = z, a01 = z, a10 = z, a11 = z, a20 = z, a21 = z, a30 = z, a31 = z, a40 = z, a41 = z, a50 = z, a51 = z;
        FloatVector a60 = z, a61 = z, a70 = z, a71 = z, a80 = z, a81 = z, a90 = z, a91 = z, b00 = z, b01 = z, b10 = z, b11 = z;
        for (int j = 0; j < steps; j++) {
            long bj = bBase + (long) j * COLS * Float.BYTES;
            int ai = r0 + stepAt[j];
            FloatVector w0 = FloatVector.fromMemorySegment(S, b, bj, ORDER), w1 = FloatVector.fromMemorySegment(S, b, bj + L * Float.BYTES, ORDER);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01);
            x = FloatVector.broadcast(S, a[ai + rs]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11);
            x = FloatVector.broadcast(S, a[ai + 2 * rs]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21);
            x = FloatVector.broadcast(S, a[ai + 3 * rs]);
            a30 = x.fma(w0, a30); a31 = x.fma(w1, a31);
            x = FloatVector.broadcast(S, a[ai + 4 * rs]);
            a40 = x.fma(w0, a40); a41 = x.fma(w1, a41);
            x = FloatVector.broadcast(S, a[ai + 5 * rs]);
            a50 = x.fma(w0, a50); a51 = x.fma(w1, a51);
            x = FloatVector.broadcast(S, a[ai + 6 * rs]);
            a60 = x.fma(w0, a60); a61 = x.fma(w1, a61);
            x = FloatVector.broadcast(S, a[ai + 7 * rs]);
            a70 = x.fma(w0, a70); a71 = x.fma(w1, a71);
            x = FloatVector.broadcast(S, a[ai + 8 * rs]);
            a80 = x.fma(w0, a80); a81 = x.fma(w1, a81);
            x = FloatVector.broadcast(S, a[ai + 9 * rs]);
            a90 = x.fma(w0, a90); a91 = x.fma(w1, a91);
            x = FloatVector.broadcast(S, a[ai + 10 * rs]);
            b00 = x.fma(w0, b00); b01 = x.fma(w1, b01);
            x = FloatVector.broadcast(S, a[ai + 11 * rs]);
            b10 = x.fma(w0, b10); b11 = x.fma(w1, b11);
        }
        a00.intoArray(acc, p0); a01.intoArray(acc, p0 + L);
        a10.intoArray(acc, p1); a11.intoArray(acc, p1 + L);
        a20.intoArray(acc, p2); a21.intoArray(acc, p2 + L);
        a30.intoArray(acc, p3); a31.intoArray(acc, p3 + L);
        a40.intoArray(acc, p4); a41.intoArray(acc, p4 + L);
        a50.intoArray(acc, p5); a51.intoArray(acc, p5 + L);
        a60.intoArray(acc, p6); a61.intoArray(acc, p6 + L);
        a70.intoArray(acc, p7); a71.intoArray(acc, p7 + L);
        a80.intoArray(acc, p8); a81.intoArray(acc, p8 + L);
        a90.intoArray(acc, p9); a91.intoArray(acc, p9 + L);
        b00.intoArray(acc, p10); b01.intoArray(acc, p10 + L);
        b10.intoArray(acc, p11); b11.intoArray(acc, p11 + L);
    }

    /**
     * {@link #run12}'s 6-row form for 16 vector registers (AVX2), where run12's 24 accumulators spill: {@code acc[i][v] =
     * Σ_j a[r0 + i·RUN_STRIDE + j] · b[bBase + j·COLS + v·L]} over {@code j = 0 .. steps-1} (unit steps) from zero,
     * stored to the {@code acc} rows ({@code accBase + i·accPitch}). 12 accumulators, 8 loads per 12 fma, as {@link #run};
     * a method of its own, not {@code run} with one segment: {@code run}'s compiled loop depends on which caller profiled
     * it first, and with only this caller's one-segment calls the Winograd conv 2 input cotangent ran 1.5x slower. B from a
     * heap array (run12's comes from native memory): 3-7% faster than native here (ConvTileTiming, AVX2, 2026-12-07).
     */
    static void run6(float[] a, int r0, int steps, float[] b, int bBase, float[] acc, int accBase, int accPitch) {
        final int rs = RUN_STRIDE;
        int p0 = accBase, p1 = p0 + accPitch, p2 = p1 + accPitch, p3 = p2 + accPitch, p4 = p3 + accPitch, p5 = p4 + accPitch;
        FloatVector z = FloatVector.zero(S);
        FloatVector a00 = z, a01 = z, a10 = z, a11 = z, a20 = z, a21 = z, a30 = z, a31 = z, a40 = z, a41 = z, a50 = z, a51 = z;
        for (int j = 0; j < steps; j++) {
            int bj = bBase + j * COLS;
            int ai = r0 + j;
            FloatVector w0 = FloatVector.fromArray(S, b, bj), w1 = FloatVector.fromArray(S, b, bj + L);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01);
            x = FloatVector.broadcast(S, a[ai + rs]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11);
            x = FloatVector.broadcast(S, a[ai + 2 * rs]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21);
            x = FloatVector.broadcast(S, a[ai + 3 * rs]);
            a30 = x.fma(w0, a30); a31 = x.fma(w1, a31);
            x = FloatVector.broadcast(S, a[ai + 4 * rs]);
            a40 = x.fma(w0, a40); a41 = x.fma(w1, a41);
            x = FloatVector.broadcast(S, a[ai + 5 * rs]);
            a50 = x.fma(w0, a50); a51 = x.fma(w1, a51);
        }
        a00.intoArray(acc, p0); a01.intoArray(acc, p0 + L);
        a10.intoArray(acc, p1); a11.intoArray(acc, p1 + L);
        a20.intoArray(acc, p2); a21.intoArray(acc, p2 + L);
        a30.intoArray(acc, p3); a31.intoArray(acc, p3 + L);
        a40.intoArray(acc, p4); a41.intoArray(acc, p4 + L);
        a50.intoArray(acc, p5); a51.intoArray(acc, p5 + L);
    }

    /**
     * Two {@link #run6} tiles over the same A rows at once (column blocks at {@code bBase0} and {@code bBase1}, stored at
     * {@code accBase0} and {@code accBase1}): 24 accumulators, 10 loads per 24 fma instead of 8 per 12, for 32 vector
     * registers (AVX-512; {@link #PAIRS}). The same fma chains as two {@code run6} calls, so the same bits.
     */
    static void run6Pair(float[] a, int r0, int steps, float[] b, int bBase0, int bBase1, float[] acc, int accBase0, int accBase1, int accPitch) {
        final int rs = RUN_STRIDE;
        final int q0 = accBase0, q1 = accBase1;
        FloatVector z = FloatVector.zero(S);
        FloatVector a00 = z, a01 = z, a02 = z, a03 = z, a10 = z, a11 = z, a12 = z, a13 = z, a20 = z, a21 = z, a22 = z, a23 = z, a30 = z, a31 = z, a32 = z, a33 = z, a40 = z, a41 = z, a42 = z, a43 = z, a50 = z, a51 = z, a52 = z, a53 = z;
        for (int j = 0; j < steps; j++) {
            int b0 = bBase0 + j * COLS, b1 = bBase1 + j * COLS;
            int ai = r0 + j;
            FloatVector w0 = FloatVector.fromArray(S, b, b0), w1 = FloatVector.fromArray(S, b, b0 + L);
            FloatVector w2 = FloatVector.fromArray(S, b, b1), w3 = FloatVector.fromArray(S, b, b1 + L);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01); a02 = x.fma(w2, a02); a03 = x.fma(w3, a03);
            x = FloatVector.broadcast(S, a[ai + rs]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11); a12 = x.fma(w2, a12); a13 = x.fma(w3, a13);
            x = FloatVector.broadcast(S, a[ai + 2 * rs]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21); a22 = x.fma(w2, a22); a23 = x.fma(w3, a23);
            x = FloatVector.broadcast(S, a[ai + 3 * rs]);
            a30 = x.fma(w0, a30); a31 = x.fma(w1, a31); a32 = x.fma(w2, a32); a33 = x.fma(w3, a33);
            x = FloatVector.broadcast(S, a[ai + 4 * rs]);
            a40 = x.fma(w0, a40); a41 = x.fma(w1, a41); a42 = x.fma(w2, a42); a43 = x.fma(w3, a43);
            x = FloatVector.broadcast(S, a[ai + 5 * rs]);
            a50 = x.fma(w0, a50); a51 = x.fma(w1, a51); a52 = x.fma(w2, a52); a53 = x.fma(w3, a53);
        }
        a00.intoArray(acc, q0 + 0 * accPitch); a01.intoArray(acc, q0 + 0 * accPitch + L); a02.intoArray(acc, q1 + 0 * accPitch); a03.intoArray(acc, q1 + 0 * accPitch + L);
        a10.intoArray(acc, q0 + 1 * accPitch); a11.intoArray(acc, q0 + 1 * accPitch + L); a12.intoArray(acc, q1 + 1 * accPitch); a13.intoArray(acc, q1 + 1 * accPitch + L);
        a20.intoArray(acc, q0 + 2 * accPitch); a21.intoArray(acc, q0 + 2 * accPitch + L); a22.intoArray(acc, q1 + 2 * accPitch); a23.intoArray(acc, q1 + 2 * accPitch + L);
        a30.intoArray(acc, q0 + 3 * accPitch); a31.intoArray(acc, q0 + 3 * accPitch + L); a32.intoArray(acc, q1 + 3 * accPitch); a33.intoArray(acc, q1 + 3 * accPitch + L);
        a40.intoArray(acc, q0 + 4 * accPitch); a41.intoArray(acc, q0 + 4 * accPitch + L); a42.intoArray(acc, q1 + 4 * accPitch); a43.intoArray(acc, q1 + 4 * accPitch + L);
        a50.intoArray(acc, q0 + 5 * accPitch); a51.intoArray(acc, q0 + 5 * accPitch + L); a52.intoArray(acc, q1 + 5 * accPitch); a53.intoArray(acc, q1 + 5 * accPitch + L);
    }

    /**
     * Whether callers of {@link #run6} pair column blocks with {@link #run6Pair}: with 16 lanes (32 vector registers),
     * off with {@code -Djburn.convTile.pairs=false}.
     */
    static final boolean PAIRS = L == 16 && !"false".equals(System.getProperty("jburn.convTile.pairs"));

    /**
     * {@link #run12} storing its rows to native memory ({@code acc}, floats {@code accBase + i·accPitch} on): the conv's
     * output itself, which then needs no per-image copy. A method of its own, not {@code run12} over heap segments: with
     * {@code MemorySegment.ofArray} scratch rows through the same Vector API stores, a training step's unrelated
     * element-wise kernels (native segments only) ran 35-60% slower and the CNN step 8-15% (node profiles, 2026-12-06).
     */
    static void run12Out(float[] a, int r0, int[] stepAt, int steps, java.lang.foreign.MemorySegment b, long bBase,
                      java.lang.foreign.MemorySegment acc, long accBase, int accPitch) {
        final int rs = RUN_STRIDE;
        long p0 = accBase, p1 = p0 + accPitch, p2 = p1 + accPitch, p3 = p2 + accPitch, p4 = p3 + accPitch, p5 = p4 + accPitch;
        long p6 = p5 + accPitch, p7 = p6 + accPitch, p8 = p7 + accPitch, p9 = p8 + accPitch, p10 = p9 + accPitch, p11 = p10 + accPitch;
        FloatVector z = FloatVector.zero(S);
        FloatVector a00 = z, a01 = z, a10 = z, a11 = z, a20 = z, a21 = z, a30 = z, a31 = z, a40 = z, a41 = z, a50 = z, a51 = z;
        FloatVector a60 = z, a61 = z, a70 = z, a71 = z, a80 = z, a81 = z, a90 = z, a91 = z, b00 = z, b01 = z, b10 = z, b11 = z;
        for (int j = 0; j < steps; j++) {
            long bj = bBase + (long) j * COLS * Float.BYTES;
            int ai = r0 + stepAt[j];
            FloatVector w0 = FloatVector.fromMemorySegment(S, b, bj, ORDER), w1 = FloatVector.fromMemorySegment(S, b, bj + L * Float.BYTES, ORDER);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01);
            x = FloatVector.broadcast(S, a[ai + rs]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11);
            x = FloatVector.broadcast(S, a[ai + 2 * rs]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21);
            x = FloatVector.broadcast(S, a[ai + 3 * rs]);
            a30 = x.fma(w0, a30); a31 = x.fma(w1, a31);
            x = FloatVector.broadcast(S, a[ai + 4 * rs]);
            a40 = x.fma(w0, a40); a41 = x.fma(w1, a41);
            x = FloatVector.broadcast(S, a[ai + 5 * rs]);
            a50 = x.fma(w0, a50); a51 = x.fma(w1, a51);
            x = FloatVector.broadcast(S, a[ai + 6 * rs]);
            a60 = x.fma(w0, a60); a61 = x.fma(w1, a61);
            x = FloatVector.broadcast(S, a[ai + 7 * rs]);
            a70 = x.fma(w0, a70); a71 = x.fma(w1, a71);
            x = FloatVector.broadcast(S, a[ai + 8 * rs]);
            a80 = x.fma(w0, a80); a81 = x.fma(w1, a81);
            x = FloatVector.broadcast(S, a[ai + 9 * rs]);
            a90 = x.fma(w0, a90); a91 = x.fma(w1, a91);
            x = FloatVector.broadcast(S, a[ai + 10 * rs]);
            b00 = x.fma(w0, b00); b01 = x.fma(w1, b01);
            x = FloatVector.broadcast(S, a[ai + 11 * rs]);
            b10 = x.fma(w0, b10); b11 = x.fma(w1, b11);
        }
        a00.intoMemorySegment(acc, (p0) * Float.BYTES, ORDER); a01.intoMemorySegment(acc, (p0 + L) * Float.BYTES, ORDER);
        a10.intoMemorySegment(acc, (p1) * Float.BYTES, ORDER); a11.intoMemorySegment(acc, (p1 + L) * Float.BYTES, ORDER);
        a20.intoMemorySegment(acc, (p2) * Float.BYTES, ORDER); a21.intoMemorySegment(acc, (p2 + L) * Float.BYTES, ORDER);
        a30.intoMemorySegment(acc, (p3) * Float.BYTES, ORDER); a31.intoMemorySegment(acc, (p3 + L) * Float.BYTES, ORDER);
        a40.intoMemorySegment(acc, (p4) * Float.BYTES, ORDER); a41.intoMemorySegment(acc, (p4 + L) * Float.BYTES, ORDER);
        a50.intoMemorySegment(acc, (p5) * Float.BYTES, ORDER); a51.intoMemorySegment(acc, (p5 + L) * Float.BYTES, ORDER);
        a60.intoMemorySegment(acc, (p6) * Float.BYTES, ORDER); a61.intoMemorySegment(acc, (p6 + L) * Float.BYTES, ORDER);
        a70.intoMemorySegment(acc, (p7) * Float.BYTES, ORDER); a71.intoMemorySegment(acc, (p7 + L) * Float.BYTES, ORDER);
        a80.intoMemorySegment(acc, (p8) * Float.BYTES, ORDER); a81.intoMemorySegment(acc, (p8 + L) * Float.BYTES, ORDER);
        a90.intoMemorySegment(acc, (p9) * Float.BYTES, ORDER); a91.intoMemorySegment(acc, (p9 + L) * Float.BYTES, ORDER);
        b00.intoMemorySegment(acc, (p10) * Float.BYTES, ORDER); b01.intoMemorySegment(acc, (p10 + L) * Float.BYTES, ORDER);
        b10.intoMemorySegment(acc, (p11) * Float.BYTES, ORDER); b11.intoMemorySegment(acc, (p11 + L) * Float.BYTES, ORDER);
    }

    /** Rows of a {@link #panel12} tile. */
    static final int PANEL_ROWS = 12;
    /** Floats between a {@link #panel12} panel's steps: its 12 rows and 4 unused (a packed step is one 64-byte store). */
    static final int PANEL_PITCH = 16;

    /**
     * A 12 rows × 2 vectors tile of a kernel cotangent: {@code acc[i][v] += a[base + stepAt[p] + i] · b[bBase + p·bPitch + v·L·4]}
     * for {@code p = 0 .. steps-1}, in that order, starting from the stored {@code acc} rows ({@code accBase + i·accPitch})
     * and storing them back. Step {@code p}'s 12 rows are consecutive floats of {@code a}: a run of (tap, channel) rows
     * read where they lie in a channels-last image ({@code stepAt} the positions' offsets), or a packed panel's step
     * ({@code stepAt[p] = p·PANEL_PITCH}); one base for the twelve broadcasts (constant displacements), where the 6-row
     * {@link #run} needs a register per row base and 12 of those crowd the general registers. B is a channels-last
     * cotangent read where it lies in native memory ({@code bBase}, {@code bPitch} in bytes): no per-image copies into
     * column blocks. The same fma per accumulator as {@link #run} over the same reduction order, so the same bits.
     */
    static void panel12(float[] a, int base, int[] stepAt, int steps, java.lang.foreign.MemorySegment b, long bBase, long bPitch,
                        float[] acc, int accBase, int accPitch) {
        int p0 = accBase, p1 = p0 + accPitch, p2 = p1 + accPitch, p3 = p2 + accPitch, p4 = p3 + accPitch, p5 = p4 + accPitch;
        int p6 = p5 + accPitch, p7 = p6 + accPitch, p8 = p7 + accPitch, p9 = p8 + accPitch, p10 = p9 + accPitch, p11 = p10 + accPitch;
        FloatVector a00 = FloatVector.fromArray(S, acc, p0), a01 = FloatVector.fromArray(S, acc, p0 + L);
        FloatVector a10 = FloatVector.fromArray(S, acc, p1), a11 = FloatVector.fromArray(S, acc, p1 + L);
        FloatVector a20 = FloatVector.fromArray(S, acc, p2), a21 = FloatVector.fromArray(S, acc, p2 + L);
        FloatVector a30 = FloatVector.fromArray(S, acc, p3), a31 = FloatVector.fromArray(S, acc, p3 + L);
        FloatVector a40 = FloatVector.fromArray(S, acc, p4), a41 = FloatVector.fromArray(S, acc, p4 + L);
        FloatVector a50 = FloatVector.fromArray(S, acc, p5), a51 = FloatVector.fromArray(S, acc, p5 + L);
        FloatVector a60 = FloatVector.fromArray(S, acc, p6), a61 = FloatVector.fromArray(S, acc, p6 + L);
        FloatVector a70 = FloatVector.fromArray(S, acc, p7), a71 = FloatVector.fromArray(S, acc, p7 + L);
        FloatVector a80 = FloatVector.fromArray(S, acc, p8), a81 = FloatVector.fromArray(S, acc, p8 + L);
        FloatVector a90 = FloatVector.fromArray(S, acc, p9), a91 = FloatVector.fromArray(S, acc, p9 + L);
        FloatVector b00 = FloatVector.fromArray(S, acc, p10), b01 = FloatVector.fromArray(S, acc, p10 + L);
        FloatVector b10 = FloatVector.fromArray(S, acc, p11), b11 = FloatVector.fromArray(S, acc, p11 + L);
        for (int p = 0; p < steps; p++) {
            long bj = bBase + p * bPitch;
            int ai = base + stepAt[p];
            FloatVector w0 = FloatVector.fromMemorySegment(S, b, bj, ORDER), w1 = FloatVector.fromMemorySegment(S, b, bj + L * Float.BYTES, ORDER);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01);
            x = FloatVector.broadcast(S, a[ai + 1]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11);
            x = FloatVector.broadcast(S, a[ai + 2]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21);
            x = FloatVector.broadcast(S, a[ai + 3]);
            a30 = x.fma(w0, a30); a31 = x.fma(w1, a31);
            x = FloatVector.broadcast(S, a[ai + 4]);
            a40 = x.fma(w0, a40); a41 = x.fma(w1, a41);
            x = FloatVector.broadcast(S, a[ai + 5]);
            a50 = x.fma(w0, a50); a51 = x.fma(w1, a51);
            x = FloatVector.broadcast(S, a[ai + 6]);
            a60 = x.fma(w0, a60); a61 = x.fma(w1, a61);
            x = FloatVector.broadcast(S, a[ai + 7]);
            a70 = x.fma(w0, a70); a71 = x.fma(w1, a71);
            x = FloatVector.broadcast(S, a[ai + 8]);
            a80 = x.fma(w0, a80); a81 = x.fma(w1, a81);
            x = FloatVector.broadcast(S, a[ai + 9]);
            a90 = x.fma(w0, a90); a91 = x.fma(w1, a91);
            x = FloatVector.broadcast(S, a[ai + 10]);
            b00 = x.fma(w0, b00); b01 = x.fma(w1, b01);
            x = FloatVector.broadcast(S, a[ai + 11]);
            b10 = x.fma(w0, b10); b11 = x.fma(w1, b11);
        }
        a00.intoArray(acc, p0); a01.intoArray(acc, p0 + L);
        a10.intoArray(acc, p1); a11.intoArray(acc, p1 + L);
        a20.intoArray(acc, p2); a21.intoArray(acc, p2 + L);
        a30.intoArray(acc, p3); a31.intoArray(acc, p3 + L);
        a40.intoArray(acc, p4); a41.intoArray(acc, p4 + L);
        a50.intoArray(acc, p5); a51.intoArray(acc, p5 + L);
        a60.intoArray(acc, p6); a61.intoArray(acc, p6 + L);
        a70.intoArray(acc, p7); a71.intoArray(acc, p7 + L);
        a80.intoArray(acc, p8); a81.intoArray(acc, p8 + L);
        a90.intoArray(acc, p9); a91.intoArray(acc, p9 + L);
        b00.intoArray(acc, p10); b01.intoArray(acc, p10 + L);
        b10.intoArray(acc, p11); b11.intoArray(acc, p11 + L);
    }

    /**
     * A 12-row tile over rows {@link #RUN_STRIDE} apart from {@code r0} (as {@link #run12}'s), unit steps:
     * {@code acc[i][v] += a[r0 + i·RUN_STRIDE + p] · b[bBase + p·COLS + v·L]} for {@code p = 0 .. steps-1}, each row's sums
     * continued from, and stored back to, {@code y} at {@code rowAt[rowFrom + i] + column} (two vectors) rather than rows a
     * constant pitch apart: 12 input positions (a run of channels each), each at the output position one tap takes it to
     * ({@link ChannelsLastConvF32}'s scatter form of a fully padded conv). Continuing the stored sums (where the tile before it
     * summed from zero and added its rows) makes each output's sum the padded form's one fma chain when the taps come in
     * order, and drops a pass over the tile; the rows a constant stride apart read the channels-last positions as they are,
     * where that tile needed them transposed into a panel (a gather per channel). B comes from 64-byte aligned native memory,
     * as {@link #run12}'s ({@code bBase} in bytes there).
     */
    static void run12Rows(float[] a, int r0, int steps, java.lang.foreign.MemorySegment b, long bBase, float[] y, int[] rowAt,
                          int rowFrom, int column) {
        final int rs = RUN_STRIDE;
        int p0 = rowAt[rowFrom] + column, p1 = rowAt[rowFrom + 1] + column, p2 = rowAt[rowFrom + 2] + column;
        int p3 = rowAt[rowFrom + 3] + column, p4 = rowAt[rowFrom + 4] + column, p5 = rowAt[rowFrom + 5] + column;
        int p6 = rowAt[rowFrom + 6] + column, p7 = rowAt[rowFrom + 7] + column, p8 = rowAt[rowFrom + 8] + column;
        int p9 = rowAt[rowFrom + 9] + column, p10 = rowAt[rowFrom + 10] + column, p11 = rowAt[rowFrom + 11] + column;
        FloatVector a00 = FloatVector.fromArray(S, y, p0), a01 = FloatVector.fromArray(S, y, p0 + L);
        FloatVector a10 = FloatVector.fromArray(S, y, p1), a11 = FloatVector.fromArray(S, y, p1 + L);
        FloatVector a20 = FloatVector.fromArray(S, y, p2), a21 = FloatVector.fromArray(S, y, p2 + L);
        FloatVector a30 = FloatVector.fromArray(S, y, p3), a31 = FloatVector.fromArray(S, y, p3 + L);
        FloatVector a40 = FloatVector.fromArray(S, y, p4), a41 = FloatVector.fromArray(S, y, p4 + L);
        FloatVector a50 = FloatVector.fromArray(S, y, p5), a51 = FloatVector.fromArray(S, y, p5 + L);
        FloatVector a60 = FloatVector.fromArray(S, y, p6), a61 = FloatVector.fromArray(S, y, p6 + L);
        FloatVector a70 = FloatVector.fromArray(S, y, p7), a71 = FloatVector.fromArray(S, y, p7 + L);
        FloatVector a80 = FloatVector.fromArray(S, y, p8), a81 = FloatVector.fromArray(S, y, p8 + L);
        FloatVector a90 = FloatVector.fromArray(S, y, p9), a91 = FloatVector.fromArray(S, y, p9 + L);
        FloatVector b00 = FloatVector.fromArray(S, y, p10), b01 = FloatVector.fromArray(S, y, p10 + L);
        FloatVector b10 = FloatVector.fromArray(S, y, p11), b11 = FloatVector.fromArray(S, y, p11 + L);
        for (int p = 0; p < steps; p++) {
            long bj = bBase + (long) p * COLS * Float.BYTES;
            int ai = r0 + p;
            FloatVector w0 = FloatVector.fromMemorySegment(S, b, bj, ORDER), w1 = FloatVector.fromMemorySegment(S, b, bj + L * Float.BYTES, ORDER);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01);
            x = FloatVector.broadcast(S, a[ai + rs]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11);
            x = FloatVector.broadcast(S, a[ai + 2 * rs]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21);
            x = FloatVector.broadcast(S, a[ai + 3 * rs]);
            a30 = x.fma(w0, a30); a31 = x.fma(w1, a31);
            x = FloatVector.broadcast(S, a[ai + 4 * rs]);
            a40 = x.fma(w0, a40); a41 = x.fma(w1, a41);
            x = FloatVector.broadcast(S, a[ai + 5 * rs]);
            a50 = x.fma(w0, a50); a51 = x.fma(w1, a51);
            x = FloatVector.broadcast(S, a[ai + 6 * rs]);
            a60 = x.fma(w0, a60); a61 = x.fma(w1, a61);
            x = FloatVector.broadcast(S, a[ai + 7 * rs]);
            a70 = x.fma(w0, a70); a71 = x.fma(w1, a71);
            x = FloatVector.broadcast(S, a[ai + 8 * rs]);
            a80 = x.fma(w0, a80); a81 = x.fma(w1, a81);
            x = FloatVector.broadcast(S, a[ai + 9 * rs]);
            a90 = x.fma(w0, a90); a91 = x.fma(w1, a91);
            x = FloatVector.broadcast(S, a[ai + 10 * rs]);
            b00 = x.fma(w0, b00); b01 = x.fma(w1, b01);
            x = FloatVector.broadcast(S, a[ai + 11 * rs]);
            b10 = x.fma(w0, b10); b11 = x.fma(w1, b11);
        }
        a00.intoArray(y, p0); a01.intoArray(y, p0 + L);
        a10.intoArray(y, p1); a11.intoArray(y, p1 + L);
        a20.intoArray(y, p2); a21.intoArray(y, p2 + L);
        a30.intoArray(y, p3); a31.intoArray(y, p3 + L);
        a40.intoArray(y, p4); a41.intoArray(y, p4 + L);
        a50.intoArray(y, p5); a51.intoArray(y, p5 + L);
        a60.intoArray(y, p6); a61.intoArray(y, p6 + L);
        a70.intoArray(y, p7); a71.intoArray(y, p7 + L);
        a80.intoArray(y, p8); a81.intoArray(y, p8 + L);
        a90.intoArray(y, p9); a91.intoArray(y, p9 + L);
        b00.intoArray(y, p10); b01.intoArray(y, p10 + L);
        b10.intoArray(y, p11); b11.intoArray(y, p11 + L);
    }

    /**
     * Row {@code r0} of {@link #run} alone, with the same fma sequence, so the same bits: for the last one or two rows
     * of a run of rows, where a whole tile would compute up to five rows for nothing (a 121-position conv output is
     * twenty tiles and one row).
     */
    static void runRow(float[] a, int r0, int[] segOff, int segFrom, int segments, int runLength, float[] b, int bBase,
                       float[] acc, int accBase, boolean accumulate, float[] bias, int biasBase, boolean relu) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a00 = accumulate ? FloatVector.fromArray(S, acc, accBase) : z;
        FloatVector a01 = accumulate ? FloatVector.fromArray(S, acc, accBase + L) : z;
        int bi = bBase;
        for (int sg = segFrom; sg < segFrom + segments; sg++) {
            int o = segOff[sg];
            for (int j = 0; j < runLength; j++) {
                int bj = bi + j * COLS;
                FloatVector x = FloatVector.broadcast(S, a[r0 + o + j]);
                a00 = x.fma(FloatVector.fromArray(S, b, bj), a00);
                a01 = x.fma(FloatVector.fromArray(S, b, bj + L), a01);
            }
            bi += runLength * COLS;
        }
        a00.intoArray(acc, accBase);
        a01.intoArray(acc, accBase + L);
        if (bias != null || relu) finishRow(acc, accBase, COLS, bias, biasBase, relu);
    }

    /** Rows at the end of a run that one-row tiles take instead of a whole tile (which would compute six). */
    static final int TAIL_ROWS = 2;

    /** {@link #finishRow} on a row stored in a segment (floats {@code at} on), whole vectors ({@code width} a multiple of {@link #L}). */
    static void finishRow(java.lang.foreign.MemorySegment acc, long at, int width, float[] bias, int biasBase, boolean relu) {
        FloatVector zero = FloatVector.zero(S);
        for (int v = 0; v < width; v += L) {
            long off = (at + v) * Float.BYTES;
            FloatVector r = FloatVector.fromMemorySegment(S, acc, off, ORDER).add(bias != null ? FloatVector.fromArray(S, bias, biasBase + v) : zero);
            if (relu) r = r.blend(zero, r.compare(jdk.incubator.vector.VectorOperators.LE, zero));
            r.intoMemorySegment(acc, off, ORDER);
        }
    }

    /**
     * The first {@code width} values of a stored row of a tile, {@code acc[at ..]}: {@code v + bias}, then with {@code relu} {@code <= 0 ? +0 : ·}
     * per lane: -0 becomes +0, NaN stays (the scalar {@code if (y <= 0f) y = 0f}). Without a bias the bias is +0, which
     * changes only a -0 sum into +0, and only with {@code relu}, which makes it +0 anyway. A pass over the stored row
     * (in L1) rather than on the accumulators before the store keeps {@link #run} small enough for C2: with that
     * epilogue inlined, C2 reached its inlining node cutoff ({@code NodeCountInliningCutoff}) and, once other shapes
     * had run through the tile, compiled some of the loop's vector ops as calls to the Vector API's boxed Java
     * fallbacks (JFR showed them under the tile): the CNN's convs ran ten times slower on AVX2 (2026-12-02).
     */
    static void finishRow(float[] acc, int at, int width, float[] bias, int biasBase, boolean relu) {
        FloatVector zero = FloatVector.zero(S);
        int v = 0;
        for (; v + L <= width; v += L) {
            FloatVector r = FloatVector.fromArray(S, acc, at + v).add(bias != null ? FloatVector.fromArray(S, bias, biasBase + v) : zero);
            if (relu) r = r.blend(zero, r.compare(jdk.incubator.vector.VectorOperators.LE, zero));
            r.intoArray(acc, at + v);
        }
        for (; v < width; v++) {
            float r = acc[at + v] + (bias != null ? bias[biasBase + v] : 0f);
            acc[at + v] = relu && r <= 0f ? 0f : r;
        }
    }
}
