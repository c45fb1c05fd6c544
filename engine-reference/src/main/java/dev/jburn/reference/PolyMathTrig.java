package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * {@code sin} and {@code cos} of F32 and F64 lanes from IEEE arithmetic alone, each with a scalar twin
 * that performs the same operations in the same order (so the vector body and the scalar tail give the
 * same bits), for the reason {@link PolyMathF32} gives: {@code lanewise(SIN)} changes bits with the JIT state.
 *
 * <p><b>Method.</b> {@code q = rint(x·2/π)} (adding 1.5·2^23, resp. 1.5·2^52, rounds to an integer kept in
 * the low mantissa bits), then Cody-Waite {@code r = x - q·π/2} with π/2 split in three parts A + B + C:
 * {@code x - q·A} is exact (both are multiples of A's last bit and the difference is below 2), the
 * B and C steps are fused multiply-adds, so r carries a rounding or two of itself (where it cancels most,
 * near k·π/2, the B step is exact too). Then polynomials for sin and cos on [-π/4, π/4] (fdlibm's {@code __kernel_sin/cos},
 * the ones StrictMath uses, for F64; their first four terms rounded to float for F32), picked and negated
 * by the quadrant {@code q mod 4}; cos is sin one quadrant further. Every operation is lane-wise, so the
 * bits do not depend on the lane count either.
 *
 * <p><b>Range.</b> Lanes with {@code |x|} above {@link #F32_BOUND} / {@link #F64_BOUND}, and NaN and ±Inf
 * lanes, take StrictMath's value, as the engine computed every sin and cos before (a rare, out-of-line
 * patch). Measured below the bounds: F32 within 1 ulp of {@code (float) StrictMath.sin/cos((double) x)}
 * for every float, F64 within 1 ulp of StrictMath on random samples and the doubles nearest k·π/2
 * (PolyMathTrigTest; bench/README.md, twenty-second session).
 */
final class PolyMathTrig {
    private PolyMathTrig() {}

    /**
     * Above this |x| (2^17), F32 lanes are StrictMath's: every float up to it was checked within 1 ulp of
     * {@code (float) StrictMath.sin/cos}; from 2^17 on, the B and C steps' roundings reach 2 ulp.
     */
    static final float F32_BOUND = 131072f;
    private static final float TWO_OVER_PI_F = 0.63661975f;
    private static final float ROUNDER_F = 12582912f;
    private static final int ROUNDER_BITS_F = 0x4B400000;
    /** π/2 = A + B + C (+ 1e-23): A the float nearest π/2, B the float nearest the rest, C the next. */
    private static final float PIO2_A_F = 1.5707964f, PIO2_B_F = -4.371139e-08f, PIO2_C_F = -1.7151245e-15f;
    /** sin r = r + r³(S1 + z(S2 + z(S3 + z·S4))), z = r²: fdlibm's first four, rounded (the rest is below 0.05 ulp at π/4). */
    private static final float S1_F = -0.16666667f, S2_F = 0.008333334f, S3_F = -0.0001984127f, S4_F = 2.7557314e-06f;
    /** cos r = 1 - z/2 + z²(C1 + z(C2 + z(C3 + z·C4))): fdlibm's first four, rounded. */
    private static final float C1_F = 0.041666668f, C2_F = -0.0013888889f, C3_F = 2.4801588e-05f, C4_F = -2.7557314e-07f;

    /** sin x in every lane (±0 kept; NaN, ±Inf and |x| above {@link #F32_BOUND} as StrictMath). */
    static FloatVector sin(FloatVector x) {
        FloatVector y = quadrant(x, 0).blend(x, x.compare(VectorOperators.EQ, 0f));
        VectorMask<Float> far = x.abs().compare(VectorOperators.LE, F32_BOUND).not();
        return far.anyTrue() ? strict(x, y, far, false) : y;
    }

    /** cos x in every lane (NaN, ±Inf and |x| above {@link #F32_BOUND} as StrictMath). */
    static FloatVector cos(FloatVector x) {
        FloatVector y = quadrant(x, 1);
        VectorMask<Float> far = x.abs().compare(VectorOperators.LE, F32_BOUND).not();
        return far.anyTrue() ? strict(x, y, far, true) : y;
    }

    /** sin x, the same operations as {@link #sin(FloatVector)} on one value. */
    static float sin(float x) {
        if (!(Math.abs(x) <= F32_BOUND)) return (float) StrictMath.sin(x);
        return x == 0f ? x : quadrant(x, 0);
    }

    /** cos x, the same operations as {@link #cos(FloatVector)} on one value. */
    static float cos(float x) {
        if (!(Math.abs(x) <= F32_BOUND)) return (float) StrictMath.cos(x);
        return quadrant(x, 1);
    }

    /*
     * The vector code is split in methods below 325 bytes of bytecode (C2's FreqInlineSize): a larger one is not
     * inlined into the loop, and its vectors would be boxed at every call (5x slower).
     */

    /** sin(x + shift·π/2): shift 0 is sin, 1 is cos. */
    private static FloatVector quadrant(FloatVector x, int shift) {
        FloatVector t = x.fma(TWO_OVER_PI_F, ROUNDER_F);
        FloatVector r = reduce(x, t.sub(ROUNDER_F).neg());
        FloatVector z = r.mul(r);
        IntVector j = t.reinterpretAsInts().sub(ROUNDER_BITS_F - shift);
        VectorMask<Float> odd = j.and(1).compare(VectorOperators.NE, 0).cast(x.species());
        IntVector sign = j.and(2).lanewise(VectorOperators.LSHL, 30);
        return sinPoly(r, z).blend(cosPoly(z), odd).reinterpretAsInts().lanewise(VectorOperators.XOR, sign).reinterpretAsFloats();
    }

    /** x - q·π/2, given -q: the A step is exact, B and C round once each. */
    private static FloatVector reduce(FloatVector x, FloatVector nq) {
        var s = x.species();
        FloatVector r = nq.fma(FloatVector.broadcast(s, PIO2_A_F), x);
        r = nq.fma(FloatVector.broadcast(s, PIO2_B_F), r);
        return nq.fma(FloatVector.broadcast(s, PIO2_C_F), r);
    }

    /** sin r on [-π/4, π/4], z = r². */
    private static FloatVector sinPoly(FloatVector r, FloatVector z) {
        var s = r.species();
        FloatVector p = z.fma(S4_F, S3_F);
        p = p.fma(z, FloatVector.broadcast(s, S2_F));
        p = p.fma(z, FloatVector.broadcast(s, S1_F));
        return p.fma(z.mul(r), r);
    }

    /** cos r on [-π/4, π/4] from z = r²: 1 - z/2 rounded, plus its rounding error (exact: z/2 is exact, and 1 - w is by Sterbenz), then the rest. */
    private static FloatVector cosPoly(FloatVector z) {
        var s = z.species();
        FloatVector p = z.fma(C4_F, C3_F);
        p = p.fma(z, FloatVector.broadcast(s, C2_F));
        p = p.fma(z, FloatVector.broadcast(s, C1_F));
        FloatVector w = z.fma(-0.5f, 1f);
        FloatVector e = z.fma(FloatVector.broadcast(s, -0.5f), w.neg().add(1f));
        return w.add(z.mul(z).fma(p, e));
    }

    /** sin(x + shift·π/2), the same operations as {@link #quadrant(FloatVector, int)} on one value. */
    private static float quadrant(float x, int shift) {
        float t = Math.fma(x, TWO_OVER_PI_F, ROUNDER_F);
        float nq = -(t - ROUNDER_F);
        float r = Math.fma(nq, PIO2_A_F, x);
        r = Math.fma(nq, PIO2_B_F, r);
        r = Math.fma(nq, PIO2_C_F, r);
        float z = r * r;
        int j = Float.floatToRawIntBits(t) - (ROUNDER_BITS_F - shift);
        float y = (j & 1) == 0 ? sinPoly(r, z) : cosPoly(z);
        return Float.intBitsToFloat(Float.floatToRawIntBits(y) ^ (j & 2) << 30);
    }

    private static float sinPoly(float r, float z) {
        float p = Math.fma(z, S4_F, S3_F);
        p = Math.fma(p, z, S2_F);
        p = Math.fma(p, z, S1_F);
        return Math.fma(p, z * r, r);
    }

    private static float cosPoly(float z) {
        float p = Math.fma(z, C4_F, C3_F);
        p = Math.fma(p, z, C2_F);
        p = Math.fma(p, z, C1_F);
        float w = Math.fma(z, -0.5f, 1f);
        float e = Math.fma(z, -0.5f, -w + 1f);
        return w + Math.fma(z * z, p, e);
    }

    /**
     * StrictMath's value in the lanes {@code far} (NaN, ±Inf or beyond the bound). Rare, so a slow path: its
     * vectors are boxed for the call, which is why the test that leads here is written out in sin and cos
     * rather than in a method of its own (C2 may leave that one out of line, boxing on every call).
     */
    private static FloatVector strict(FloatVector x, FloatVector y, VectorMask<Float> far, boolean cos) {
        float[] xs = x.toArray(), ys = y.toArray();
        for (int i = 0; i < xs.length; i++) {
            if (far.laneIsSet(i)) ys[i] = (float) (cos ? StrictMath.cos(xs[i]) : StrictMath.sin(xs[i]));
        }
        return FloatVector.fromArray(x.species(), ys, 0);
    }

    /**
     * Above this |x| (2^30), F64 lanes are StrictMath's. Up to 1e12, samples (random and the doubles nearest
     * k·π/2) stayed within 1 ulp of StrictMath; 2^30 keeps a margin for the rare doubles closer still to k·π/2
     * (the reduction's C step rounds, and π/2's error beyond A + B + C grows with q).
     */
    static final double F64_BOUND = 1073741824.0;
    private static final double TWO_OVER_PI = 0.6366197723675814;
    private static final double ROUNDER = 6755399441055744.0; // 1.5 · 2^52
    private static final long ROUNDER_BITS = 0x4338000000000000L;
    /** π/2 = A + B + C (+ 6e-50), each the double nearest what is left. */
    private static final double PIO2_A = 1.5707963267948966, PIO2_B = 6.123233995736766e-17, PIO2_C = -1.4973849048591698e-33;
    /** fdlibm __kernel_sin: sin r = r + r³(S1 + z(S2 + ... + z·S6)). */
    private static final double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
            S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06, S5 = -2.50507602534068634195e-08,
            S6 = 1.58969099521155010221e-10;
    /** fdlibm __kernel_cos: cos r = 1 - z/2 + z²(C1 + z(C2 + ... + z·C6)). */
    private static final double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
            C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07, C5 = 2.08757232129817482790e-09,
            C6 = -1.13596475577881948265e-11;

    /** sin x in every lane (±0 kept; NaN, ±Inf and |x| above {@link #F64_BOUND} as StrictMath). */
    static DoubleVector sin(DoubleVector x) {
        DoubleVector y = quadrant(x, 0).blend(x, x.compare(VectorOperators.EQ, 0.0));
        VectorMask<Double> far = x.abs().compare(VectorOperators.LE, F64_BOUND).not();
        return far.anyTrue() ? strict(x, y, far, false) : y;
    }

    /** cos x in every lane (NaN, ±Inf and |x| above {@link #F64_BOUND} as StrictMath). */
    static DoubleVector cos(DoubleVector x) {
        DoubleVector y = quadrant(x, 1);
        VectorMask<Double> far = x.abs().compare(VectorOperators.LE, F64_BOUND).not();
        return far.anyTrue() ? strict(x, y, far, true) : y;
    }

    /** sin x, the same operations as {@link #sin(DoubleVector)} on one value. */
    static double sin(double x) {
        if (!(Math.abs(x) <= F64_BOUND)) return StrictMath.sin(x);
        return x == 0.0 ? x : quadrant(x, 0);
    }

    /** cos x, the same operations as {@link #cos(DoubleVector)} on one value. */
    static double cos(double x) {
        if (!(Math.abs(x) <= F64_BOUND)) return StrictMath.cos(x);
        return quadrant(x, 1);
    }

    /** sin(x + shift·π/2): shift 0 is sin, 1 is cos. */
    private static DoubleVector quadrant(DoubleVector x, int shift) {
        DoubleVector t = x.fma(TWO_OVER_PI, ROUNDER);
        DoubleVector r = reduce(x, t.sub(ROUNDER).neg());
        DoubleVector z = r.mul(r);
        LongVector j = t.reinterpretAsLongs().sub(ROUNDER_BITS - shift);
        VectorMask<Double> odd = j.and(1L).compare(VectorOperators.NE, 0L).cast(x.species());
        LongVector sign = j.and(2L).lanewise(VectorOperators.LSHL, 62);
        return sinPoly(r, z).blend(cosPoly(z), odd).reinterpretAsLongs().lanewise(VectorOperators.XOR, sign).reinterpretAsDoubles();
    }

    /** x - q·π/2, given -q: the A step is exact, B and C round once each. */
    private static DoubleVector reduce(DoubleVector x, DoubleVector nq) {
        var s = x.species();
        DoubleVector r = nq.fma(DoubleVector.broadcast(s, PIO2_A), x);
        r = nq.fma(DoubleVector.broadcast(s, PIO2_B), r);
        return nq.fma(DoubleVector.broadcast(s, PIO2_C), r);
    }

    /** sin r on [-π/4, π/4], z = r². */
    private static DoubleVector sinPoly(DoubleVector r, DoubleVector z) {
        var s = r.species();
        DoubleVector p = z.fma(S6, S5);
        p = p.fma(z, DoubleVector.broadcast(s, S4));
        p = p.fma(z, DoubleVector.broadcast(s, S3));
        p = p.fma(z, DoubleVector.broadcast(s, S2));
        p = p.fma(z, DoubleVector.broadcast(s, S1));
        return p.fma(z.mul(r), r);
    }

    /** cos r on [-π/4, π/4] from z = r², as fdlibm: 1 - z/2 rounded, plus its rounding error (exact), then the rest. */
    private static DoubleVector cosPoly(DoubleVector z) {
        var s = z.species();
        DoubleVector p = z.fma(C6, C5);
        p = p.fma(z, DoubleVector.broadcast(s, C4));
        p = p.fma(z, DoubleVector.broadcast(s, C3));
        p = p.fma(z, DoubleVector.broadcast(s, C2));
        p = p.fma(z, DoubleVector.broadcast(s, C1));
        DoubleVector w = z.fma(-0.5, 1.0);
        DoubleVector e = z.fma(DoubleVector.broadcast(s, -0.5), w.neg().add(1.0));
        return w.add(z.mul(z).fma(p, e));
    }

    /** sin(x + shift·π/2), the same operations as {@link #quadrant(DoubleVector, int)} on one value. */
    private static double quadrant(double x, int shift) {
        double t = Math.fma(x, TWO_OVER_PI, ROUNDER);
        double nq = -(t - ROUNDER);
        double r = Math.fma(nq, PIO2_A, x);
        r = Math.fma(nq, PIO2_B, r);
        r = Math.fma(nq, PIO2_C, r);
        double z = r * r;
        long j = Double.doubleToRawLongBits(t) - (ROUNDER_BITS - shift);
        double y = (j & 1) == 0 ? sinPoly(r, z) : cosPoly(z);
        return Double.longBitsToDouble(Double.doubleToRawLongBits(y) ^ (j & 2) << 62);
    }

    private static double sinPoly(double r, double z) {
        double p = Math.fma(z, S6, S5);
        p = Math.fma(p, z, S4);
        p = Math.fma(p, z, S3);
        p = Math.fma(p, z, S2);
        p = Math.fma(p, z, S1);
        return Math.fma(p, z * r, r);
    }

    private static double cosPoly(double z) {
        double p = Math.fma(z, C6, C5);
        p = Math.fma(p, z, C4);
        p = Math.fma(p, z, C3);
        p = Math.fma(p, z, C2);
        p = Math.fma(p, z, C1);
        double w = Math.fma(z, -0.5, 1.0);
        double e = Math.fma(z, -0.5, -w + 1.0);
        return w + Math.fma(z * z, p, e);
    }

    /**
     * StrictMath's value in the lanes {@code far} (NaN, ±Inf or beyond the bound). Rare, so a slow path: its
     * vectors are boxed for the call, which is why the test that leads here is written out in sin and cos
     * rather than in a method of its own (C2 may leave that one out of line, boxing on every call).
     */
    private static DoubleVector strict(DoubleVector x, DoubleVector y, VectorMask<Double> far, boolean cos) {
        double[] xs = x.toArray(), ys = y.toArray();
        for (int i = 0; i < xs.length; i++) {
            if (far.laneIsSet(i)) ys[i] = cos ? StrictMath.cos(xs[i]) : StrictMath.sin(xs[i]);
        }
        return DoubleVector.fromArray(x.species(), ys, 0);
    }
}
