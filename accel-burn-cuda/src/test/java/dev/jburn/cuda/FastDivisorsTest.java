package dev.jburn.cuda;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The multiply-high division the 32-bit index kernels use equals integer division for every n below 2^31. */
class FastDivisorsTest {
    @Test
    void quotientsEqualIntegerDivision() {
        Random r = new Random(5);
        long[] edges = {0, 1, 2, 3, 7, 8, 9, 255, 256, 257, 65535, 65536, 65537, (1L << 30) - 1, 1L << 30, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
        for (long d = 1; d <= 4096; d++) check(d, edges, r);
        long[] bigDivisors = {32768, 100_352, 802_816, (1L << 30) - 1, 1L << 30, (1L << 30) + 1, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
        for (long d : bigDivisors) check(d, edges, r);
        for (int k = 0; k < 2000; k++) check(1 + r.nextInt(Integer.MAX_VALUE), edges, r);
    }

    private static void check(long d, long[] edges, Random r) {
        int[] q = FastDivisors.of(d);
        for (long n : edges) assertEquals(n / d, FastDivisors.divide(n, q), n + " / " + d);
        for (long m = 1; m <= 3; m++) {
            for (long n : new long[] {m * d - 1, m * d, m * d + 1}) {
                if (n >= 0 && n <= Integer.MAX_VALUE) assertEquals(n / d, FastDivisors.divide(n, q), n + " / " + d);
            }
        }
        for (int k = 0; k < 64; k++) {
            long n = r.nextInt(Integer.MAX_VALUE);
            assertEquals(n / d, FastDivisors.divide(n, q), n + " / " + d);
        }
    }

    @Test
    void divisorsOutsideTheRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> FastDivisors.of(0));
        assertThrows(IllegalArgumentException.class, () -> FastDivisors.of(1L << 31));
    }

    @Test
    void offsetsOutside32BitsTakeThe64BitKernel() {
        long[] dims = {128, 28, 28, 32};
        assertEquals(true, StridedCopy.fits32(3_211_264, 0, dims, new long[] {25088, 28, 1, 784}));
        assertEquals(false, StridedCopy.fits32(1L << 31, 0, new long[] {1L << 31}, new long[] {1}));
        assertEquals(false, StridedCopy.fits32(4, 0, new long[] {4}, new long[] {1L << 30}));
        // A reversed axis: the base is the last element and the offsets run down to 0.
        assertEquals(true, StridedCopy.fits32(10, 9, new long[] {10}, new long[] {-1}));
        assertEquals(false, StridedCopy.fits32(10, 8, new long[] {10}, new long[] {-1}));
    }
}
