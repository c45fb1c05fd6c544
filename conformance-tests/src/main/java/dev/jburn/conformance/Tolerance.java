package dev.jburn.conformance;

import dev.jburn.DType;

/**
 * How close an engine's result must be to the oracle's, per dtype. Integer and {@code PRED}
 * results are always compared exactly, whatever the tolerance.
 *
 * <table>
 *   <caption>Per-dtype tolerances of the presets</caption>
 *   <tr><th>dtype</th><th>{@link #EXACT}</th><th>{@link #SELECTION}</th><th>{@link #ARITHMETIC}</th><th>{@link #TRANSCENDENTAL}</th></tr>
 *   <tr><td>U8..U64, S8..S64, PRED</td><td>exact</td><td>exact</td><td>exact</td><td>exact</td></tr>
 *   <tr><td>F64</td><td>bit-exact</td><td>bit-exact but ±0</td><td>4 ulp, or relative error 1e-12</td><td>4 ulp, or relative error 1e-12</td></tr>
 *   <tr><td>F32</td><td>bit-exact</td><td>bit-exact but ±0</td><td>4 ulp</td><td>16 ulp</td></tr>
 *   <tr><td>F16, BF16</td><td>bit-exact</td><td>bit-exact but ±0</td><td>1 ulp of their own precision</td><td>1 ulp of their own precision</td></tr>
 * </table>
 *
 * <p>Rules for every float comparison: NaN must meet NaN (any payload); +Inf and -Inf must
 * match exactly (never "one ulp from the largest finite value"); the sign of zero is ignored
 * unless the tolerance is {@link #signSensitive()} ({@link #EXACT} is). Ulps are counted in the
 * result's own format: one F16 ulp at 1.0 is 2^-10, one BF16 ulp 2^-7.
 *
 * <p>Why these numbers: a single IEEE operation is correctly rounded, so the only honest
 * differences between engines are fused multiply-add, evaluation order and library
 * approximations of transcendental functions ({@code exp}, {@code sin}, {@code erf} ... are
 * allowed 16 F32 ulp because vector and GPU math libraries are typically within 1-4 ulp of
 * the exact value, plus rounding of the F32 result). F16/BF16 results are computed in F32 and
 * rounded once, so a tiny F32 difference can only flip a rounding: 1 ulp. Families whose
 * error grows with the input (sums, dot products: cancellation) add an absolute allowance with
 * {@link #withAbsolute(double)}, computed by the property from its inputs.
 *
 * @param f64Ulps         allowed ulp distance for F64
 * @param f64Relative     allowed relative error for F64 (either bound passes)
 * @param f32Ulps         allowed ulp distance for F32
 * @param halfUlps        allowed ulp distance for F16 and BF16, in their own precision
 * @param absolute        an absolute difference that always passes (0 for none)
 * @param zeroSignMatters whether {@code -0.0} and {@code +0.0} must match
 */
