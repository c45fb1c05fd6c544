package dev.jburn.reference;

/**
 * Floats and doubles mapped to integers that count representable values (both zeros to 0), so that the
 * difference of two is their distance in ulps; for the PolyMath tests. (The conformance kit's
 * {@code FloatFormats.ulpDistance} does the same for every dtype, but this module cannot depend on the kit.)
 */
final class UlpOrder {
    private UlpOrder() {}

    static long of(float f) {
        int b = Float.floatToRawIntBits(f);
        return b < 0 ? -(long) (b & 0x7fffffff) : b;
    }

    static long of(double d) {
        long b = Double.doubleToRawLongBits(d);
        return b < 0 ? -(b & Long.MAX_VALUE) : b;
    }
}
