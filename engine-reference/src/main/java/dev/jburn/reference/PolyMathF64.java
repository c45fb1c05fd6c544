package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * {@code exp}, {@code expm1}, {@code log}, {@code log1p}, {@code tanh} and the logistic function of F64 lanes from
 * IEEE arithmetic alone, each with a scalar twin that performs the same operations in the same order, so the vector
 * body and the scalar tail give the same bits, compiled or not (see {@link PolyMathF32} for why the Vector API's
 * {@code lanewise(EXP)} cannot be used: its bits depend on whether C2 compiled the caller).
 *
 * <p>{@code exp} and {@code expm1} reduce {@code x = n·ln 2 + r} (|r| ≤ ln 2 / 2, ln 2 in fdlibm's two parts) and sum
 * {@code e^r - 1} as its Taylor series to r¹³ (the next term is below 2⁻⁵⁶ of the sum; expm1 keeps r's rounding
 * error and the sum's as a second double; the polynomial in Estrin's order); {@code log} is fdlibm's
 * {@code __ieee754_log} (its Lg1-Lg7 polynomial in {@code s = f/(2+f)}); {@code log1p} corrects the rounding of
 * {@code 1 + x} (Goldberg); {@code tanh} is fdlibm's formula over {@code expm1}. Every operation is one the Vector API
 * compiles on AVX2 as well as AVX-512: no long-to-double conversions or 64-bit arithmetic shifts (which AVX2 lacks and
 * which would fall back to Java code per lane); integers move between the two kinds through the 1.5·2⁵² rounder.
 * Accuracy against StrictMath, measured by {@code PolyMathF64Test} over every exponent: exp, expm1 and log within 1 ulp,
 * log1p 2, tanh 3 ({@code -t/(t+2)} near |x| = 1 carries expm1's error 1.5-fold), the logistic function 3 of the oracle's
 * formula. On this AVX2 machine (one thread, bench/README, twenty-second session) exp, expm1, tanh and the logistic
 * function take 1.3-2× the time of the (JIT-dependent) SVML stubs, log and log1p about the same; all are 2-3× faster
 * than StrictMath element by element. log and log1p are a loop ({@link #logs}) rather than functions of a vector; see
 * there and bench/README for why (C2 leaves large vector functions out of line and boxes their vectors).
 */
final class PolyMathF64 {
    private PolyMathF64() {}

    /**
     * The one species these functions take: a constant, so that a function C2 compiles on its own (it is hot before
     * its caller's loop is) still has its vector operations intrinsified, and stays small enough to be inlined later.
     */
    static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** Above this, {@code exp} overflows to +Inf (fdlibm's o_threshold). */
    private static final double EXP_HI = 0x1.62e42fefa39efp9;
    /** Below this, {@code exp} rounds to +0 (fdlibm's u_threshold). */
    private static final double EXP_LO = -0x1.74910d52d3051p9;
    private static final double LOG2E = 0x1.71547652b82fep0;
    /** ln 2 in two parts: n·LN2_HI is exact for |n| < 2000. */
    private static final double LN2_HI = 0x1.62e42feep-1, LN2_LO = 0x1.a39ef35793c76p-33;
    /** 1.5·2⁵²: adding it rounds to the nearest integer, kept in the low mantissa bits. */
    private static final double ROUNDER = 0x1.8p52;
    private static final long ROUNDER_BITS = 0x4338000000000000L;
    /** C[j] = 1/(j+2)!: the coefficients of {@code q(r) = (e^r - 1 - r) / r²}. */
    private static final double[] C = new double[12];

    static {
        double f = 1;
        for (int j = 0; j < C.length; j++) {
            f *= j + 2;           // (j+2)! is exact in a double up to 18!
            C[j] = 1 / f;
        }
    }

    /**
     * {@code 1/2! + r/3! + ... + r¹¹/13!}: e^r = 1 + r + r²·q(r) for |r| ≤ ~0.35 (the next term is below 2⁻⁵⁶). In
     * Estrin's order (pairs, then pairs of pairs by r², r⁴, r⁸): a chain of 4 fmas deep instead of Horner's 11, and
     * the exp of a vector was bound by that chain's latency (2.2x the SVML stub's time with Horner).
     */
    private static DoubleVector q(DoubleVector r) {
        DoubleVector r2 = r.mul(r), r4 = r2.mul(r2), r8 = r4.mul(r4);
        DoubleVector a0 = r.fma(DoubleVector.broadcast(S, C[1]), DoubleVector.broadcast(S, C[0]));
        DoubleVector a1 = r.fma(DoubleVector.broadcast(S, C[3]), DoubleVector.broadcast(S, C[2]));
        DoubleVector a2 = r.fma(DoubleVector.broadcast(S, C[5]), DoubleVector.broadcast(S, C[4]));
        DoubleVector a3 = r.fma(DoubleVector.broadcast(S, C[7]), DoubleVector.broadcast(S, C[6]));
        DoubleVector a4 = r.fma(DoubleVector.broadcast(S, C[9]), DoubleVector.broadcast(S, C[8]));
        DoubleVector a5 = r.fma(DoubleVector.broadcast(S, C[11]), DoubleVector.broadcast(S, C[10]));
        DoubleVector b0 = a1.fma(r2, a0), b1 = a3.fma(r2, a2), b2 = a5.fma(r2, a4);
        return b2.fma(r8, b1.fma(r4, b0));
    }

    private static double q(double r) {
        double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
        double a0 = Math.fma(r, C[1], C[0]), a1 = Math.fma(r, C[3], C[2]), a2 = Math.fma(r, C[5], C[4]);
        double a3 = Math.fma(r, C[7], C[6]), a4 = Math.fma(r, C[9], C[8]), a5 = Math.fma(r, C[11], C[10]);
        double b0 = Math.fma(a1, r2, a0), b1 = Math.fma(a3, r2, a2), b2 = Math.fma(a5, r2, a4);
        return Math.fma(b2, r8, Math.fma(b1, r4, b0));
    }

    /** {@code 2^n} for an integral double n in [-1022, 1023]. */
    private static DoubleVector pow2(DoubleVector n) {
        LongVector bits = n.add(ROUNDER).reinterpretAsLongs().sub(ROUNDER_BITS);
        return bits.add(1023).lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
    }

    private static double pow2(double n) {
        long bits = Double.doubleToRawLongBits(n + ROUNDER) - ROUNDER_BITS;
        return Double.longBitsToDouble((bits + 1023) << 52);
    }

    /**
     * e^x in every lane: {@code 2^n·(1 + (e^r - 1))}. Where n lies outside one double exponent's range (|x| above
     * ~708: subnormal results and the last doubling before overflow) the lanes take 2^n in two factors instead; that
     * branch is rare, so C2 compiles it as a trap and the common body stays small (a body too large for C2's node
     * budget leaves calls in it, whose vectors are then boxed).
     */
    static DoubleVector exp(DoubleVector x) {
        DoubleVector c = x.max(EXP_LO).min(EXP_HI);
        DoubleVector t = c.fma(DoubleVector.broadcast(S, LOG2E), DoubleVector.broadcast(S, ROUNDER));
        DoubleVector n = t.sub(ROUNDER);
        // 2^n from t's low bits (pow2 written out: a call left for late in a large body may miss C2's node budget).
        DoubleVector p = t.reinterpretAsLongs().sub(ROUNDER_BITS - 1023).lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
        DoubleVector r = n.neg().fma(DoubleVector.broadcast(S, LN2_HI), c);
        r = n.neg().fma(DoubleVector.broadcast(S, LN2_LO), r);
        DoubleVector pm1 = r.mul(r).fma(q(r), r);
        DoubleVector y = pm1.fma(p, p);
        VectorMask<Double> far = n.compare(VectorOperators.LT, -1022.0).or(n.compare(VectorOperators.GT, 1023.0));
        if (far.anyTrue()) y = y.blend(scaleInTwo(pm1, n), far);
        y = y.blend(Double.POSITIVE_INFINITY, x.compare(VectorOperators.GT, EXP_HI));
        return y.blend(0.0, x.compare(VectorOperators.LT, EXP_LO));
    }

    /** {@code (1 + pm1)·2^n} with 2^n in two factors, for n in [-1075, 1024]: floor(n/2) and the rest. */
    private static DoubleVector scaleInTwo(DoubleVector pm1, DoubleVector n) {
        DoubleVector n1 = n.mul(0.5).sub(0.25).add(ROUNDER).sub(ROUNDER);
        DoubleVector s1 = pow2(n1), s2 = pow2(n.sub(n1));
        return pm1.fma(s1, s1).mul(s2);
    }

    private static double scaleInTwo(double pm1, double n) {
        double n1 = n * 0.5 - 0.25 + ROUNDER - ROUNDER;
        double s1 = pow2(n1), s2 = pow2(n - n1);
        return Math.fma(pm1, s1, s1) * s2;
    }

    /** e^x, the same operations as {@link #exp(DoubleVector)} on one value. */
    static double exp(double x) {
        // The early returns stand for the vector's clamp and final blends: in range, the clamp is x itself.
        if (x > EXP_HI) return Double.POSITIVE_INFINITY;
        if (x < EXP_LO) return 0.0;
        double c = x;
        double n = Math.fma(c, LOG2E, ROUNDER) - ROUNDER;
        double r = Math.fma(-n, LN2_HI, c);
        r = Math.fma(-n, LN2_LO, r);
        double pm1 = Math.fma(r * r, q(r), r);
        if (n < -1022.0 || n > 1023.0) return scaleInTwo(pm1, n);
        double p = pow2(n);
        return Math.fma(pm1, p, p);
    }

    /** Beyond this |x|, expm1 is e^x (x > 0: the 1 is below half an ulp) or -1 (x < 0: e^x below half an ulp of 1). */
    private static final double EXPM1_FAR = 40;

    /** e^x - 1 in every lane, accurate near 0 (±0 kept): {@code 2^n·(e^r - 1) + (2^n - 1)}, rounded once by the fma. */
    static DoubleVector expm1(DoubleVector x) {
        DoubleVector y = expm1Near(x.max(-EXPM1_FAR).min(EXPM1_FAR));
        VectorMask<Double> far = x.compare(VectorOperators.GT, EXPM1_FAR);
        if (far.anyTrue()) y = y.blend(exp(x), far);   // rare: skip the second exp where no lane needs it
        y = y.blend(-1.0, x.compare(VectorOperators.LT, -EXPM1_FAR));
        return y.blend(x, x.compare(VectorOperators.EQ, 0.0));
    }

    /**
     * e^c - 1 for |c| ≤ 40 and c not ±0 (tanh calls it directly: expm1's blends and far branch on top made tanh's
     * body too large for C2, which then boxed its vectors).
     */
    private static DoubleVector expm1Near(DoubleVector c) {
        DoubleVector tn = c.fma(DoubleVector.broadcast(S, LOG2E), DoubleVector.broadcast(S, ROUNDER));
        DoubleVector n = tn.sub(ROUNDER);
        DoubleVector p = tn.reinterpretAsLongs().sub(ROUNDER_BITS - 1023).lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
        DoubleVector r0 = n.neg().fma(DoubleVector.broadcast(S, LN2_HI), c);
        DoubleVector r = n.neg().fma(DoubleVector.broadcast(S, LN2_LO), r0);
        DoubleVector rLo = n.neg().fma(DoubleVector.broadcast(S, LN2_LO), r0.sub(r));
        DoubleVector t = r.mul(r).fma(q(r), rLo.fma(r, rLo));   // e^r - 1 - r, rLo·e^r included
        DoubleVector hi = r.add(t), lo = t.sub(hi.sub(r));
        return hi.fma(p, lo.fma(p, p.sub(1.0)));
    }

    /** e^x - 1, the same operations as {@link #expm1(DoubleVector)} on one value. */
    static double expm1(double x) {
        if (x == 0.0) return x;
        if (x > EXPM1_FAR) return exp(x);
        if (x < -EXPM1_FAR) return -1.0;
        return expm1Near(x);
    }

    private static double expm1Near(double c) {
        double n = Math.fma(c, LOG2E, ROUNDER) - ROUNDER;
        double r0 = Math.fma(-n, LN2_HI, c);
        double r = Math.fma(-n, LN2_LO, r0);
        double rLo = Math.fma(-n, LN2_LO, r0 - r);
        double t = Math.fma(r * r, q(r), Math.fma(rLo, r, rLo));
        double hi = r + t, lo = t - (hi - r);
        double p = pow2(n);
        return Math.fma(hi, p, Math.fma(lo, p, p - 1.0));
    }

    private static final double TWO54 = 0x1p54;
    private static final double LG1 = 0x1.5555555555593p-1, LG2 = 0x1.999999997fa04p-2, LG3 = 0x1.2492494229359p-2,
            LG4 = 0x1.c71c51d8e78afp-3, LG5 = 0x1.7466496cb03dep-3, LG6 = 0x1.39a09d078c69fp-3, LG7 = 0x1.2f112df3e5244p-3;
    /** Mantissas in [M_LOW, M_HIGH) take fdlibm's {@code hfsq} form (its test {@code 0x6147a <= hx <= 0x6b851}). */
    private static final double M_LOW = 1 + 0x6147a / 0x1p20, M_HIGH = 1 + 0x6b852 / 0x1p20;

    /**
     * {@code out[oi+i] = ln(x[xi+i])}, or {@code ln(1 + x[xi+i])} when {@code onePlus}, for the whole vectors among the
     * n elements; returns how many it did (the caller does the tail with {@link #log(double)} / {@link #log1p(double)}).
     * ln: NaN below 0 and for NaN, -Inf at ±0, +Inf at +Inf. ln(1 + x) corrects the rounding of {@code u = 1 + x} by
     * {@code ln(u)·x/(u - 1)} (Goldberg's method); x itself where u is 1.
     *
     * <p>A loop, not a function of a vector: the log's body is larger than C2 inlines into a caller's loop (as one method,
     * or as two when the second was compiled on its own first), and a vector function left out of line has its vectors
     * boxed (94 bytes allocated per element, 3× slower). log and log1p share the loop: ln runs on {@code x + 0} and the
     * correction is computed for both but kept only for log1p, so no vector merges two paths.
     */
    static long logs(boolean onePlus, MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        double one = onePlus ? 1.0 : 0.0;
        VectorMask<Double> corrected = S.maskAll(onePlus);
        int lanes = S.length();
        long i = 0;
        for (long bound = n - n % lanes; i < bound; i += lanes) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * 8, ORDER);
            DoubleVector u = v.add(one);   // log: -0 becomes +0, whose log is the same -Inf
            // Subnormals are scaled into the normal range first (exactly), their exponent corrected by 54.
            VectorMask<Double> sub = u.compare(VectorOperators.LT, Double.MIN_NORMAL);
            LongVector bits = u.blend(u.mul(TWO54), sub).reinterpretAsLongs();
            // k: the unbiased exponent, as a double through the rounder (no long-to-double conversion on AVX2).
            DoubleVector k = bits.lanewise(VectorOperators.LSHR, 52).and(0x7ffL).add(ROUNDER_BITS - 1023).reinterpretAsDoubles().sub(ROUNDER);
            k = k.blend(k.sub(54.0), sub);
            // m in [1, 2), halved (k raised) from fdlibm's sqrt(2) bound on, so f = m - 1 lies in [-0.29, 0.42].
            DoubleVector m0 = bits.and(0x000fffffffffffffL).or(0x3ff0000000000000L).reinterpretAsDoubles();
            VectorMask<Double> high = bits.and(0x000fffffffffffffL).add(0x95f6400000000L).and(0x0010000000000000L)
                    .compare(VectorOperators.NE, 0L).cast(S);
            k = k.blend(k.add(1.0), high);
            DoubleVector f = m0.blend(m0.mul(0.5), high).sub(1.0);
            DoubleVector sd = f.div(f.add(2.0));
            DoubleVector z = sd.mul(sd), w = z.mul(z);
            DoubleVector t1 = w.mul(w.fma(w.fma(DoubleVector.broadcast(S, LG6), DoubleVector.broadcast(S, LG4)), DoubleVector.broadcast(S, LG2)));
            DoubleVector t2 = z.mul(w.fma(w.fma(w.fma(DoubleVector.broadcast(S, LG7), DoubleVector.broadcast(S, LG5)),
                    DoubleVector.broadcast(S, LG3)), DoubleVector.broadcast(S, LG1)));
            DoubleVector rr = t2.add(t1);
            DoubleVector hfsq = f.mul(0.5).mul(f);
            DoubleVector a = hfsq.sub(sd.mul(hfsq.add(rr)).add(k.mul(LN2_LO))).sub(f);   // fdlibm's hfsq form
            DoubleVector b = sd.mul(f.sub(rr)).sub(k.mul(LN2_LO)).sub(f);                // and its short form
            VectorMask<Double> useA = m0.compare(VectorOperators.GE, M_LOW).and(m0.compare(VectorOperators.LT, M_HIGH));
            DoubleVector lu = k.mul(LN2_HI).sub(b.blend(a, useA));
            lu = lu.blend(Double.NEGATIVE_INFINITY, u.compare(VectorOperators.EQ, 0.0));
            lu = lu.blend(Double.NaN, u.compare(VectorOperators.LT, 0.0));
            lu = lu.blend(u, u.compare(VectorOperators.EQ, Double.POSITIVE_INFINITY));
            lu = lu.blend(u, u.compare(VectorOperators.NE, u));
            DoubleVector c = lu.mul(v.div(u.sub(1.0))).blend(v, u.compare(VectorOperators.EQ, 1.0));
            // Where u is +Inf (x huge or +Inf) the correction would give NaN: log(u) is the answer.
            c = c.blend(lu, u.compare(VectorOperators.EQ, Double.POSITIVE_INFINITY));
            lu.blend(c, corrected).intoMemorySegment(out, (oi + i) * 8, ORDER);
        }
        return i;
    }

    /** ln x, the same operations as {@link #logs} on one value. */
    static double log(double x) {
        if (x != x || x == Double.POSITIVE_INFINITY) return x;
        if (x < 0.0) return Double.NaN;
        if (x == 0.0) return Double.NEGATIVE_INFINITY;
        boolean sub = x < Double.MIN_NORMAL;
        double xs = sub ? x * TWO54 : x;
        long bits = Double.doubleToRawLongBits(xs);
        double k = Double.longBitsToDouble((bits >>> 52 & 0x7ffL) + (ROUNDER_BITS - 1023)) - ROUNDER;
        if (sub) k = k - 54.0;
        double m0 = Double.longBitsToDouble(bits & 0x000fffffffffffffL | 0x3ff0000000000000L);
        boolean high = ((bits & 0x000fffffffffffffL) + 0x95f6400000000L & 0x0010000000000000L) != 0;
        double m = high ? m0 * 0.5 : m0;
        if (high) k = k + 1.0;
        double f = m - 1.0;
        double sd = f / (f + 2.0);
        double z = sd * sd, w = z * z;
        double t1 = w * Math.fma(w, Math.fma(w, LG6, LG4), LG2);
        double t2 = z * Math.fma(w, Math.fma(w, Math.fma(w, LG7, LG5), LG3), LG1);
        double rr = t2 + t1;
        double hfsq = f * 0.5 * f;
        double inner = m0 >= M_LOW && m0 < M_HIGH
                ? hfsq - (sd * (hfsq + rr) + k * LN2_LO) - f
                : sd * (f - rr) - k * LN2_LO - f;
        return k * LN2_HI - inner;
    }

    /** ln(1 + x), the same operations as {@link #logs} with {@code onePlus} on one value. */
    static double log1p(double x) {
        double u = x + 1.0;
        if (u == Double.POSITIVE_INFINITY) return log(u);
        if (u == 1.0) return x;
        return log(u) * (x / (u - 1.0));
    }

    /** From this |x| on, tanh rounds to ±1 (1 - tanh(20) is below 2⁻⁵⁴), and 2|x| stays within expm1's reduced range. */
    private static final double TANH_ONE = 20;

    /**
     * tanh x in every lane (±0 and NaN kept), fdlibm's formula: with {@code a = |x|}, {@code -t/(t+2)} for
     * {@code t = expm1(-2a)} below 1, {@code 1 - 2/(t+2)} for {@code t = expm1(2a)} from 1 on.
     */
    static DoubleVector tanh(DoubleVector x) {
        DoubleVector a = x.abs().min(TANH_ONE);
        VectorMask<Double> small = a.compare(VectorOperators.LT, 1.0);
        DoubleVector twoA = a.add(a);
        DoubleVector t = expm1Near(twoA.blend(twoA.neg(), small));
        DoubleVector two = DoubleVector.broadcast(S, 2.0);
        DoubleVector big = DoubleVector.broadcast(S, 1.0).sub(two.div(t.add(2.0)));
        DoubleVector y = big.blend(t.neg().div(t.add(2.0)), small);
        y = y.blend(y.neg(), x.compare(VectorOperators.LT, 0.0));
        y = y.blend(x, x.compare(VectorOperators.EQ, 0.0));
        return y.blend(x, x.compare(VectorOperators.NE, x));
    }

    /** tanh x, the same operations as {@link #tanh(DoubleVector)} on one value. */
    static double tanh(double x) {
        if (x != x || x == 0.0) return x;
        double a = Math.min(Math.abs(x), TANH_ONE);
        double y;
        if (a < 1.0) {
            double t = expm1Near(-(a + a));
            y = -t / (t + 2.0);
        } else {
            double t = expm1Near(a + a);
            y = 1.0 - 2.0 / (t + 2.0);
        }
        return x < 0.0 ? -y : y;
    }

    /** The logistic function {@code 1/(1+e^{-x})} in every lane, from {@code e = exp(-|x|)} (never overflows). */
    static DoubleVector sigmoid(DoubleVector x) {
        DoubleVector one = DoubleVector.broadcast(S, 1.0);
        DoubleVector e = exp(x.abs().neg());
        DoubleVector p = one.div(one.add(e));
        return p.blend(e.mul(p), x.compare(VectorOperators.LT, 0.0));
    }

    /** The logistic function, the same operations as {@link #sigmoid(DoubleVector)} on one value. */
    static double sigmoid(double x) {
        double e = exp(-Math.abs(x));
        double p = 1.0 / (1.0 + e);
        return x < 0.0 ? e * p : p;
    }
}
