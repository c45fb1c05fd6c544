package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link FloatTranspose8}: every element lands at its transposed place, bit for bit (random bits, NaN payloads
 * included, moved as floats through lane selections only), for every column count 1..8, at offsets and row strides
 * other than 8; nothing outside the stored columns is written.
 */
class FloatTranspose8Test {
    @Test
    void transposesEveryColumnCount() {
        Random rnd = new Random(16);
        for (int columns = 1; columns <= 8; columns++) {
            int srcRow = 8 + rnd.nextInt(40), dstRow = 8 + rnd.nextInt(40), at = rnd.nextInt(9), to = rnd.nextInt(9);
            float[] src = new float[at + 8 * srcRow + 8];
            for (int i = 0; i < src.length; i++) {
                int bits = rnd.nextInt();
                // quiet-NaN payloads survive; signalling ones may be quieted by some moves, so they are not used
                src[i] = Float.isNaN(Float.intBitsToFloat(bits)) ? Float.intBitsToFloat(bits | 0x00400000) : Float.intBitsToFloat(bits);
            }
            float[] dst = new float[to + 8 * dstRow + 8];
            java.util.Arrays.fill(dst, -7f);
            FloatTranspose8.transpose(src, at, srcRow, dst, to, dstRow, columns);
            for (int j = 0; j < 8; j++) {
                for (int i = 0; i < 8; i++) {
                    int got = Float.floatToRawIntBits(dst[to + j * dstRow + i]);
                    if (j < columns) assertEquals(Float.floatToRawIntBits(src[at + i * srcRow + j]), got, "columns " + columns + ": " + i + ", " + j);
                    else assertEquals(Float.floatToRawIntBits(-7f), got, "columns " + columns + ": wrote column " + j);
                }
            }
        }
    }
}
