package dev.jburn.spi;

/**
 * Scalar special functions that {@link java.lang.Math} lacks, shared by the reference kernels,
 * accelerator fallbacks and the conformance oracle. Every method is deterministic (built on
 * {@link StrictMath}), so all engines that use it agree bit for bit.
 *
 * <pre>{@code
 * ScalarMath.erf(0.5);        // 0.5204998778130465
 * ScalarMath.erfInv(0.5);     // 0.4769362762044699
 * ScalarMath.erfInvF32(0.5f); // XLA's single-precision result (JAX, EXLA)
 * ScalarMath.erfInvNx(0.5);    // Nx binary backend's result
 * }</pre>
 */
public final class ScalarMath {
    private ScalarMath() {}

    // ---- erf / erfc: a port of fdlibm s_erf.c (Sun Microsystems, 1993; freely redistributable) ----------
    // Rational approximations on [0, 0.84375], [0.84375, 1.25], [1.25, 1/0.35], [1/0.35, 28];
    // see fdlibm for the error bounds (below one ulp for erf, about one ulp for erfc).

    private static final double ERX = 8.45062911510467529297e-01;
    private static final double EFX = 1.28379167095512586316e-01;
    private static final double EFX8 = 1.02703333676410069053e+00;
    private static final double PP0 = 1.28379167095512558561e-01, PP1 = -3.25042107247001499370e-01,
            PP2 = -2.84817495755985104766e-02, PP3 = -5.77027029648944159157e-03, PP4 = -2.37630166566501626084e-05;
    private static final double QQ1 = 3.97917223959155352819e-01, QQ2 = 6.50222499887672944485e-02,
            QQ3 = 5.08130628187576562776e-03, QQ4 = 1.32494738004321644526e-04, QQ5 = -3.96022827877536812320e-06;
    private static final double PA0 = -2.36211856075265944077e-03, PA1 = 4.14856118683748331666e-01,
            PA2 = -3.72207876035701323847e-01, PA3 = 3.18346619901161753674e-01, PA4 = -1.10894694282396677476e-01,
            PA5 = 3.54783043256182359371e-02, PA6 = -2.16637559486879084300e-03;
    private static final double QA1 = 1.06420880400844228286e-01, QA2 = 5.40397917702171048937e-01,
            QA3 = 7.18286544141962662868e-02, QA4 = 1.26171219808761642112e-01, QA5 = 1.36370839120290507362e-02,
            QA6 = 1.19844998467991074170e-02;
    private static final double RA0 = -9.86494403484714822705e-03, RA1 = -6.93858572707181764372e-01,
            RA2 = -1.05586262253232909814e+01, RA3 = -6.23753324503260060396e+01, RA4 = -1.62396669462573470355e+02,
            RA5 = -1.84605092906711035994e+02, RA6 = -8.12874355063065934246e+01, RA7 = -9.81432934416914548592e+00;
    private static final double SA1 = 1.96512716674392571292e+01, SA2 = 1.37657754143519042600e+02,
            SA3 = 4.34565877475229228821e+02, SA4 = 6.45387271733267880336e+02, SA5 = 4.29008140027567833386e+02,
            SA6 = 1.08635005541779435134e+02, SA7 = 6.57024977031928170135e+00, SA8 = -6.04244152148580987438e-02;
    private static final double RB0 = -9.86494292470009928597e-03, RB1 = -7.99283237680523006574e-01,
            RB2 = -1.77579549177547519889e+01, RB3 = -1.60636384855821916062e+02, RB4 = -6.37566443368389627722e+02,
            RB5 = -1.02509513161107724954e+03, RB6 = -4.83519191608651397019e+02;
    private static final double SB1 = 3.03380607434824582924e+01, SB2 = 3.25792512996573918826e+02,
            SB3 = 1.53672958608443695994e+03, SB4 = 3.19985821950859553908e+03, SB5 = 2.55305040643316442583e+03,
            SB6 = 4.74528541206955367215e+02, SB7 = -2.24409524465858183362e+01;
    private static final double TINY = 1e-300;

    private static int highWord(double x) { return (int) (Double.doubleToRawLongBits(x) >>> 32); }

    /** {@code x} with the low 32 bits of its representation cleared (fdlibm's SET_LOW_WORD(z, 0)). */
    private static double clearLowWord(double x) { return Double.longBitsToDouble(Double.doubleToRawLongBits(x) & 0xFFFF_FFFF_0000_0000L); }

