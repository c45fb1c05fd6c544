package dev.jburn.conformance;

import dev.jburn.DType;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Nx's cast rules written out independently of any engine, for the cast properties:
 * integer to integer keeps the low bits; float to integer truncates toward zero, NaN gives 0,
 * ±Inf the type's max/min, other out-of-range values keep the low bits of the truncated value;
 * anything to PRED is {@code value != 0} (NaN is true); anything to a float gives a neighbour of
 * the exact value (the exact value itself when representable), ±Inf only beyond the largest
 * finite value.
 */
final class CastSpec {
    private CastSpec() {}

    /** Why element {@code i} of {@code got} (= {@code x.asType(to)}) breaks the rules, or null when it does not. */
    static String violation(TensorCase x, int i, DType to, TensorCase got) {
        DType from = x.dtype();
        if (!to.isFloat()) {
            long want = integerResult(x, i, to);
            long have = got.longAt(i);
            return want == have ? null : "expected " + Elements.format(to, want) + ", got " + Elements.format(to, have);
        }
        double r = got.doubleAt(i);
        if (from.isFloat()) {
            double v = x.doubleAt(i);
            if (Double.isNaN(v) || Double.isInfinite(v) || v == 0) {
                boolean same = Double.isNaN(v) ? Double.isNaN(r) : Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(r);
                return same ? null : "expected " + v + " (kept as is), got " + r;
            }
        }
        if (Double.isNaN(r)) return "got NaN from the number " + exact(x, i);
        BigDecimal exact = exact(x, i);
        // An engine that flushes f32 subnormals may give zero for any value below f32's smallest normal.
        if (r == 0 && Subnormals.flushed() && Subnormals.affects(to) && exact.abs().compareTo(new BigDecimal(Float.MIN_NORMAL)) < 0) return null;
        if (exactlyRepresentable(to, exact)) {
            return new BigDecimal(r).compareTo(exact) == 0 && (exact.signum() != 0 || Math.copySign(1, r) > 0) ? null
                    : "expected exactly " + exact.stripTrailingZeros().toPlainString() + " (representable in " + to.shortName() + "), got " + r;
        }
        if (Double.isInfinite(r)) {
            boolean beyond = exact.abs().compareTo(new BigDecimal(FloatFormats.maxFinite(to))) > 0 && (r > 0) == (exact.signum() > 0);
            return beyond ? null : "got " + r + " for the finite " + exact.toPlainString();
        }
        double below = FloatFormats.nextDown(to, r);
        double above = FloatFormats.nextUp(to, r);
        boolean aboveLow = Double.isInfinite(below) || exact.compareTo(new BigDecimal(below)) > 0;
        boolean belowHigh = Double.isInfinite(above) || exact.compareTo(new BigDecimal(above)) < 0;
        return aboveLow && belowHigh ? null
                : "got " + r + ", which is not a " + to.shortName() + " neighbour of " + exact.toPlainString();
    }

    /** The integer (or PRED) result of casting element {@code i} of {@code x} to {@code to}, as {@code to} reads it. */
    static long integerResult(TensorCase x, int i, DType to) {
        DType from = x.dtype();
        if (!from.isFloat()) return to.isPred() ? (x.longAt(i) != 0 ? 1 : 0) : Elements.wrap(to, x.longAt(i));
        double v = x.doubleAt(i);
        if (to.isPred()) return v != 0 || Double.isNaN(v) ? 1 : 0;
        if (Double.isNaN(v)) return 0;
        if (v == Double.POSITIVE_INFINITY) return Elements.wrap(to, to.maxLong());
        if (v == Double.NEGATIVE_INFINITY) return Elements.wrap(to, to.minLong());
        return Elements.wrap(to, new BigDecimal(v).toBigInteger().longValue()); // truncation, then the low 64 bits
    }

    /** Element {@code i} as an exact decimal (finite values only). */
    static BigDecimal exact(TensorCase x, int i) {
        DType t = x.dtype();
        if (t.isFloat()) return new BigDecimal(x.doubleAt(i));
        if (t == DType.U64) return new BigDecimal(new BigInteger(Long.toUnsignedString(x.longAt(i))));
        return BigDecimal.valueOf(x.longAt(i));
    }

    private static boolean exactlyRepresentable(DType to, BigDecimal exact) {
        double d = exact.doubleValue();
        return Double.isFinite(d) && new BigDecimal(d).compareTo(exact) == 0 && FloatFormats.representable(to, d);
    }

    /**
     * Whether every value of {@code from} is exactly a value of {@code to}, so that
     * {@code x.asType(to).asType(from)} gives {@code x} back.
     */
    static boolean holdsExactly(DType from, DType to) {
        if (from == to || from.isPred()) return true;
        if (to.isPred()) return false;
        if (from.isFloat()) {
            return to.isFloat() && FloatFormats.mantissaBits(to) >= FloatFormats.mantissaBits(from)
                    && FloatFormats.maxExponent(to) >= FloatFormats.maxExponent(from)
                    && FloatFormats.minExponent(to) - FloatFormats.mantissaBits(to) <= FloatFormats.minExponent(from) - FloatFormats.mantissaBits(from);
        }
        int magnitudeBits = from.isSigned() ? from.bits() - 1 : from.bits();
        if (to.isFloat()) return magnitudeBits <= FloatFormats.mantissaBits(to) + 1;
        if (to.isSigned()) return magnitudeBits <= to.bits() - 1;
        return from.isUnsigned() && to.bits() >= from.bits();
    }
}
