package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.spi.HostElements;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.ArrayList;
import java.util.List;

/**
 * Element values per dtype, with the edge values that break kernels mixed in: NaN, ±0, ±Inf,
 * subnormals, the smallest normal and the largest finite value for floats; the minimum, the
 * maximum, 0, 1 and -1 for integers; 0 and 1 for {@code PRED}. Also the small helpers that say
 * what a value of a dtype is (wrapping, rounding, printing).
 *
 * <pre>{@code
 * Gen<Double> f = Elements.floats(DType.BF16, Elements.Mix.ALL);
 * Gen<Long> i = Elements.integers(DType.U8, Elements.Mix.ALL);
 * }</pre>
 */
public final class Elements {
    private Elements() {}

    /** Which values a generator draws. */
    public enum Mix {
        /** Everything: edge values (NaN, ±Inf, subnormals, extremes) mixed into random values of the whole range. */
        ALL,
        /** No NaN or ±Inf, otherwise as {@link #ALL} (still ±0, subnormals and the extremes). */
        FINITE,
        /** Small values: integers and halves in [-10, 10] (integers in [0, 20] for unsigned types), ±0. */
        SMALL,
        /**
         * For sums and dot products, whose rounding depends on the order of the additions: floats
         * as {@link #ALL} (NaN, ±Inf, ±0, subnormals included) but finite magnitudes below
         * {@code 2^((maxExponent - 10) / 2)} (4 for F16, 2^58 for F32 and BF16), so no sum or
         * product of two of them added up a few hundred times can overflow, in any order.
         * Integers as {@link #ALL}: wrapping sums are exact in any order.
         */
        BOUNDED,
        /**
         * For products: floats are ±0, ±0.5, ±1 and ±2 with NaN and ±Inf mixed in (1 in 40), so a
         * product of up to 100 of them is exact in F32 arithmetic in any order. Integers as
         * {@link #ALL}: wrapping products are exact in any order.
         */
        POWERS_OF_TWO
    }