    /** {@code exp(-x*x - 0.5625 + R/S) / x} for {@code x = |x|} in [1.25, 28), split to keep -x*x exact. */
    private static double erfcTail(double ax, int ix) {
        double s = 1 / (ax * ax);
        double r, q;
        if (ix < 0x4006DB6E) { // |x| < 1/0.35
            r = RA0 + s * (RA1 + s * (RA2 + s * (RA3 + s * (RA4 + s * (RA5 + s * (RA6 + s * RA7))))));
            q = 1 + s * (SA1 + s * (SA2 + s * (SA3 + s * (SA4 + s * (SA5 + s * (SA6 + s * (SA7 + s * SA8)))))));
        } else {
            r = RB0 + s * (RB1 + s * (RB2 + s * (RB3 + s * (RB4 + s * (RB5 + s * RB6)))));
            q = 1 + s * (SB1 + s * (SB2 + s * (SB3 + s * (SB4 + s * (SB5 + s * (SB6 + s * SB7))))));
        }
        double z = clearLowWord(ax);
        return StrictMath.exp(-z * z - 0.5625) * StrictMath.exp((z - ax) * (z + ax) + r / q) / ax;
    }

    /** The error function, {@code 2/sqrt(pi) * integral(0..x) exp(-t^2) dt}, to within one ulp. */
    public static double erf(double x) {
        int hx = highWord(x);
        int ix = hx & 0x7fffffff;
        if (ix >= 0x7ff00000) return Double.isNaN(x) ? x : (x > 0 ? 1.0 : -1.0);
        if (ix < 0x3feb0000) { // |x| < 0.84375
            if (ix < 0x3e300000) { // |x| < 2^-28
                if (ix < 0x00800000) return (8 * x + EFX8 * x) / 8; // avoids spurious underflow
                return x + EFX * x;
            }
            double z = x * x;
            double r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
            double s = 1 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
            return x + x * (r / s);
        }
        if (ix < 0x3ff40000) { // 0.84375 <= |x| < 1.25
            double s = Math.abs(x) - 1;
            double p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
            double q = 1 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
            return hx >= 0 ? ERX + p / q : -ERX - p / q;
        }
        if (ix >= 0x40180000) return hx >= 0 ? 1 - TINY : TINY - 1; // |x| >= 6
        double r = erfcTail(Math.abs(x), ix);
        return hx >= 0 ? 1 - r : r - 1;
    }

    /** The complementary error function {@code 1 - erf(x)}, accurate in relative terms for large x. */
    public static double erfc(double x) {
        int hx = highWord(x);
        int ix = hx & 0x7fffffff;
        if (ix >= 0x7ff00000) return Double.isNaN(x) ? x : (x > 0 ? 0.0 : 2.0);
        if (ix < 0x3feb0000) { // |x| < 0.84375
            if (ix < 0x3c700000) return 1 - x; // |x| < 2^-56
            double z = x * x;
            double r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
            double s = 1 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
            double y = r / s;
            if (hx < 0x3fd00000) return 1 - (x + x * y); // x < 1/4
            return 0.5 - (x * y + (x - 0.5));
        }
        if (ix < 0x3ff40000) { // 0.84375 <= |x| < 1.25
            double s = Math.abs(x) - 1;
            double p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
            double q = 1 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
            return hx >= 0 ? (1 - ERX) - p / q : 1 + (ERX + p / q);
        }
        if (ix < 0x403c0000) { // |x| < 28
            if (hx < 0 && ix >= 0x40180000) return 2 - TINY; // x <= -6
            double r = erfcTail(Math.abs(x), ix);
            return hx > 0 ? r : 2 - r;
        }
        return hx > 0 ? TINY * TINY : 2 - TINY;
    }

    // ---- erfInv ---------------------------------------------------------------------------------------
    // Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011): the double-precision
    // polynomials as XLA uses them (ErfInv64), followed by one Halley step on erf/erfc above.