public record Tolerance(int f64Ulps, double f64Relative, int f32Ulps, int halfUlps, double absolute,
                        boolean zeroSignMatters) {
    /** Bit-for-bit values (NaN payloads aside) and the sign of zero: for casts, movement, creation and transfers. */
    public static final Tolerance EXACT = new Tolerance(0, 0, 0, 0, 0, true);

    /** For arithmetic (+, -, *, /, fma-able expressions, min/max, rounding functions). */
    public static final Tolerance ARITHMETIC = new Tolerance(4, 1e-12, 4, 1, 0, false);

    /** For library math: exp, log, trigonometric and hyperbolic functions, erf, pow, sigmoid. */
    public static final Tolerance TRANSCENDENTAL = new Tolerance(4, 1e-12, 16, 1, 0, false);

    /**
     * Bit for bit, except that {@code -0.0} and {@code 0.0} may stand for each other: for ops
     * that pick an input element by comparison (max/min reductions and scans), where the two
     * zeros compare equal and either may be picked.
     */
    public static final Tolerance SELECTION = new Tolerance(0, 0, 0, 0, 0, false);

    /**
     * {@link #ARITHMETIC} plus what reassociating a sum may change: for a result of type {@code t}
     * that adds {@code terms} values whose absolute values add up to at most {@code magnitude}
     * (finite), an absolute allowance of {@code 2·terms·u·magnitude + ulp_t(magnitude)}, where
     * {@code u} is the unit roundoff of the accumulator (2^-24 for F32, F16 and BF16, which
     * accumulate in F32; 2^-53 for F64) and the last term covers the final rounding to {@code t}.
     * For sums, scans, dot products and scatter-adds.
     */
    public static Tolerance accumulation(DType t, long terms, double magnitude) {
        if (!t.isFloat() || !(magnitude > 0) || !Double.isFinite(magnitude)) return ARITHMETIC;
        double u = t == DType.F64 ? 0x1p-53 : 0x1p-24;
        int exponent = Math.max(Math.getExponent(magnitude), FloatFormats.minExponent(t));
        double ulp = Math.scalb(1.0, exponent - FloatFormats.mantissaBits(t));
        return ARITHMETIC.withAbsolute(2.0 * Math.max(1, terms) * u * magnitude + ulp);
    }

    public Tolerance {
        if (f64Ulps < 0 || f32Ulps < 0 || halfUlps < 0 || f64Relative < 0 || absolute < 0) {
            throw new IllegalArgumentException("tolerances must be non-negative");
        }
    }

    /** This tolerance, also requiring the sign of zero to match (for ops like {@code negate} or {@code copysign}). */
    public Tolerance signSensitive() { return new Tolerance(f64Ulps, f64Relative, f32Ulps, halfUlps, absolute, true); }

    /** This tolerance with another F32 ulp allowance. */
    public Tolerance withF32Ulps(int ulps) { return new Tolerance(f64Ulps, f64Relative, ulps, halfUlps, absolute, zeroSignMatters); }

    /** This tolerance with another F16/BF16 ulp allowance. */
    public Tolerance withHalfUlps(int ulps) { return new Tolerance(f64Ulps, f64Relative, f32Ulps, ulps, absolute, zeroSignMatters); }

    /** This tolerance with another F64 allowance. */
    public Tolerance withF64(int ulps, double relative) { return new Tolerance(ulps, relative, f32Ulps, halfUlps, absolute, zeroSignMatters); }

    /** This tolerance plus an absolute difference that always passes (for finite values). */
    public Tolerance withAbsolute(double abs) { return new Tolerance(f64Ulps, f64Relative, f32Ulps, halfUlps, abs, zeroSignMatters); }

    /**
     * Whether {@code actual} is close enough to {@code expected} for a float result of type {@code t}.
     * Both values must be exactly representable in {@code t} (they are read back from tensors).
     */
    public boolean accepts(DType t, double expected, double actual) {
        if (!t.isFloat()) {
            return expected == actual;
        }
        if (Double.isNaN(expected) || Double.isNaN(actual)) return Double.isNaN(expected) && Double.isNaN(actual);
        if (Double.isInfinite(expected) || Double.isInfinite(actual)) return expected == actual;
        if (expected == 0 && actual == 0) {
            return !zeroSignMatters || Double.doubleToRawLongBits(expected) == Double.doubleToRawLongBits(actual);
        }
        if (expected == actual) return true;
        if (Math.abs(expected - actual) <= absolute) return true;
        long ulps = FloatFormats.ulpDistance(t, expected, actual);
        return switch (t) {
            case F64 -> ulps <= f64Ulps || Math.abs(expected - actual) <= f64Relative * Math.max(Math.abs(expected), Math.abs(actual));
            case F32 -> ulps <= f32Ulps;
            default -> ulps <= halfUlps;
        };
    }

    /** A short description of what this tolerance allows for {@code t}, for failure messages. */
    public String describe(DType t) {
        String zero = zeroSignMatters ? ", sign of zero must match" : "";
        String abs = absolute > 0 ? " or |difference| <= " + absolute : "";
        return switch (t) {
            case F64 -> (f64Ulps == 0 && f64Relative == 0 ? "bit-exact" : "<= " + f64Ulps + " ulp or relative <= " + f64Relative) + abs + zero;
            case F32 -> (f32Ulps == 0 ? "bit-exact" : "<= " + f32Ulps + " ulp") + abs + zero;
            case F16, BF16 -> (halfUlps == 0 ? "bit-exact" : "<= " + halfUlps + " ulp of " + t.shortName()) + abs + zero;
            default -> "exact";
        };
    }
}
