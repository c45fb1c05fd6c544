package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.JBurnException;

/**
 * Facts about the four float formats (F16, BF16, F32, F64) that generators and tolerances
 * need: extreme values, precision, and the distance in ulps between two values of a format.
 * Values travel as {@code double}, which holds every value of every format exactly.
 *
 * <pre>{@code
 * FloatFormats.maxFinite(DType.F16);                 // 65504.0
 * FloatFormats.ulpDistance(DType.BF16, 1.0, 1.0078125);   // 1
 * }</pre>
 */
public final class FloatFormats {
    private FloatFormats() {}

    /** Explicit mantissa (fraction) bits: 10, 7, 23, 52. */
    public static int mantissaBits(DType t) {
        return switch (check(t)) {
            case F16 -> 10;
            case BF16 -> 7;
            case F32 -> 23;
            default -> 52;
        };
    }

    /** Exponent of the smallest normal value: -14, -126, -126, -1022. */
    public static int minExponent(DType t) {
        return switch (check(t)) {
            case F16 -> -14;
            case BF16, F32 -> -126;
            default -> -1022;
        };
    }

    /** Exponent of the largest finite value: 15, 127, 127, 1023. */
    public static int maxExponent(DType t) {
        return switch (check(t)) {
            case F16 -> 15;
            case BF16, F32 -> 127;
            default -> 1023;
        };
    }

    /** The largest finite value. */
    public static double maxFinite(DType t) {
        return switch (check(t)) {
            case F16 -> 65504.0;
            case BF16 -> Float.intBitsToFloat(0x7F7F_0000);
            case F32 -> Float.MAX_VALUE;
            default -> Double.MAX_VALUE;
        };
    }

    /** The smallest positive normal value. */
    public static double minNormal(DType t) { return Math.scalb(1.0, minExponent(t)); }

    /** The smallest positive subnormal value. */
    public static double minSubnormal(DType t) { return Math.scalb(1.0, minExponent(t) - mantissaBits(t)); }

    /** The largest subnormal value. */
    public static double maxSubnormal(DType t) { return minNormal(t) - minSubnormal(t); }

    /** Whether {@code v} is exactly a value of format {@code t} (NaN and infinities are). */
    public static boolean representable(DType t, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return true;
        return fromOrdered(t, ordered(t, v)) == v;
    }

    /**
     * How many values of format {@code t} lie between {@code a} and {@code b} (0 when equal; +0 and
     * -0 are one point). Both must be finite values of {@code t}. Saturates at {@code Long.MAX_VALUE}.
     */
    public static long ulpDistance(DType t, double a, double b) {
        try {
            return Math.abs(Math.subtractExact(ordered(t, a), ordered(t, b)));
        } catch (ArithmeticException overflow) {
            return Long.MAX_VALUE;
        }
    }

    /** The next value of format {@code t} above finite {@code v} (toward +Inf). */
    public static double nextUp(DType t, double v) { return fromOrdered(t, ordered(t, v) + 1); }

    /** The next value of format {@code t} below finite {@code v} (toward -Inf). */
    public static double nextDown(DType t, double v) { return fromOrdered(t, ordered(t, v) - 1); }

    /**
     * Maps a finite value to an integer that counts representable values: consecutive values
     * of the format get consecutive integers, and both zeros map to 0. Meant for values of the
     * format; another value maps to a neighbour's number.
     */
    static long ordered(DType t, double v) {
        long magnitude = switch (check(t)) {
            case F64 -> Double.doubleToRawLongBits(v) & Long.MAX_VALUE;
            case F32 -> Float.floatToRawIntBits(truncateToFloat(v)) & 0x7FFF_FFFFL;
            case BF16 -> (Float.floatToRawIntBits(truncateToFloat(v)) >>> 16) & 0x7FFFL;
            default -> Float.floatToFloat16(truncateToFloat(v)) & 0x7FFFL;
        };
        return Math.copySign(1.0, v) < 0 ? -magnitude : magnitude;
    }

    private static double fromOrdered(DType t, long ord) {
        long mag = Math.abs(ord);
        double m = switch (check(t)) {
            case F64 -> Double.longBitsToDouble(mag);
            case F32 -> Float.intBitsToFloat((int) mag);
            case BF16 -> Float.intBitsToFloat((int) (mag << 16));
            default -> Float.float16ToFloat((short) mag);
        };
        return ord < 0 ? -m : m;
    }

    /** Double to float rounding toward zero, so a non-representable value maps below, never across a value. */
    private static float truncateToFloat(double v) {
        float f = (float) v;
        if (Math.abs((double) f) > Math.abs(v)) f = Math.nextAfter(f, 0.0);
        return f;
    }

    private static DType check(DType t) {
        if (!t.isFloat()) throw new JBurnException("conformance", "not a float type: " + t);
        return t;
    }
}