    private static final double[] GILES64_W_LT_6_25 = {
        -3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18, 1.115787767802518096e-17,
        -1.333171662854620906e-16, 2.0972767875968561637e-17, 6.6376381343583238325e-15, -4.0545662729752068639e-14,
        -8.1519341976054721522e-14, 2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
        1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08, 4.2347877827932403518e-07,
        -1.3654692000834678645e-06, -1.3882523362786468719e-05, 0.0001867342080340571352, -0.00074070253416626697512,
        -0.0060336708714301490533, 0.24015818242558961693, 1.6536545626831027356};
    private static final double[] GILES64_W_LT_16 = {
        2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07, 1.8239629214389227755e-08,
        1.5027403968909827627e-06, -4.013867526981545969e-06, 2.9234449089955446044e-06, 1.2475304481671778723e-05,
        -4.7318229009055733981e-05, 6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
        0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066, -0.0037512085075692412107,
        0.005370914553590063617, 1.0052589676941592334, 3.0838856104922207635};
    private static final double[] GILES64_W_GE_16 = {
        -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09, -3.7894654401267369937e-09,
        7.6157012080783393804e-09, -1.4960026627149240478e-08, 2.9147953450901080826e-08, -6.7711997758452339498e-08,
        2.2900482228026654717e-07, -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
        7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026, 1.0103004648645343977,
        4.8499064014085844221};
    private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;

    /**
     * The inverse error function: {@code erf(erfInv(y)) == y} for {@code y} in (-1, 1), within a
     * few ulps; {@code ±Inf} at {@code ±1}, NaN outside [-1, 1].
     */
    public static double erfInv(double y) {
        if (!(y >= -1 && y <= 1)) return Double.NaN;
        if (y == 0) return y;
        double ay = Math.abs(y);
        if (ay == 1) return Math.copySign(Double.POSITIVE_INFINITY, y);
        // (1 - ay) is exact for ay >= 0.5, which keeps w accurate close to 1.
        double w = ay < 0.5 ? -StrictMath.log1p(-ay * ay) : -StrictMath.log((1 - ay) * (1 + ay));
        double[] c;
        double t;
        if (w < 6.25) {
            c = GILES64_W_LT_6_25;
            t = w - 3.125;
        } else if (w < 16) {
            c = GILES64_W_LT_16;
            t = Math.sqrt(w) - 3.25;
        } else {
            c = GILES64_W_GE_16;
            t = Math.sqrt(w) - 5.0;
        }
        double p = c[0];
        for (int i = 1; i < c.length; i++) p = c[i] + p * t;
        double x = p * ay;
        // One Halley step on f(x) = erf(x) - ay; near 1 the residual is formed from erfc so it keeps its digits.
        double f = ay < 0.5 ? erf(x) - ay : (1 - ay) - erfc(x);
        double df = TWO_OVER_SQRT_PI * StrictMath.exp(-x * x);
        if (df > 0 && Double.isFinite(f)) x -= f / (df + x * f);
        return Math.copySign(x, y);
    }

    // Giles' single-precision polynomials, highest degree first (XLA ErfInv32, used by JAX and EXLA for f32).
    private static final float[] GILES32_W_LT_5 = {
        2.81022636e-08f, 3.43273939e-07f, -3.5233877e-06f, -4.39150654e-06f, 0.00021858087f,
        -0.00125372503f, -0.00417768164f, 0.246640727f, 1.50140941f};
    private static final float[] GILES32_W_GE_5 = {
        -0.000200214257f, 0.000100950558f, 0.00134934322f, -0.00367342844f, 0.00573950773f,
        -0.0076224613f, 0.00943887047f, 1.00167406f, 2.83297682f};

    /**
     * The inverse error function in single precision, computed step by step in {@code float}
     * exactly as XLA's {@code ErfInv32} does (so samplers built on it reproduce JAX/Nx vectors):
     * {@code w = -log1p(-x*x)}, a degree-8 polynomial in {@code w - 2.5} (w &lt; 5) or
     * {@code sqrt(w) - 3}, times {@code x}; {@code ±Inf} at {@code ±1}, NaN outside [-1, 1].
     */
    public static float erfInvF32(float x) {
        if (Math.abs(x) == 1f) return x * Float.POSITIVE_INFINITY;
        float w = -(float) StrictMath.log1p(-x * x);
        boolean lt = w < 5.0f;
        float[] c = lt ? GILES32_W_LT_5 : GILES32_W_GE_5;
        float t = lt ? w - 2.5f : (float) Math.sqrt(w) - 3.0f;
        float p = c[0];
        for (int i = 1; i < c.length; i++) p = c[i] + p * t;
        return p * x;
    }

    // Giles' single-precision coefficients read as doubles, as Nx's binary backend holds them.
    private static final double[] GILES32_AS_DOUBLE_W_LT_5 = {
        2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
        -0.00125372503, -0.00417768164, 0.246640727, 1.50140941};
    private static final double[] GILES32_AS_DOUBLE_W_GE_5 = {
        -0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
        -0.0076224613, 0.00943887047, 1.00167406, 2.83297682};

