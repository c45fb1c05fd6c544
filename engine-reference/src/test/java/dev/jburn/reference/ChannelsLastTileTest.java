package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * {@link ChannelsLastTile#run} against a scalar oracle (the same fma sequence per output, then the bias and the ReLU),
 * to the bit, and {@link ChannelsLastTile#runRow} is one row of it.
 */
class ChannelsLastTileTest {
    private static final int L = ChannelsLastTile.L, W = ChannelsLastTile.COLS, R = ChannelsLastTile.ROWS;

    @Test
    void aTileAndEachOfItsRowsHaveTheBitsOfTheScalarSums() {
        Random rnd = new Random(45);
        for (int trial = 0; trial < 60; trial++) {
            int segments = rnd.nextInt(5), runLength = 1 + rnd.nextInt(9), segFrom = segments == 0 ? 0 : rnd.nextInt(segments);
            int[] segOff = new int[segments];
            for (int s = 0; s < segments; s++) segOff[s] = rnd.nextInt(20);
            float[] a = floats(rnd, 40 + 20 + runLength), b = floats(rnd, segments * runLength * W + W);
            if (trial % 3 == 0) a[rnd.nextInt(a.length)] = new float[] {Float.NaN, Float.POSITIVE_INFINITY, -0.0f}[trial % 9 / 3];
            int[] r = new int[R];
            for (int i = 0; i < R; i++) r[i] = rnd.nextInt(40);
            boolean accumulate = rnd.nextBoolean(), relu = rnd.nextBoolean();
            float[] bias = rnd.nextBoolean() ? floats(rnd, W) : null;
            int pitch = W + rnd.nextInt(3) * L, bFrom = segFrom * runLength * W, count = segments - segFrom;
            float[] start = floats(rnd, R * pitch);
            float[] whole = start.clone();
            ChannelsLastTile.run(a, r[0], r[1], r[2], r[3], r[4], r[5], segOff, segFrom, count, runLength, b, bFrom, whole, 0, pitch,
                    accumulate, bias, 0, relu);
            for (int i = 0; i < R; i++) {
                float[] expected = new float[W];
                for (int v = 0; v < W; v++) {
                    float acc = accumulate ? start[i * pitch + v] : 0f;
                    for (int s = segFrom; s < segments; s++) {
                        for (int j = 0; j < runLength; j++) acc = Math.fma(a[r[i] + segOff[s] + j], b[bFrom + ((s - segFrom) * runLength + j) * W + v], acc);
                    }
                    if (bias != null) acc += bias[v];
                    expected[v] = relu && acc <= 0f ? 0f : acc; // NaN stays
                }
                assertArrayEquals(bits(expected, 0), bits(whole, i * pitch), "trial " + trial + ", row " + i + " of the tile");
                float[] one = start.clone();
                ChannelsLastTile.runRow(a, r[i], segOff, segFrom, count, runLength, b, bFrom, one, i * pitch, accumulate, bias, 0, relu);
                assertArrayEquals(bits(expected, 0), bits(one, i * pitch), "trial " + trial + ", row " + i + " alone");
            }
        }
    }

    private static float[] floats(Random rnd, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = rnd.nextFloat() * 2 - 1;
        return v;
    }

    private static int[] bits(float[] v, int from) {
        int[] b = new int[W];
        for (int i = 0; i < W; i++) b[i] = Float.floatToRawIntBits(v[from + i]);
        return b;
    }
}
