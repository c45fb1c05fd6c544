package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link FloatTranspose16}: every element lands at its transposed place, bit for bit (random bits, NaN payloads
 * included, moved as floats through lane selections only), for every column count 1..16, at offsets and row strides
 * other than 16; nothing outside the stored columns is written.
 */
class FloatTranspose16Test {
    @Test
    void transposesEveryColumnCount() {
        Random rnd = new Random(16);
        for (int columns = 1; columns <= 16; columns++) {
            int srcRow = 16 + rnd.nextInt(40), dstRow = 16 + rnd.nextInt(40), at = rnd.nextInt(9), to = rnd.nextInt(9);
            float[] src = new float[at + 16 * srcRow + 16];
            for (int i = 0; i < src.length; i++) {
                int bits = rnd.nextInt();
                // quiet-NaN payloads survive; signalling ones may be quieted by some moves, so they are not used
                src[i] = Float.isNaN(Float.intBitsToFloat(bits)) ? Float.intBitsToFloat(bits | 0x00400000) : Float.intBitsToFloat(bits);
            }
            float[] dst = new float[to + 16 * dstRow + 16];
            java.util.Arrays.fill(dst, -7f);
            FloatTranspose16.transpose(src, at, srcRow, dst, to, dstRow, columns);
            for (int j = 0; j < 16; j++) {
                for (int i = 0; i < 16; i++) {
                    int got = Float.floatToRawIntBits(dst[to + j * dstRow + i]);
                    if (j < columns) assertEquals(Float.floatToRawIntBits(src[at + i * srcRow + j]), got, "columns " + columns + ": " + i + ", " + j);
                    else assertEquals(Float.floatToRawIntBits(-7f), got, "columns " + columns + ": wrote column " + j);
                }
            }
        }
    }
}
