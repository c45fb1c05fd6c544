package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * {@code exp}, {@code expm1}, {@code log}, {@code log1p} and {@code tanh} of F32 lanes from IEEE arithmetic alone (range reduction
 * and the Cephes single-precision polynomials, within 2 ulp of the exact value), each with a scalar
 * twin that performs the same operations in the same order.
 *
 * <p><b>Why not {@code lanewise(EXP)}.</b> The Vector API's transcendental operators give different
 * bits depending on how the calling code runs: C2-compiled code calls SVML-like stubs, interpreted
 * or C1 code calls {@code Math.exp} per lane. A deoptimization at a timing-dependent moment then
 * changes a few ulps, and a training run is not reproducible. Additions, multiplications and fused
 * multiply-adds are exact IEEE operations in every mode, so these functions give the same bits
 * however they run, in the vector body and in the scalar tail alike.
 */
final class PolyMathF32 {
    private PolyMathF32() {}

    /** Above this, {@code exp} overflows to +Inf. */
    private static final float EXP_HI = 88.72283935546875f;
    /** Below this, {@code exp} rounds to +0 (under half the smallest subnormal). */
    private static final float EXP_LO = -103.97208f;
    private static final float LOG2E = 1.44269504088896341f;
    /** ln 2 split in a part with few bits ({@code n·C1} exact) and the rest. */
    private static final float C1 = 0.693359375f, C2 = -2.12194440e-4f;
    /** 1.5·2^23: adding it rounds to the nearest integer, kept in the low mantissa bits. */
    private static final float ROUNDER = 12582912f;
    private static final int ROUNDER_BITS = 0x4B400000;
    private static final float P0 = 1.9875691500E-4f, P1 = 1.3981999507E-3f, P2 = 8.3334519073E-3f,
            P3 = 4.1665795894E-2f, P4 = 1.6666665459E-1f, P5 = 5.0000001201E-1f;

