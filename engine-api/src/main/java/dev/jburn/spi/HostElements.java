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
            case F16 -> s.setAtIndex(SHORT, i, Float.floatToFloat16((float) v));
            case BF16 -> s.setAtIndex(SHORT, i, floatToBf16((float) v));
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
            case F32, F16, BF16 -> setDouble(s, t, i, (double) v);
        }
    }

    /** Writes integer raw bits interpreted with {@code from}'s signedness, converting to {@code t}. */
    public static void setInteger(MemorySegment s, DType t, long i, long v, DType from) {
        if (t.isFloat()) setDouble(s, t, i, from == DType.U64 ? unsignedToDouble(v) : (double) v);
        else setLong(s, t, i, v);
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
            case F16 -> Float.float16ToFloat(Float.floatToFloat16((float) v));
            case BF16 -> bf16ToFloat(floatToBf16((float) v));
            default -> v;
        };
    }
}
