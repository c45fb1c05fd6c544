package dev.jburn;

/**
 * The Threefry-2x32-20 block cipher and JAX's counter layout. Pure integer arithmetic on the
 * host, so every engine draws the same numbers for the same key.
 */
final class Threefry {
    private Threefry() {}

    private static final int[] ROT_ODD = {13, 15, 26, 6};
    private static final int[] ROT_EVEN = {17, 29, 16, 24};

    /** One block: encrypts the counter pair {@code (x0, x1)} under key {@code (k0, k1)}; returns {@code (y0, y1)}. */
    static int[] block(int k0, int k1, int x0, int x1) {
        int[] ks = {k0, k1, k0 ^ k1 ^ 0x1BD11BDA};
        x0 += ks[0];
        x1 += ks[1];
        for (int i = 1; i <= 5; i++) {
            int[] r = (i & 1) == 1 ? ROT_ODD : ROT_EVEN;
            for (int rot : r) {
                x0 += x1;
                x1 = Integer.rotateLeft(x1, rot) ^ x0;
            }
            x0 += ks[i % 3];
            x1 += ks[(i + 1) % 3] + i;
        }
        return new int[] {x0, x1};
    }

    /**
     * {@code n} 32-bit words for key {@code (k0, k1)}: counters {@code 0..n-1} (padded with one 0 when
     * {@code n} is odd) split in halves, encrypted pairwise, all first words then all second words.
     */
    static int[] bits(int k0, int k1, long n) {
        if (n > Integer.MAX_VALUE - 8) throw new JBurnException(dev.jburn.spi.UserOp.name("random"), "too many random words requested: " + n);
        int count = (int) n;
        int half = (count + 1) / 2;
        int[] out = new int[count];
        for (int i = 0; i < half; i++) {
            int x0 = i;
            int x1 = half + i < count ? half + i : 0;
            int[] y = block(k0, k1, x0, x1);
            out[i] = y[0];
            if (half + i < count) out[half + i] = y[1];
        }
        return out;
    }
}