    /** e^x in every lane. */
    static FloatVector exp(FloatVector x) {
        var s = x.species();
        FloatVector c = x.max(EXP_LO).min(EXP_HI);
        FloatVector t = c.fma(FloatVector.broadcast(s, LOG2E), FloatVector.broadcast(s, ROUNDER));
        FloatVector n = t.sub(ROUNDER);
        IntVector ni = t.reinterpretAsInts().sub(ROUNDER_BITS);
        FloatVector r = n.neg().fma(FloatVector.broadcast(s, C1), c);
        r = n.neg().fma(FloatVector.broadcast(s, C2), r);
        FloatVector p = r.fma(FloatVector.broadcast(s, P0), FloatVector.broadcast(s, P1));
        p = p.fma(r, FloatVector.broadcast(s, P2));
        p = p.fma(r, FloatVector.broadcast(s, P3));
        p = p.fma(r, FloatVector.broadcast(s, P4));
        p = p.fma(r, FloatVector.broadcast(s, P5));
        p = p.fma(r.mul(r), r).add(1f);
        // 2^n in two factors: n reaches -150 and +128, beyond one float exponent.
        IntVector n1 = ni.lanewise(VectorOperators.ASHR, 1);
        IntVector n2 = ni.sub(n1);
        FloatVector s1 = n1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        FloatVector s2 = n2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        FloatVector y = p.mul(s1).mul(s2);
        y = y.blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.GT, EXP_HI));
        return y.blend(0f, x.compare(VectorOperators.LT, EXP_LO));
    }

    /** e^x, the same operations as {@link #exp(FloatVector)} on one value. */
    static float exp(float x) {
        // The early returns stand for the vector's clamp and final blends: in range, the clamp is x itself.
        if (x > EXP_HI) return Float.POSITIVE_INFINITY;
        if (x < EXP_LO) return 0f;
        float c = x;
        float t = Math.fma(c, LOG2E, ROUNDER);
        float n = t - ROUNDER;
        int ni = Float.floatToRawIntBits(t) - ROUNDER_BITS;
        float r = Math.fma(-n, C1, c);
        r = Math.fma(-n, C2, r);
        float p = Math.fma(r, P0, P1);
        p = Math.fma(p, r, P2);
        p = Math.fma(p, r, P3);
        p = Math.fma(p, r, P4);
        p = Math.fma(p, r, P5);
        p = Math.fma(p, r * r, r) + 1f;
        int n1 = ni >> 1, n2 = ni - n1;
        return p * Float.intBitsToFloat((n1 + 127) << 23) * Float.intBitsToFloat((n2 + 127) << 23);
    }

    private static final float SQRT_HALF = 0.707106781186547524f;
    private static final float L0 = 7.0376836292E-2f, L1 = -1.1514610310E-1f, L2 = 1.1676998740E-1f, L3 = -1.2420140846E-1f,
            L4 = 1.4249322787E-1f, L5 = -1.6668057665E-1f, L6 = 2.0000714765E-1f, L7 = -2.4999993993E-1f, L8 = 3.3333331174E-1f;
    private static final float TWO_23 = 8388608f;

    /** ln x in every lane: NaN below 0, -Inf at ±0, +Inf at +Inf. */
    static FloatVector log(FloatVector x) {
        var s = x.species();
        // Subnormals are scaled into the normal range first (exactly), their exponent corrected by 23.
        VectorMask<Float> sub = x.compare(VectorOperators.LT, Float.MIN_NORMAL);
        FloatVector xs = x.blend(x.mul(TWO_23), sub);
        IntVector bits = xs.reinterpretAsInts();
        IntVector e = bits.lanewise(VectorOperators.LSHR, 23).and(0xff).sub(126);
        e = e.blend(e.sub(23), sub.cast(e.species()));
        FloatVector m = bits.and(0x807fffff).or(0x3f000000).reinterpretAsFloats();
        VectorMask<Float> low = m.compare(VectorOperators.LT, SQRT_HALF);
        FloatVector ef = (FloatVector) e.convert(VectorOperators.I2F, 0);
        ef = ef.blend(ef.sub(1f), low);
        FloatVector f = m.blend(m.add(m), low).sub(1f);
        FloatVector out = logOfMantissa(f, ef);
        out = out.blend(Float.NEGATIVE_INFINITY, x.compare(VectorOperators.EQ, 0f));
        out = out.blend(Float.NaN, x.compare(VectorOperators.LT, 0f));
        out = out.blend(x, x.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY));
        return out.blend(x, x.compare(VectorOperators.NE, x));
    }

    /**
     * {@code ef·ln 2 + ln(1 + f)} for f in [-0.29, 0.41]. A method of its own so that each part of {@link #log(FloatVector)}
     * stays under C2's inlining limit for hot methods (325 bytes of bytecode): as one method (423 bytes) it was left
     * out of line and its vectors boxed, 16 bytes allocated per element.
     */
    private static FloatVector logOfMantissa(FloatVector f, FloatVector ef) {
        var s = f.species();
        FloatVector z = f.mul(f);
        FloatVector y = f.fma(FloatVector.broadcast(s, L0), FloatVector.broadcast(s, L1));
        y = y.fma(f, FloatVector.broadcast(s, L2));
        y = y.fma(f, FloatVector.broadcast(s, L3));
        y = y.fma(f, FloatVector.broadcast(s, L4));
        y = y.fma(f, FloatVector.broadcast(s, L5));
        y = y.fma(f, FloatVector.broadcast(s, L6));
        y = y.fma(f, FloatVector.broadcast(s, L7));
        y = y.fma(f, FloatVector.broadcast(s, L8));
        y = y.mul(f).mul(z);
        y = ef.fma(FloatVector.broadcast(s, C2), y);
        y = z.fma(FloatVector.broadcast(s, -0.5f), y);
        FloatVector out = f.add(y);
        return ef.fma(FloatVector.broadcast(s, C1), out);
    }

    /** ln x, the same operations as {@link #log(FloatVector)} on one value. */
    static float log(float x) {
        if (x != x || x == Float.POSITIVE_INFINITY) return x;
        if (x < 0f) return Float.NaN;
        if (x == 0f) return Float.NEGATIVE_INFINITY;
        boolean sub = x < Float.MIN_NORMAL;
        float xs = sub ? x * TWO_23 : x;
        int bits = Float.floatToRawIntBits(xs);
        int e = ((bits >>> 23) & 0xff) - 126;
        if (sub) e -= 23;
        float m = Float.intBitsToFloat(bits & 0x807fffff | 0x3f000000);
        boolean low = m < SQRT_HALF;
        float ef = e;
        if (low) ef = ef - 1f;
        float f = (low ? m + m : m) - 1f;
        float z = f * f;
        float y = Math.fma(f, L0, L1);
        y = Math.fma(y, f, L2);
        y = Math.fma(y, f, L3);
        y = Math.fma(y, f, L4);
        y = Math.fma(y, f, L5);
        y = Math.fma(y, f, L6);
        y = Math.fma(y, f, L7);
        y = Math.fma(y, f, L8);
        y = y * f * z;
        y = Math.fma(ef, C2, y);
        y = Math.fma(z, -0.5f, y);
        float out = f + y;
        return Math.fma(ef, C1, out);
    }

    /** From this |x| on, tanh rounds to ±1. */
    private static final float TANH_ONE = 9.010913f;
    /** Below this |x|, the odd polynomial; above, {@code 1 - 2/(e^{2|x|}+1)}. */
    private static final float TANH_POLY = 0.625f;
    private static final float T0 = -5.70498872745E-3f, T1 = 2.06390887954E-2f, T2 = -5.37397155531E-2f,
            T3 = 1.33314422036E-1f, T4 = -3.33332819422E-1f;

    /** tanh x in every lane (±0 kept, NaN kept). */
    static FloatVector tanh(FloatVector x) {
        var s = x.species();
        FloatVector a = x.abs();
        FloatVector e = exp(a.add(a).min(2 * TANH_ONE));
        FloatVector one = FloatVector.broadcast(s, 1f);
        FloatVector big = one.sub(FloatVector.broadcast(s, 2f).div(e.add(1f)));
        big = big.blend(one, a.compare(VectorOperators.GE, TANH_ONE));
        big = big.blend(big.neg(), x.compare(VectorOperators.LT, 0f));
        FloatVector z = x.mul(x);
        FloatVector p = z.fma(FloatVector.broadcast(s, T0), FloatVector.broadcast(s, T1));
        p = p.fma(z, FloatVector.broadcast(s, T2));
        p = p.fma(z, FloatVector.broadcast(s, T3));
        p = p.fma(z, FloatVector.broadcast(s, T4));
        FloatVector small = p.mul(z).fma(x, x);
        FloatVector out = small.blend(big, a.compare(VectorOperators.GE, TANH_POLY));
        out = out.blend(x, x.compare(VectorOperators.EQ, 0f));
        return out.blend(x, x.compare(VectorOperators.NE, x));
    }

    /** tanh x, the same operations as {@link #tanh(FloatVector)} on one value. */
    static float tanh(float x) {
        if (x != x || x == 0f) return x;
        float a = Math.abs(x);
        if (a >= TANH_POLY) {
            float e = exp(Math.min(a + a, 2 * TANH_ONE));
            float big = a >= TANH_ONE ? 1f : 1f - 2f / (e + 1f);
            return x < 0f ? -big : big;
        }
        float z = x * x;
        float p = Math.fma(z, T0, T1);
        p = Math.fma(p, z, T2);
        p = Math.fma(p, z, T3);
        p = Math.fma(p, z, T4);
        return Math.fma(p * z, x, x);
    }

    /** The logistic function {@code 1/(1+e^{-x})} in every lane, from {@code e = exp(-|x|)} (never overflows). */
    static FloatVector sigmoid(FloatVector x) {
        FloatVector one = FloatVector.broadcast(x.species(), 1f);
        FloatVector e = exp(x.abs().neg());
        FloatVector p = one.div(one.add(e));
        return p.blend(e.mul(p), x.compare(VectorOperators.LT, 0f));
    }

    /** The logistic function, the same operations as {@link #sigmoid(FloatVector)} on one value. */
    static float sigmoid(float x) {
        float e = exp(-Math.abs(x));
        float p = 1f / (1f + e);
        return x < 0f ? e * p : p;
    }

    /** Below this |x|, expm1 is its Taylor polynomial; above, {@code exp(x) - 1} (cancellation costs at most ~2 ulp there). */
    private static final float EXPM1_POLY = 0.5f;
    /** 1/k! for k = 9 down to 2: Horner coefficients of {@code x + x²/2! + ... + x⁹/9!}. */
    private static final float[] EXPM1_C = {2.7557319e-6f, 2.4801587e-5f, 1.9841270e-4f, 1.3888889e-3f, 8.3333333e-3f,
            4.1666668e-2f, 1.6666667e-1f, 0.5f};

    /** e^x - 1 in every lane, accurate near 0 (±0 kept). */
    static FloatVector expm1(FloatVector x) {
        var s = x.species();
        FloatVector p = FloatVector.broadcast(s, EXPM1_C[0]);
        for (int k = 1; k < EXPM1_C.length; k++) p = p.fma(x, FloatVector.broadcast(s, EXPM1_C[k]));
        FloatVector small = p.mul(x).fma(x, x);
        FloatVector big = exp(x).sub(1f);
        FloatVector out = small.blend(big, x.abs().compare(VectorOperators.GE, EXPM1_POLY));
        return out.blend(x, x.compare(VectorOperators.EQ, 0f));
    }

    /** e^x - 1, the same operations as {@link #expm1(FloatVector)} on one value. */
    static float expm1(float x) {
        if (x == 0f) return x;
        if (!(Math.abs(x) < EXPM1_POLY)) return exp(x) - 1f;
        float p = EXPM1_C[0];
        for (int k = 1; k < EXPM1_C.length; k++) p = Math.fma(p, x, EXPM1_C[k]);
        return Math.fma(p * x, x, x);
    }

    /**
     * ln(1 + x) in every lane, accurate near 0: with {@code u = 1 + x} rounded,
     * {@code log(u)·x/(u - 1)} corrects the rounding of u (Goldberg's method); x itself where u is 1.
     */
    static FloatVector log1p(FloatVector x) {
        FloatVector u = x.add(1f);
        FloatVector d = u.sub(1f);
        FloatVector corrected = log(u).mul(x.div(d));
        FloatVector out = corrected.blend(x, u.compare(VectorOperators.EQ, 1f));
        // Where u is +Inf (x huge or +Inf) the correction would give NaN: log(u) is the answer.
        return out.blend(log(u), u.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY));
    }

    /** ln(1 + x), the same operations as {@link #log1p(FloatVector)} on one value. */
    static float log1p(float x) {
        float u = x + 1f;
        if (u == Float.POSITIVE_INFINITY) return log(u);
        if (u == 1f) return x;
        return log(u) * (x / (u - 1f));
    }
}
