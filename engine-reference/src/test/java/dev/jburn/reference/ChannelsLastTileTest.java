package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** {@link ChannelsLastTile#runRow} is one row of {@link ChannelsLastTile#run}, to the bit. */
class ChannelsLastTileTest {
    private static final int L = ChannelsLastTile.L, W = ChannelsLastTile.COLS;

    @Test
    void oneRowHasTheBitsOfThatRowOfAWholeTile() {
        Random rnd = new Random(45);
        for (int trial = 0; trial < 40; trial++) {
            int segments = rnd.nextInt(5), runLength = 1 + rnd.nextInt(9), aStep = 1 + rnd.nextInt(3), bStride = W + rnd.nextInt(2) * L;
            int[] segOff = new int[segments];
            for (int s = 0; s < segments; s++) segOff[s] = rnd.nextInt(20);
            float[] a = floats(rnd, 40 + 20 + runLength * aStep), b = floats(rnd, segments * runLength * bStride + W);
            int[] r = new int[6];
            for (int i = 0; i < 6; i++) r[i] = rnd.nextInt(40);
            boolean accumulate = rnd.nextBoolean(), relu = rnd.nextBoolean();
            float[] bias = rnd.nextBoolean() ? floats(rnd, W) : null;
            int pitch = W + rnd.nextInt(3) * L;
            float[] start = floats(rnd, 6 * pitch);
            float[] whole = start.clone();
            ChannelsLastTile.run(a, r[0], r[1], r[2], r[3], r[4], r[5], segOff, segments, runLength, aStep, b, 0, bStride, whole, 0, pitch,
                    accumulate, bias, 0, relu);
            for (int i = 0; i < 6; i++) {
                float[] one = start.clone();
                ChannelsLastTile.runRow(a, r[i], segOff, segments, runLength, aStep, b, 0, bStride, one, i * pitch, accumulate, bias, 0, relu);
                assertArrayEquals(bits(whole, i * pitch), bits(one, i * pitch), "trial " + trial + ", row " + i);
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
