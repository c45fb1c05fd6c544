package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;

/**
 * The register tile of {@link DirectConvF32}'s filter-lane path: 12 consecutive output positions × 32 filters (two
 * 512-bit vectors), {@code acc[i][v] = Σ_p a[r0 + stepAt[p] + i] · b[bBase + p·32 + v·16]} over the steps {@code p} in
 * order. {@code a} is a task's zero-padded input planes (one channel's plane a run of positions, so the 12 rows are 12
 * neighbouring floats: one base, constant displacements) and {@code b} the kernel packed per step, 64-byte aligned.
 * Twelve broadcasts and two vector loads per 24 fma, as {@link ChannelsLastTile#run12}: the NCHW tile with positions
 * in the lanes ({@link DirectConvF32}'s 8 filters × 3 vectors) needs three loads that straddle cache lines and eight
 * broadcasts per 24 fma and ran at ~85-95 GFLOP/s a thread on the ResNet-like conv, where this one's form reaches
 * ~175 in the channels-last forward. The price is a transposition on the way out ({@link #store}).
 * {@link WinogradConvF32} runs its per-point GEMMs with {@link #run} too (steps = channels, 12 tiles × 32 filters), or
 * with {@link #run6} on AVX2 (6 tiles × 16 filters); so does {@link DirectConvF32} there (6 positions × 16 filters).
 */
final class FilterLaneTile {
    private FilterLaneTile() {}

    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    private static final java.nio.ByteOrder ORDER = java.nio.ByteOrder.nativeOrder();
    /** Output positions per tile. */
    static final int ROWS = 12;
    /** Filters per tile: two vectors. */
    static final int COLS = 2 * L;

