package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * An 8 × 8 float transposition in registers (256-bit vectors, AVX2's width): {@link FloatTranspose16}'s form with three
 * stages of two-vector lane selections (stage {@code k} swaps bit {@code k} of the row index with bit {@code k} of the
 * lane index between the row pairs {@code r, r | 2^k}). Heap arrays, one body (no vector crosses a call).
 */
final class FloatTranspose8 {
    private FloatTranspose8() {}

    static final VectorSpecies<Float> S = FloatVector.SPECIES_256;
    // one constant per stage (array elements are not constants to C2)
    private static final VectorShuffle<Float> LOW0 = shuffle(0, true), LOW1 = shuffle(1, true), LOW2 = shuffle(2, true);
    private static final VectorShuffle<Float> HIGH0 = shuffle(0, false), HIGH1 = shuffle(1, false), HIGH2 = shuffle(2, false);

    /** Stage {@code k}'s selection for the pair's first row ({@code low}) or second: the second vector's lanes as -8..-1. */
    private static VectorShuffle<Float> shuffle(int k, boolean low) {
        int bit = 1 << k;
        int[] idx = new int[8];
        for (int c = 0; c < 8; c++) {
            boolean set = (c & bit) != 0;
            idx[c] = low ? (set ? (c ^ bit) - 8 : c) : (set ? c - 8 : c ^ bit);
        }
        return VectorShuffle.fromArray(S, idx, 0);
    }

    /**
     * {@code dst[to + j·dstRow + i] = src[at + i·srcRow + j]} for {@code j < columns}, {@code i < 8}: a partial piece
     * ({@code columns < 8}) still reads 8 floats of each row (all in {@code src}), and stores only its columns.
     */
    static void transpose(float[] src, int at, int srcRow, float[] dst, int to, int dstRow, int columns) {
        FloatVector v0 = FloatVector.fromArray(S, src, at);
        FloatVector v1 = FloatVector.fromArray(S, src, at + srcRow);
        FloatVector v2 = FloatVector.fromArray(S, src, at + 2 * srcRow);
        FloatVector v3 = FloatVector.fromArray(S, src, at + 3 * srcRow);
        FloatVector v4 = FloatVector.fromArray(S, src, at + 4 * srcRow);
        FloatVector v5 = FloatVector.fromArray(S, src, at + 5 * srcRow);
        FloatVector v6 = FloatVector.fromArray(S, src, at + 6 * srcRow);
        FloatVector v7 = FloatVector.fromArray(S, src, at + 7 * srcRow);
        { // stage 0
            VectorShuffle<Float> lo = LOW0, hi = HIGH0;
            FloatVector t0 = v0.rearrange(lo, v1), t1 = v0.rearrange(hi, v1);
            FloatVector t2 = v2.rearrange(lo, v3), t3 = v2.rearrange(hi, v3);
            FloatVector t4 = v4.rearrange(lo, v5), t5 = v4.rearrange(hi, v5);
            FloatVector t6 = v6.rearrange(lo, v7), t7 = v6.rearrange(hi, v7);
            v0 = t0; v1 = t1; v2 = t2; v3 = t3; v4 = t4; v5 = t5; v6 = t6; v7 = t7;
        }
        { // stage 1
            VectorShuffle<Float> lo = LOW1, hi = HIGH1;
            FloatVector t0 = v0.rearrange(lo, v2), t2 = v0.rearrange(hi, v2);
            FloatVector t1 = v1.rearrange(lo, v3), t3 = v1.rearrange(hi, v3);
            FloatVector t4 = v4.rearrange(lo, v6), t6 = v4.rearrange(hi, v6);
            FloatVector t5 = v5.rearrange(lo, v7), t7 = v5.rearrange(hi, v7);
            v0 = t0; v1 = t1; v2 = t2; v3 = t3; v4 = t4; v5 = t5; v6 = t6; v7 = t7;
        }
        { // stage 2
            VectorShuffle<Float> lo = LOW2, hi = HIGH2;
            FloatVector t0 = v0.rearrange(lo, v4), t4 = v0.rearrange(hi, v4);
            FloatVector t1 = v1.rearrange(lo, v5), t5 = v1.rearrange(hi, v5);
            FloatVector t2 = v2.rearrange(lo, v6), t6 = v2.rearrange(hi, v6);
            FloatVector t3 = v3.rearrange(lo, v7), t7 = v3.rearrange(hi, v7);
            v0 = t0; v1 = t1; v2 = t2; v3 = t3; v4 = t4; v5 = t5; v6 = t6; v7 = t7;
        }
        // the first columns only (a row's last, partial piece)
        if (columns > 0) v0.intoArray(dst, to);
        if (columns > 1) v1.intoArray(dst, to + dstRow);
        if (columns > 2) v2.intoArray(dst, to + 2 * dstRow);
        if (columns > 3) v3.intoArray(dst, to + 3 * dstRow);
        if (columns > 4) v4.intoArray(dst, to + 4 * dstRow);
        if (columns > 5) v5.intoArray(dst, to + 5 * dstRow);
        if (columns > 6) v6.intoArray(dst, to + 6 * dstRow);
        if (columns > 7) v7.intoArray(dst, to + 7 * dstRow);
    }
}
