package dev.jburn.spi;

import dev.jburn.DType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;

/**
 * Reads and writes single elements of any {@link DType} in host memory, with Nx cast
 * semantics. This is the scalar oracle's view of memory: slow, exact, shared by the front
 * end (array conversion) and by reference kernels.
 *
 * <p>Integers travel as {@code long} holding the raw two's-complement bits (so U64 values
 * above 2^63 are negative longs); floats travel as {@code double}.
 */
public final class HostElements {
    private HostElements() {}

    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /** Element {@code i} as a double (exact for every type but 64-bit integers beyond 2^53). */
    public static double getDouble(MemorySegment s, DType t, long i) {
        return switch (t) {
            case F64 -> s.getAtIndex(DOUBLE, i);
            case F32 -> s.getAtIndex(FLOAT, i);
            case F16 -> Float.float16ToFloat(s.getAtIndex(SHORT, i));
            case BF16 -> bf16ToFloat(s.getAtIndex(SHORT, i));
            case U64 -> unsignedToDouble(s.getAtIndex(LONG, i));
            default -> getLong(s, t, i);
        };
    }

    /**
     * Element {@code i} as a long: integers sign- or zero-extended; floats converted with
     * Nx's float-to-integer rule for the 64-bit type of the same signedness as {@code S64}.
     */
    public static long getLong(MemorySegment s, DType t, long i) {
        return switch (t) {
            case U8, PRED -> s.get(ValueLayout.JAVA_BYTE, i) & 0xFFL;
            case S8 -> s.get(ValueLayout.JAVA_BYTE, i);
            case U16 -> s.getAtIndex(SHORT, i) & 0xFFFFL;
            case S16 -> s.getAtIndex(SHORT, i);
            case U32 -> s.getAtIndex(INT, i) & 0xFFFF_FFFFL;
            case S32 -> s.getAtIndex(INT, i);
            case U64, S64 -> s.getAtIndex(LONG, i);
            case F16, BF16, F32, F64 -> doubleToLongBits(getDouble(s, t, i), DType.S64);
        };
    }

    /** Writes a double into element {@code i}, converting with Nx cast semantics (rounding to nearest even for narrow floats). */
    public static void setDouble(MemorySegment s, DType t, long i, double v) {
        switch (t) {
            case F64 -> s.setAtIndex(DOUBLE, i, v);
            case F32 -> s.setAtIndex(FLOAT, i, (float) v);
            case F16 -> s.setAtIndex(SHORT, i, Float.floatToFloat16(toFloatRoundOdd(v)));
            case BF16 -> s.setAtIndex(SHORT, i, floatToBf16(toFloatRoundOdd(v)));
            case PRED -> s.set(ValueLayout.JAVA_BYTE, i, (byte) (v != 0 || Double.isNaN(v) ? 1 : 0));
            default -> setLong(s, t, i, doubleToLongBits(v, t));
        }
    }

    /** Writes an integer (raw bits; wrapped to the type's width) into element {@code i}; floats get the nearest value. */
    public static void setLong(MemorySegment s, DType t, long i, long v) {
        switch (t) {
            case U8, S8 -> s.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            case PRED -> s.set(ValueLayout.JAVA_BYTE, i, (byte) (v != 0 ? 1 : 0));
            case U16, S16 -> s.setAtIndex(SHORT, i, (short) v);
            case U32, S32 -> s.setAtIndex(INT, i, (int) v);
            case U64, S64 -> s.setAtIndex(LONG, i, v);
            case F64 -> s.setAtIndex(DOUBLE, i, (double) v);
            case F32, F16, BF16 -> setDouble(s, t, i, toDoubleRoundOdd(v, false));
        }
    }

    /** Writes integer raw bits interpreted with {@code from}'s signedness, converting to {@code t}. */
    public static void setInteger(MemorySegment s, DType t, long i, long v, DType from) {
        boolean unsigned = from == DType.U64;
        if (t == DType.F64) s.setAtIndex(DOUBLE, i, unsigned ? unsignedToDouble(v) : (double) v);
        else if (t.isFloat()) setDouble(s, t, i, toDoubleRoundOdd(v, unsigned));
        else setLong(s, t, i, v);
    }

    /**
     * {@code v} rounded to a double with round-to-odd: exact below 2^53, otherwise the dropped
     * bits collapse into a sticky last bit. A later round-to-nearest-even to any narrower
     * format (F32, F16, BF16) is then correctly rounded, which a plain {@code (double) v} is not.
     */
    public static double toDoubleRoundOdd(long v, boolean unsigned) {
        boolean negative = !unsigned && v < 0;
        long m = negative ? -v : v; // Long.MIN_VALUE stays as the unsigned magnitude 2^63
        int bits = 64 - Long.numberOfLeadingZeros(m);
        if (bits <= 53) return negative ? -(double) m : (double) m;
        int shift = bits - 53;
        long kept = (m >>> shift) | ((m & ((1L << shift) - 1)) != 0 ? 1 : 0);
        double d = Math.scalb((double) kept, shift);
        return negative ? -d : d;
    }

    /**
     * {@code d} rounded to a float with round-to-odd (inexact results get an odd last bit), so a
     * following round-to-nearest-even to F16 or BF16 equals direct correct rounding of {@code d}.
     */
    public static float toFloatRoundOdd(double d) {
        float f = (float) d;
        if (Double.isNaN(d) || Float.isInfinite(f) || (double) f == d) return f;
        int bits = Float.floatToRawIntBits(f);
        if (Math.abs((double) f) > Math.abs(d)) bits -= 1; // truncate toward zero
        return Float.intBitsToFloat(bits | 1);
    }

    /**
     * Nx float-to-integer conversion, giving raw bits for type {@code t}: truncation toward
     * zero, NaN to 0, +Inf to the maximum, -Inf to the minimum, other out-of-range values
     * keep their low bits.
     */
    public static long doubleToLongBits(double v, DType t) {
        if (Double.isNaN(v)) return 0;
        if (v == Double.POSITIVE_INFINITY) return t.isFloat() ? Long.MAX_VALUE : t.maxLong();
        if (v == Double.NEGATIVE_INFINITY) return t.isFloat() ? Long.MIN_VALUE : t.minLong();
        double tr = v < 0 ? Math.ceil(v) : Math.floor(v);
        if (tr >= -0x1p63 && tr < 0x1p63) return (long) tr;
        return new BigDecimal(tr).toBigInteger().longValue(); // low 64 bits, as BB does
    }

    /** The unsigned 64-bit value of {@code bits} as the nearest double. */
    public static double unsignedToDouble(long bits) {
        if (bits >= 0) return bits;
        // Halve keeping the sticky bit so the final rounding is correct.
        return ((bits >>> 1) | (bits & 1)) * 2.0;
    }

    /** BF16 bits to float (exact). */
    public static float bf16ToFloat(short b) {
        return Float.intBitsToFloat((b & 0xFFFF) << 16);
    }

    /** Float to BF16 bits, rounding to nearest even; NaN stays a quiet NaN. */
    public static short floatToBf16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) return (short) ((bits >>> 16) | 0x0040);
        int lsb = (bits >>> 16) & 1;
        return (short) ((bits + 0x7FFF + lsb) >>> 16);
    }

    /** Rounds a double to the precision of {@code t} (identity for F64). */
    public static double roundTo(DType t, double v) {
        return switch (t) {
            case F32 -> (float) v;
            case F16 -> Float.float16ToFloat(Float.floatToFloat16(toFloatRoundOdd(v)));
            case BF16 -> bf16ToFloat(floatToBf16(toFloatRoundOdd(v)));
            default -> v;
        };
    }
}