    /**
     * The tile over steps {@code 0 .. steps-1}, continuing the sums in {@code acc} ({@code [ROWS][COLS]} from {@code at}) or
     * from zero when {@code fresh}, stored back there. One loop over a step table: each sum is one fma chain over the
     * steps in order, so a reduction split into calls that continue each other gives the same bits as one call.
     */
    static void run(float[] a, int r0, int[] stepAt, int stepFrom, int steps, MemorySegment b, long bBase, float[] acc,
                    int at, boolean fresh) {
        FloatVector a00, a01, a10, a11, a20, a21, a30, a31, a40, a41, a50, a51;
        FloatVector a60, a61, a70, a71, a80, a81, a90, a91, b00, b01, b10, b11;
        if (fresh) {
            FloatVector z = FloatVector.zero(S);
            a00 = z; a01 = z; a10 = z; a11 = z; a20 = z; a21 = z; a30 = z; a31 = z; a40 = z; a41 = z; a50 = z; a51 = z;
            a60 = z; a61 = z; a70 = z; a71 = z; a80 = z; a81 = z; a90 = z; a91 = z; b00 = z; b01 = z; b10 = z; b11 = z;
        } else {
            a00 = FloatVector.fromArray(S, acc, at); a01 = FloatVector.fromArray(S, acc, at + L);
            a10 = FloatVector.fromArray(S, acc, at + 2 * L); a11 = FloatVector.fromArray(S, acc, at + 3 * L);
            a20 = FloatVector.fromArray(S, acc, at + 4 * L); a21 = FloatVector.fromArray(S, acc, at + 5 * L);
            a30 = FloatVector.fromArray(S, acc, at + 6 * L); a31 = FloatVector.fromArray(S, acc, at + 7 * L);
            a40 = FloatVector.fromArray(S, acc, at + 8 * L); a41 = FloatVector.fromArray(S, acc, at + 9 * L);
            a50 = FloatVector.fromArray(S, acc, at + 10 * L); a51 = FloatVector.fromArray(S, acc, at + 11 * L);
            a60 = FloatVector.fromArray(S, acc, at + 12 * L); a61 = FloatVector.fromArray(S, acc, at + 13 * L);
            a70 = FloatVector.fromArray(S, acc, at + 14 * L); a71 = FloatVector.fromArray(S, acc, at + 15 * L);
            a80 = FloatVector.fromArray(S, acc, at + 16 * L); a81 = FloatVector.fromArray(S, acc, at + 17 * L);
            a90 = FloatVector.fromArray(S, acc, at + 18 * L); a91 = FloatVector.fromArray(S, acc, at + 19 * L);
            b00 = FloatVector.fromArray(S, acc, at + 20 * L); b01 = FloatVector.fromArray(S, acc, at + 21 * L);
            b10 = FloatVector.fromArray(S, acc, at + 22 * L); b11 = FloatVector.fromArray(S, acc, at + 23 * L);
        }
        for (int j = 0; j < steps; j++) {
            long bj = bBase + (long) j * COLS * Float.BYTES;
            int ai = r0 + stepAt[stepFrom + j];
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
        a00.intoArray(acc, at); a01.intoArray(acc, at + L);
        a10.intoArray(acc, at + 2 * L); a11.intoArray(acc, at + 3 * L);
        a20.intoArray(acc, at + 4 * L); a21.intoArray(acc, at + 5 * L);
        a30.intoArray(acc, at + 6 * L); a31.intoArray(acc, at + 7 * L);
        a40.intoArray(acc, at + 8 * L); a41.intoArray(acc, at + 9 * L);
        a50.intoArray(acc, at + 10 * L); a51.intoArray(acc, at + 11 * L);
        a60.intoArray(acc, at + 12 * L); a61.intoArray(acc, at + 13 * L);
        a70.intoArray(acc, at + 14 * L); a71.intoArray(acc, at + 15 * L);
        a80.intoArray(acc, at + 16 * L); a81.intoArray(acc, at + 17 * L);
        a90.intoArray(acc, at + 18 * L); a91.intoArray(acc, at + 19 * L);
        b00.intoArray(acc, at + 20 * L); b01.intoArray(acc, at + 21 * L);
        b10.intoArray(acc, at + 22 * L); b11.intoArray(acc, at + 23 * L);
    }

    /** Output positions of {@link #run6}'s tile. */
    static final int ROWS6 = 6;

    /**
     * {@link #run} with {@link #ROWS6} rows: 12 accumulators, two loads and six broadcasts per 12 fma, 15 registers, for
     * AVX2's 16 (the 12-row tile's 24 accumulators spill there). Used by {@link WinogradConvF32}'s point GEMMs with
     * 8-lane vectors; the same fma chains per sum as {@link #run}.
     */
    static void run6(float[] a, int r0, int[] stepAt, int stepFrom, int steps, MemorySegment b, long bBase, float[] acc,
                     int at, boolean fresh) {
        FloatVector a00, a01, a10, a11, a20, a21, a30, a31, a40, a41, a50, a51;
        if (fresh) {
            FloatVector z = FloatVector.zero(S);
            a00 = z; a01 = z; a10 = z; a11 = z; a20 = z; a21 = z; a30 = z; a31 = z; a40 = z; a41 = z; a50 = z; a51 = z;
        } else {
            a00 = FloatVector.fromArray(S, acc, at); a01 = FloatVector.fromArray(S, acc, at + L);
            a10 = FloatVector.fromArray(S, acc, at + 2 * L); a11 = FloatVector.fromArray(S, acc, at + 3 * L);
            a20 = FloatVector.fromArray(S, acc, at + 4 * L); a21 = FloatVector.fromArray(S, acc, at + 5 * L);
            a30 = FloatVector.fromArray(S, acc, at + 6 * L); a31 = FloatVector.fromArray(S, acc, at + 7 * L);
            a40 = FloatVector.fromArray(S, acc, at + 8 * L); a41 = FloatVector.fromArray(S, acc, at + 9 * L);
            a50 = FloatVector.fromArray(S, acc, at + 10 * L); a51 = FloatVector.fromArray(S, acc, at + 11 * L);
        }
        for (int j = 0; j < steps; j++) {
            long bj = bBase + (long) j * COLS * Float.BYTES;
            int ai = r0 + stepAt[stepFrom + j];
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
        }
        a00.intoArray(acc, at); a01.intoArray(acc, at + L);
        a10.intoArray(acc, at + 2 * L); a11.intoArray(acc, at + 3 * L);
        a20.intoArray(acc, at + 4 * L); a21.intoArray(acc, at + 5 * L);
        a30.intoArray(acc, at + 6 * L); a31.intoArray(acc, at + 7 * L);
        a40.intoArray(acc, at + 8 * L); a41.intoArray(acc, at + 9 * L);
        a50.intoArray(acc, at + 10 * L); a51.intoArray(acc, at + 11 * L);
    }

    /**
     * Rows of the tile {@link DirectConvF32} runs at this vector width: {@link #run}'s 12 with 512-bit vectors, {@link #run6}'s
     * 6 with 256-bit ones (the tiles {@link #store} reads).
     */
    static final int TILE_ROWS = L >= 16 ? ROWS : ROWS6;

    /** Lane {@code i} of a filter's gather: row {@code i} of a tile (lanes past the rows read row 0 and are never stored). */
    private static final int[] ROW_INDEX = java.util.stream.IntStream.range(0, L).map(i -> i < TILE_ROWS ? i * COLS : 0).toArray();

    /**
     * Stores a tile ({@code acc} from {@code at}, {@code [TILE_ROWS][COLS]}) into NCHW output: filter {@code f}'s 12 (6 on
     * AVX2) positions gathered into one vector, then, for each output row piece {@code k}, lanes {@code [laneFrom[k], laneTo[k])} stored
     * with a mask at byte {@code pieceAt[k] + f·planeBytes} (the byte of lane 0 as if the row went on). No transposition
     * through memory: a scalar one cost ~1.5 ms of the ResNet-like conv's 17 (one thread).
     */
    static void store(float[] acc, int at, int valid, MemorySegment dst, long planeBytes, int pieces, long[] pieceAt,
                      int[] laneFrom, int[] laneTo) {
        for (int f = 0; f < valid; f++) {
            FloatVector v = FloatVector.fromArray(S, acc, at + f, ROW_INDEX, 0);
            for (int k = 0; k < pieces; k++) {
                var m = jdk.incubator.vector.VectorMask.fromLong(S, (1L << laneTo[k]) - (1L << laneFrom[k])); // lanes [from, to)
                v.intoMemorySegment(dst, pieceAt[k] + f * planeBytes, ORDER, m);
            }
        }
    }
}
