package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ChannelsLastTile#run6Pair} against two {@link ChannelsLastTile#run6} calls, bit for bit (the same fma chains),
 * with NaN, infinities and signed zeros among the operands, on whatever vector width this machine has; nothing written
 * outside the two tiles.
 */
class ChannelsLastTilePairTest {
    private static final int L = ChannelsLastTile.L, W = ChannelsLastTile.COLS, RS = ChannelsLastTile.RUN_STRIDE;
    private static final float[] SPECIAL = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f, Float.MIN_VALUE};

    @Test
    void aPairIsTwoSingleTiles() {
        Random rnd = new Random(24);
        for (int steps : new int[] {1, 2, 7, 32, 96, RS}) {
            int r0 = 3, pitch = 2 * W + 5;
            float[] a = new float[r0 + 6 * RS + steps];
            for (int i = 0; i < a.length; i++) a[i] = value(rnd);
            int base0 = 11, base1 = base0 + steps * W + 7;
            float[] b = new float[base1 + steps * W];
            for (int i = 0; i < b.length; i++) b[i] = value(rnd);
            int acc0 = 2, acc1 = acc0 + W + 1, size = acc1 + 6 * pitch;
            float[] want = new float[size], got = new float[size];
            java.util.Arrays.fill(want, 42f);
            java.util.Arrays.fill(got, 42f);
            ChannelsLastTile.run6(a, r0, steps, b, base0, want, acc0, pitch);
            ChannelsLastTile.run6(a, r0, steps, b, base1, want, acc1, pitch);
            ChannelsLastTile.run6Pair(a, r0, steps, b, base0, base1, got, acc0, acc1, pitch);
            for (int i = 0; i < size; i++) {
                assertTrue(Float.floatToRawIntBits(want[i]) == Float.floatToRawIntBits(got[i]) || Float.isNaN(want[i]) && Float.isNaN(got[i]),
                        "steps " + steps + ", element " + i + ": " + got[i] + ", want " + want[i]);
            }
        }
        assertEquals(2 * L, W);
    }

    private static float value(Random rnd) {
        return rnd.nextInt(20) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextGaussian();
    }
}
