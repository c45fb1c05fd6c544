package dev.jburn.kernels;

/**
 * {@code pow} for GLSL, whose built-in is undefined for {@code x < 0}, and for {@code x == 0} with
 * {@code y <= 0}, and is only as accurate as {@code exp2(y·log2(x))} in the operand's precision.
 * These follow the cpu engine ({@code ScalarMath.pow}: Java's {@code pow}, plus {@code pow(1, y) = 1}
 * and {@code pow(-1, ±Inf) = 1}): {@code pow(x, ±0) = 1} even for NaN; a negative base takes an
 * integer exponent only (the sign of an odd one), NaN otherwise; ±0 and ±Inf bases and ±Inf
 * exponents by Java's table. The rest is {@code exp(y·log|x|)} in double ({@code jb_log_d} of
 * {@link GlslMath}, {@code jb_exp_d} of {@link GlslExp}; f64 through {@link GlslMath64}'s {@code jb_log64},
 * {@code jb_exp64}): for f32 within an ulp, rounded once, with subnormal results built from their bits
 * like {@code jb_exp32}'s; for f64 within a relative error of about {@code |y·log x|·1e-16}, below 1e-12
 * over the whole finite range. A power of two to an integer power is exact (a power of two), so the
 * results that lie halfway between two floats, {@code 2^-150} for f32, round to even as on the cpu. Infinities and NaNs are constants (a Vulkan compiler may fold arithmetic
 * that makes one). Needs {@code shaderFloat64} ({@link GlslDialect#needsFloat64}).
 */
final class GlslPow {
    private GlslPow() {}

    /** The function the GLSL dialect uses for {@code pow} on f32 or f64. */
    static String name(boolean f64) { return f64 ? "jb_pow64" : "jb_pow32"; }

    /** Goes after {@link GlslExp}, {@link GlslMath} and {@link GlslMath64}, whose double cores it calls. */
    static String source() {
        return """
                // whether y (integral, finite) is odd: every double from 2^53 on is even
                bool jb_pow_odd(double y) { return abs(y) < 9007199254740992.0LF && floor(y * 0.5LF) != y * 0.5LF; }
                float jb_pow32(float xf, float yf) {
                  if (yf == 0.0 || xf == 1.0) return 1.0;
                  if (isnan(xf) || isnan(yf)) return uintBitsToFloat(0x7FC00000u);
                  double x = double(xf), y = double(yf), ax = abs(x);
                  if (isinf(yf)) {
                    if (ax == 1.0LF) return 1.0;
                    return (ax > 1.0LF) == (y > 0.0LF) ? uintBitsToFloat(0x7F800000u) : 0.0;
                  }
                  bool integral = floor(y) == y;
                  bool negative = (floatBitsToUint(xf) >> 31) != 0u;
                  bool flip = negative && integral && jb_pow_odd(y);
                  float r;
                  if (xf == 0.0) r = y > 0.0LF ? 0.0 : uintBitsToFloat(0x7F800000u);
                  else if (isinf(xf)) r = y > 0.0LF ? uintBitsToFloat(0x7F800000u) : 0.0;
                  else if (negative && !integral) return uintBitsToFloat(0x7FC00000u);
                  else {
                    int e;
                    double p, t = 0.0LF;
                    if (frexp(ax, e) == 0.5LF && integral && abs(y) < 1024.0LF) {
                      // a power of two to an integer power: exact, so a result halfway to a subnormal rounds as on the cpu
                      p = ldexp(1.0LF, int(clamp(double(e - 1) * y, -200.0LF, 200.0LF)));
                    } else {
                      t = y * jb_log_d(ax);
                      p = t > 89.0LF || t < -104.0LF ? 0.0LF : jb_exp_d(t);
                    }
                    if (t > 89.0LF || p >= 3.4028235677973366e38LF) r = uintBitsToFloat(0x7F800000u); // past FLT_MAX + half an ulp
                    else if (p >= 1.1754943508222875e-38LF) r = float(p);
                    else r = uintBitsToFloat(uint(roundEven(ldexp(p, 149)))); // a subnormal f32 (or 0), rounded from its bits
                  }
                  return flip ? -r : r;
                }
                double jb_pow64(double x, double y) {
                  if (y == 0.0LF || x == 1.0LF) return 1.0LF;
                  if (isnan(x) || isnan(y)) return jb_nan64();
                  double ax = abs(x);
                  if (isinf(y)) {
                    if (ax == 1.0LF) return 1.0LF;
                    return (ax > 1.0LF) == (y > 0.0LF) ? jb_inf64(false) : 0.0LF;
                  }
                  if (y == 1.0LF) return x;
                  bool integral = floor(y) == y;
                  bool negative = (unpackDouble2x32(x).y >> 31) != 0u;
                  bool flip = negative && integral && jb_pow_odd(y);
                  double r;
                  if (x == 0.0LF) r = y > 0.0LF ? 0.0LF : jb_inf64(false);
                  else if (isinf(x)) r = y > 0.0LF ? jb_inf64(false) : 0.0LF;
                  else if (negative && !integral) return jb_nan64();
                  else {
                    int e;
                    if (frexp(ax, e) == 0.5LF && integral && abs(y) < 4096.0LF) {
                      // a power of two to an integer power: exact (see jb_pow32), subnormals through one exact scaling
                      double k = double(e - 1) * y;
                      if (k > 1023.0LF) r = jb_inf64(false);
                      else if (k < -1074.0LF) r = 0.0LF;
                      else if (k < -1022.0LF) r = ldexp(1.0LF, int(k) + 1000) * 9.332636185032189e-302LF; // times 2^-1000
                      else r = ldexp(1.0LF, int(k));
                    } else {
                      r = jb_exp64(y * jb_log64(ax));
                    }
                  }
                  return flip ? -r : r;
                }
                """;
    }
}