    /** Values of an integer or PRED type, as the long the type reads them as (U64 as raw bits). */
    public static Gen<Long> integers(DType t, Mix mix) {
        if (t.isPred()) return Generate.pick(List.of(0L, 1L));
        Gen<Long> small = t.isUnsigned() ? Generate.longRange(0, 20) : Generate.longRange(-10, 10);
        if (mix == Mix.SMALL) return small;
        Gen<Long> whole = switch (t) {
            case U64, S64 -> Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE);
            default -> Generate.longRange(t.minLong(), t.maxLong());
        };
        Gen<Long> edges = Generate.pick(integerEdges(t));
        return Generate.frequency(List.of(Pair.of(2, edges), Pair.of(3, small), Pair.of(5, whole)));
    }

    /**
     * Values of a float type, exactly representable in it (without f32 subnormals for an engine
     * that flushes them: {@link Subnormals}).
     */
    public static Gen<Double> floats(DType t, Mix mix) {
        return anyFloats(t, mix).map(v -> Subnormals.generated(t, v));
    }

    private static Gen<Double> anyFloats(DType t, Mix mix) {
        Gen<Double> small = Generate.range(-20, 20).map(i -> i / 2.0)
                .mix(Generate.pick(List.of(0.0, -0.0)), 10);
        if (mix == Mix.SMALL) return small;
        if (mix == Mix.POWERS_OF_TWO) {
            return Generate.frequency(List.of(
                    Pair.of(39, Generate.pick(List.of(0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0))),
                    Pair.of(1, Generate.pick(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)))));
        }
        if (mix == Mix.BOUNDED) return anyFloats(t, Mix.ALL).map(v -> bounded(t, v));
        Gen<Double> edges = Generate.pick(floatEdges(t, mix == Mix.ALL));
        Gen<Double> unit = Generate.longRange(-(1L << 53), 1L << 53).map(m -> roundTo(t, m * 0x1p-53));
        Gen<Double> wide = wideFloats(t, mix == Mix.ALL);
        return Generate.frequency(List.of(Pair.of(2, edges), Pair.of(2, small), Pair.of(2, unit), Pair.of(4, wide)));
    }

    /** Exponent bound of {@link Mix#BOUNDED}: finite values stay below {@code 2^boundExponent(t)}. */
    static int boundExponent(DType t) { return (FloatFormats.maxExponent(t) - 10) / 2; }

    /** {@code v} scaled by a power of two below {@code 2^boundExponent(t)} when it is finite and not already (exact: same mantissa). */
    private static double bounded(DType t, double v) {
        int cap = boundExponent(t);
        if (!Double.isFinite(v) || v == 0 || Math.getExponent(v) < cap) return v;
        return roundTo(t, Math.scalb(v, cap - 1 - Math.getExponent(v)));
    }

    /** Random sign, exponent over the whole range of {@code t} (subnormals included) and mantissa, rounded to {@code t}. */
    private static Gen<Double> wideFloats(DType t, boolean infinitiesAllowed) {
        Gen<Integer> exponent = Generate.range(FloatFormats.minExponent(t) - FloatFormats.mantissaBits(t), FloatFormats.maxExponent(t));
        Gen<Long> mantissa = Generate.longRange(0, (1L << 52) - 1);
        return exponent.zip(mantissa, Generate.booleans(), (e, m, negative) -> {
            double v = roundTo(t, Math.scalb(1.0 + m * 0x1p-52, e));
            if (!infinitiesAllowed && Double.isInfinite(v)) v = FloatFormats.maxFinite(t);
            return negative ? -v : v;
        });
    }

    /** The integer edge values of {@code t}: min, max, 0, 1, -1 (wrapped), and their neighbours. */
    public static List<Long> integerEdges(DType t) {
        long min = t.minLong();
        long max = t.maxLong();
        List<Long> v = new ArrayList<>(List.of(min, max, 0L, 1L, wrap(t, -1L), wrap(t, min + 1), wrap(t, max - 1), 2L));
        if (t.bits() > 8) v.add(wrap(t, 1L << (t.bits() / 2))); // middle bits, where narrowing casts cut
        return List.copyOf(v);
    }

    /** The float edge values of {@code t}: ±0, ±1, ±0.5, halves that round-half-even, subnormals, extremes; NaN and ±Inf when asked. */
    public static List<Double> floatEdges(DType t, boolean nonFinite) {
        List<Double> v = new ArrayList<>(List.of(0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5,
                FloatFormats.minSubnormal(t), -FloatFormats.minSubnormal(t), FloatFormats.maxSubnormal(t),
                FloatFormats.minNormal(t), -FloatFormats.minNormal(t), FloatFormats.maxFinite(t), -FloatFormats.maxFinite(t),
                roundTo(t, 255.5), roundTo(t, 65535.0), roundTo(t, -129.0), roundTo(t, 0x1p31), roundTo(t, -0x1p63)));
        if (nonFinite) v.addAll(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        else v.removeIf(d -> !Double.isFinite(d)); // 65535 and 2^31 round to Inf in F16
        return List.copyOf(v);
    }

    /** {@code v} rounded to the nearest value of float type {@code t}, as the engines store it (nearest even). */
    public static double roundTo(DType t, double v) { return HostElements.roundTo(t, v); }

    /** The long that type {@code t} reads back after storing the low bits of {@code v}: sign- or zero-extended; PRED is {@code v != 0}. */
    public static long wrap(DType t, long v) {
        return switch (t) {
            case U8 -> v & 0xFFL;
            case U16 -> v & 0xFFFFL;
            case U32 -> v & 0xFFFF_FFFFL;
            case S8 -> (byte) v;
            case S16 -> (short) v;
            case S32 -> (int) v;
            case U64, S64 -> v;
            case PRED -> v != 0 ? 1 : 0;
            default -> throw new IllegalArgumentException("wrap needs an integer or pred type, got " + t);
        };
    }

    /** The unsigned 64-bit value of {@code bits} as the nearest double. */
    public static double unsignedToDouble(long bits) { return HostElements.unsignedToDouble(bits); }

    /** One element for messages: floats via their shortest decimal ({@code NaN}, {@code -0.0}), U64 unsigned, PRED as true/false. */
    static String format(DType t, long rawOrDoubleBits) {
        if (t.isFloat()) {
            double d = Double.longBitsToDouble(rawOrDoubleBits);
            return t == DType.F64 ? Double.toString(d) : Float.toString((float) d);
        }
        if (t.isPred()) return rawOrDoubleBits != 0 ? "true" : "false";
        return t == DType.U64 ? Long.toUnsignedString(rawOrDoubleBits) : Long.toString(rawOrDoubleBits);
    }
}
