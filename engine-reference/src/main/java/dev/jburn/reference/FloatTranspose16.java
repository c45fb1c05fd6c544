package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * A 16 × 16 float transposition in registers (512-bit vectors): 16 rows loaded as vectors, four stages of two-vector
 * lane selections (stage {@code k} swaps bit {@code k} of the row index with bit {@code k} of the lane index between the
 * row pairs {@code r, r | 2^k}), and the 16 columns stored as vectors: 64 selections (one permute each) per 256 floats,
 * where a gather per column ({@link Transpose32}'s form) or a scalar loop take about a load per float. Heap arrays
 * (one body: the loads inline, where a helper per row returning a vector was not inlined and boxed every vector).
 */
final class FloatTranspose16 {
    private FloatTranspose16() {}

    static final VectorSpecies<Float> S = FloatVector.SPECIES_512;
    // one constant per stage (array elements are not constants to C2)
    private static final VectorShuffle<Float> LOW0 = shuffle(0, true), LOW1 = shuffle(1, true), LOW2 = shuffle(2, true), LOW3 = shuffle(3, true);
    private static final VectorShuffle<Float> HIGH0 = shuffle(0, false), HIGH1 = shuffle(1, false), HIGH2 = shuffle(2, false), HIGH3 = shuffle(3, false);

    /**
     * Stage {@code k}'s selection for the pair's first row ({@code low}) or second: lanes of the first vector as indices
     * 0..15, of the second as -16..-1 (wrapped).
     */
    private static VectorShuffle<Float> shuffle(int k, boolean low) {
        int bit = 1 << k;
        int[] idx = new int[16];
        for (int c = 0; c < 16; c++) {
            boolean set = (c & bit) != 0;
            idx[c] = low ? (set ? (c ^ bit) - 16 : c) : (set ? c - 16 : c ^ bit);
        }
        return VectorShuffle.fromArray(S, idx, 0);
    }

    /**
     * {@code dst[to + j·dstRow + i] = src[at + i·srcRow + j]} for {@code j < columns}, {@code i < 16}: a partial piece
     * ({@code columns < 16}) still reads 16 floats of each row (all in {@code src}), and stores only its columns.
     */
    static void transpose(float[] src, int at, int srcRow, float[] dst, int to, int dstRow, int columns) {
        FloatVector v0 = FloatVector.fromArray(S, src, at + 0 * srcRow);
        FloatVector v1 = FloatVector.fromArray(S, src, at + 1 * srcRow);
        FloatVector v2 = FloatVector.fromArray(S, src, at + 2 * srcRow);
        FloatVector v3 = FloatVector.fromArray(S, src, at + 3 * srcRow);
        FloatVector v4 = FloatVector.fromArray(S, src, at + 4 * srcRow);
        FloatVector v5 = FloatVector.fromArray(S, src, at + 5 * srcRow);
        FloatVector v6 = FloatVector.fromArray(S, src, at + 6 * srcRow);
        FloatVector v7 = FloatVector.fromArray(S, src, at + 7 * srcRow);
        FloatVector v8 = FloatVector.fromArray(S, src, at + 8 * srcRow);
        FloatVector v9 = FloatVector.fromArray(S, src, at + 9 * srcRow);
        FloatVector v10 = FloatVector.fromArray(S, src, at + 10 * srcRow);
        FloatVector v11 = FloatVector.fromArray(S, src, at + 11 * srcRow);
        FloatVector v12 = FloatVector.fromArray(S, src, at + 12 * srcRow);
        FloatVector v13 = FloatVector.fromArray(S, src, at + 13 * srcRow);
        FloatVector v14 = FloatVector.fromArray(S, src, at + 14 * srcRow);
        FloatVector v15 = FloatVector.fromArray(S, src, at + 15 * srcRow);
        { // stage 0
            VectorShuffle<Float> lo = LOW0, hi = HIGH0;
            FloatVector t0 = v0.rearrange(lo, v1), t1 = v0.rearrange(hi, v1);
            FloatVector t2 = v2.rearrange(lo, v3), t3 = v2.rearrange(hi, v3);
            FloatVector t4 = v4.rearrange(lo, v5), t5 = v4.rearrange(hi, v5);
            FloatVector t6 = v6.rearrange(lo, v7), t7 = v6.rearrange(hi, v7);
            FloatVector t8 = v8.rearrange(lo, v9), t9 = v8.rearrange(hi, v9);
            FloatVector t10 = v10.rearrange(lo, v11), t11 = v10.rearrange(hi, v11);
            FloatVector t12 = v12.rearrange(lo, v13), t13 = v12.rearrange(hi, v13);
            FloatVector t14 = v14.rearrange(lo, v15), t15 = v14.rearrange(hi, v15);
            v0 = t0; v1 = t1; v2 = t2; v3 = t3; v4 = t4; v5 = t5; v6 = t6; v7 = t7; v8 = t8; v9 = t9; v10 = t10; v11 = t11; v12 = t12; v13 = t13; v14 = t14; v15 = t15;
        }
        { // stage 1
            VectorShuffle<Float> lo = LOW1, hi = HIGH1;
            FloatVector t0 = v0.rearrange(lo, v2), t2 = v0.rearrange(hi, v2);
            FloatVector t1 = v1.rearrange(lo, v3), t3 = v1.rearrange(hi, v3);
            FloatVector t4 = v4.rearrange(lo, v6), t6 = v4.rearrange(hi, v6);
            FloatVector t5 = v5.rearrange(lo, v7), t7 = v5.rearrange(hi, v7);
            FloatVector t8 = v8.rearrange(lo, v10), t10 = v8.rearrange(hi, v10);
            FloatVector t9 = v9.rearrange(lo, v11), t11 = v9.rearrange(hi, v11);
            FloatVector t12 = v12.rearrange(lo, v14), t14 = v12.rearrange(hi, v14);
            FloatVector t13 = v13.rearrange(lo, v15), t15 = v13.rearrange(hi, v15);
            v0 = t0; v1 = t1; v2 = t2; v3 = t3; v4 = t4; v5 = t5; v6 = t6; v7 = t7; v8 = t8; v9 = t9; v10 = t10; v11 = t11; v12 = t12; v13 = t13; v14 = t14; v15 = t15;
        }
        { // stage 2
            VectorShuffle<Float> lo = LOW2, hi = HIGH2;
            FloatVector t0 = v0.rearrange(lo, v4), t4 = v0.rearrange(hi, v4);
            FloatVector t1 = v1.rearrange(lo, v5), t5 = v1.rearrange(hi, v5);
            FloatVector t2 = v2.rearrange(lo, v6), t6 = v2.rearrange(hi, v6);
            FloatVector t3 = v3.rearrange(lo, v7), t7 = v3.rearrange(hi, v7);
            FloatVector t8 = v8.rearrange(lo, v12), t12 = v8.rearrange(hi, v12);
            FloatVector t9 = v9.rearrange(lo, v13), t13 = v9.rearrange(hi, v13);
            FloatVector t10 = v10.rearrange(lo, v14), t14 = v10.rearrange(hi, v14);
            FloatVector t11 = v11.rearrange(lo, v15), t15 = v11.rearrange(hi, v15);
            v0 = t0; v1 = t1; v2 = t2; v3 = t3; v4 = t4; v5 = t5; v6 = t6; v7 = t7; v8 = t8; v9 = t9; v10 = t10; v11 = t11; v12 = t12; v13 = t13; v14 = t14; v15 = t15;
        }
        { // stage 3
            VectorShuffle<Float> lo = LOW3, hi = HIGH3;
            FloatVector t0 = v0.rearrange(lo, v8), t8 = v0.rearrange(hi, v8);
            FloatVector t1 = v1.rearrange(lo, v9), t9 = v1.rearrange(hi, v9);
            FloatVector t2 = v2.rearrange(lo, v10), t10 = v2.rearrange(hi, v10);
            FloatVector t3 = v3.rearrange(lo, v11), t11 = v3.rearrange(hi, v11);
            FloatVector t4 = v4.rearrange(lo, v12), t12 = v4.rearrange(hi, v12);
            FloatVector t5 = v5.rearrange(lo, v13), t13 = v5.rearrange(hi, v13);
            FloatVector t6 = v6.rearrange(lo, v14), t14 = v6.rearrange(hi, v14);
            FloatVector t7 = v7.rearrange(lo, v15), t15 = v7.rearrange(hi, v15);
            v0 = t0; v1 = t1; v2 = t2; v3 = t3; v4 = t4; v5 = t5; v6 = t6; v7 = t7; v8 = t8; v9 = t9; v10 = t10; v11 = t11; v12 = t12; v13 = t13; v14 = t14; v15 = t15;
        }
        // the first columns only (a row's last, partial piece)
        if (columns > 0) v0.intoArray(dst, to + 0 * dstRow);
        if (columns > 1) v1.intoArray(dst, to + 1 * dstRow);
        if (columns > 2) v2.intoArray(dst, to + 2 * dstRow);
        if (columns > 3) v3.intoArray(dst, to + 3 * dstRow);
        if (columns > 4) v4.intoArray(dst, to + 4 * dstRow);
        if (columns > 5) v5.intoArray(dst, to + 5 * dstRow);
        if (columns > 6) v6.intoArray(dst, to + 6 * dstRow);
        if (columns > 7) v7.intoArray(dst, to + 7 * dstRow);
        if (columns > 8) v8.intoArray(dst, to + 8 * dstRow);
        if (columns > 9) v9.intoArray(dst, to + 9 * dstRow);
        if (columns > 10) v10.intoArray(dst, to + 10 * dstRow);
        if (columns > 11) v11.intoArray(dst, to + 11 * dstRow);
        if (columns > 12) v12.intoArray(dst, to + 12 * dstRow);
        if (columns > 13) v13.intoArray(dst, to + 13 * dstRow);
        if (columns > 14) v14.intoArray(dst, to + 14 * dstRow);
        if (columns > 15) v15.intoArray(dst, to + 15 * dstRow);
    }

}