    /**
     * The inverse error function as Nx's binary backend computes it ({@code Complex.erf_inv} of
     * elixir-nx/complex): Giles' single-precision polynomial evaluated in double arithmetic with
     * {@code w = -log((1 - y)(1 + y))}. Accurate to about single precision; rounded to float it
     * reproduces Nx's doctest vectors (e.g. {@code Nx.Random.normal(key(42))} = 1.3694695, where
     * {@link #erfInvF32} gives 1.3694694). {@code ±Inf} at {@code ±1}, NaN outside [-1, 1].
     */
    public static double erfInvNx(double y) {
        if (!(y >= -1 && y <= 1)) return Double.NaN;
        if (y == 1 || y == -1) return y * Double.POSITIVE_INFINITY;
        if (y == 0) return y;
        double w = -StrictMath.log((1 - y) * (1 + y));
        boolean lt = w < 5;
        double[] c = lt ? GILES32_AS_DOUBLE_W_LT_5 : GILES32_AS_DOUBLE_W_GE_5;
        double t = lt ? w - 2.5 : Math.sqrt(w) - 3;
        double p = c[0];
        for (int i = 1; i < c.length; i++) p = p * t + c[i];
        return p * y;
    }

    // ---- inverse hyperbolic functions (fdlibm's methods) ----------------------------------------------

    private static final double LN2 = 6.93147180559945286227e-01;

    /** Inverse hyperbolic sine. */
    public static double asinh(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return x;
        double ax = Math.abs(x);
        if (ax < 0x1p-28) return x;
        double w;
        if (ax > 0x1p28) {
            w = StrictMath.log(ax) + LN2;
        } else if (ax > 2) {
            w = StrictMath.log(2 * ax + 1 / (Math.sqrt(ax * ax + 1) + ax));
        } else {
            double t = ax * ax;
            w = StrictMath.log1p(ax + t / (1 + Math.sqrt(1 + t)));
        }
        return Math.copySign(w, x);
    }

    /** Inverse hyperbolic cosine; NaN below 1. */
    public static double acosh(double x) {
        if (!(x >= 1)) return Double.NaN;
        if (x >= 0x1p28) return Double.isInfinite(x) ? x : StrictMath.log(x) + LN2;
        if (x == 1) return 0;
        if (x > 2) return StrictMath.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
        double t = x - 1;
        return StrictMath.log1p(t + Math.sqrt(2 * t + t * t));
    }

    /** Inverse hyperbolic tangent; ±Inf at ±1, NaN outside [-1, 1]. */
    public static double atanh(double x) {
        double ax = Math.abs(x);
        if (!(ax <= 1)) return Double.NaN;
        if (ax == 1) return Math.copySign(Double.POSITIVE_INFINITY, x);
        if (ax < 0x1p-28) return x;
        double t;
        if (ax < 0.5) {
            t = ax + ax;
            t = 0.5 * StrictMath.log1p(t + t * ax / (1 - ax));
        } else {
            t = 0.5 * StrictMath.log1p((ax + ax) / (1 - ax));
        }
        return Math.copySign(t, x);
    }

    // ---- rounding and the logistic function ------------------------------------------------------------

    /** Rounds half away from zero (Nx {@code round}): 2.5 → 3, -2.5 → -3, -0.4 → -0.0. */
    public static double roundHalfAwayFromZero(double x) {
        double ax = Math.abs(x);
        double t = Math.floor(ax);
        if (ax - t >= 0.5) t += 1; // exact: ax - floor(ax) never rounds
        return Math.copySign(t, x);
    }

    /** The logistic function {@code 1 / (1 + exp(-x))}, written so neither side overflows. */
    public static double sigmoid(double x) {
        if (x >= 0) return 1 / (1 + StrictMath.exp(-x));
        double e = StrictMath.exp(x);
        return e / (1 + e);
    }

    /**
     * {@code x^y} with the IEEE 754 / C99 special cases, which compiled backends (XLA, CUDA,
     * Metal) follow: {@code pow(1, y) = 1} for every {@code y} (NaN included) and
     * {@code pow(-1, ±Inf) = 1}, where {@link StrictMath#pow} gives NaN. Otherwise as {@code StrictMath.pow}.
     */
    public static double pow(double x, double y) {
        if (x == 1.0) return 1.0;
        if (x == -1.0 && Double.isInfinite(y)) return 1.0;
        return StrictMath.pow(x, y);
    }
}
