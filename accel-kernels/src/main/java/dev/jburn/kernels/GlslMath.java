package dev.jburn.kernels;

/**
 * Single-precision {@code expm1, log, log1p, sinh, cosh, tanh} for GLSL, computed in double
 * precision and rounded once, because the built-ins may be several ulps off (and GLSL has no
 * double-precision transcendentals to fall back on). Each is within about one f32 ulp: a double
 * {@code exp} core (range reduction by ln 2, degree-12 Taylor) and a double {@code log} core
 * ({@code atanh} series on a mantissa in [√½, √2)), with short series where a difference would
 * cancel ({@code |x|} tiny). Needs {@code shaderFloat64}; without it the names fall back to the
 * built-ins, which the engines then do not trust (their kit tolerances are not guaranteed).
 */
final class GlslMath {
    private GlslMath() {}

    /** The function the GLSL dialect uses for f32 {@code fn}, or null when this class has none. */
    static String name(String fn) {
        return switch (fn) {
            case "expm1", "log", "log1p", "sinh", "cosh", "tanh" -> "jb_" + fn + "32";
            default -> null;
        };
    }

    static String source(boolean float64) {
        if (!float64) {
            return """
                    #define jb_expm132 jb_expm1_builtin
                    float jb_expm1_builtin(float x) { return exp(x) - 1.0; }
                    #define jb_log32 log
                    float jb_log1p32(float x) { return log(1.0 + x); }
                    #define jb_sinh32 sinh
                    #define jb_cosh32 cosh
                    #define jb_tanh32 tanh
                    """;
        }
        return """
                double jb_exp_d(double x) {
                  double k = floor(x * 1.4426950408889634LF + 0.5LF);
                  double r = (x - k * 0.6931471803691238LF) - k * 1.9082149292705877e-10LF;
                  double p = 1.0LF / 479001600.0LF;
                  p = p * r + 1.0LF / 39916800.0LF;
                  p = p * r + 1.0LF / 3628800.0LF;
                  p = p * r + 1.0LF / 362880.0LF;
                  p = p * r + 1.0LF / 40320.0LF;
                  p = p * r + 1.0LF / 5040.0LF;
                  p = p * r + 1.0LF / 720.0LF;
                  p = p * r + 1.0LF / 120.0LF;
                  p = p * r + 1.0LF / 24.0LF;
                  p = p * r + 1.0LF / 6.0LF;
                  p = p * r + 0.5LF;
                  p = p * r + 1.0LF;
                  p = p * r + 1.0LF;
                  return ldexp(p, int(k));
                }
                double jb_log_d(double d) {
                  int e;
                  double m = frexp(d, e);
                  if (m < 0.7071067811865476LF) { m *= 2.0LF; e -= 1; }
                  double s = (m - 1.0LF) / (m + 1.0LF);
                  double s2 = s * s;
                  double p = 1.0LF / 23.0LF;
                  p = p * s2 + 1.0LF / 21.0LF;
                  p = p * s2 + 1.0LF / 19.0LF;
                  p = p * s2 + 1.0LF / 17.0LF;
                  p = p * s2 + 1.0LF / 15.0LF;
                  p = p * s2 + 1.0LF / 13.0LF;
                  p = p * s2 + 1.0LF / 11.0LF;
                  p = p * s2 + 1.0LF / 9.0LF;
                  p = p * s2 + 1.0LF / 7.0LF;
                  p = p * s2 + 1.0LF / 5.0LF;
                  p = p * s2 + 1.0LF / 3.0LF;
                  p = p * s2 + 1.0LF;
                  return double(e) * 0.6931471805599453LF + 2.0LF * s * p;
                }
                float jb_expm132(float x) {
                  if (isnan(x)) return x;
                  if (x > 89.0) return uintBitsToFloat(0x7F800000u);
                  if (x < -104.0) return -1.0;
                  double d = double(x);
                  if (abs(d) < 0.00001LF) return float(d + d * d * (0.5LF + d * (1.0LF / 6.0LF)));
                  return float(jb_exp_d(d) - 1.0LF);
                }
                float jb_log32(float x) {
                  if (isnan(x) || x < 0.0) return uintBitsToFloat(0x7FC00000u);
                  if (x == 0.0) return uintBitsToFloat(0xFF800000u);
                  if (isinf(x)) return x;
                  return float(jb_log_d(double(x)));
                }
                float jb_log1p32(float x) {
                  if (isnan(x) || x < -1.0) return uintBitsToFloat(0x7FC00000u);
                  if (x == -1.0) return uintBitsToFloat(0xFF800000u);
                  if (isinf(x)) return x;
                  double d = double(x);
                  if (abs(d) < 0.0001LF) return float(d * (1.0LF - d * (0.5LF - d * (1.0LF / 3.0LF - d * 0.25LF))));
                  return float(jb_log_d(1.0LF + d));
                }
                float jb_tanh32(float x) {
                  if (isnan(x) || x == 0.0) return x;
                  double a = abs(double(x));
                  double t;
                  if (a < 0.0009765625LF) { double a2 = a * a; t = a * (1.0LF - a2 * (1.0LF / 3.0LF - a2 * (2.0LF / 15.0LF))); }
                  else if (a > 10.0LF) t = 1.0LF;
                  else { double e = jb_exp_d(-2.0LF * a); t = (1.0LF - e) / (1.0LF + e); }
                  float r = float(t);
                  return x < 0.0 ? -r : r;
                }
                float jb_sinh32(float x) {
                  if (isnan(x) || x == 0.0) return x;
                  double a = abs(double(x));
                  double s;
                  if (a < 0.0009765625LF) { double a2 = a * a; s = a * (1.0LF + a2 * (1.0LF / 6.0LF + a2 * (1.0LF / 120.0LF))); }
                  else if (a > 89.5LF) s = 1.0e300LF * 1.0e300LF;
                  else { double e = jb_exp_d(a); s = 0.5LF * (e - 1.0LF / e); }
                  float r = float(s);
                  return x < 0.0 ? -r : r;
                }
                float jb_cosh32(float x) {
                  if (isnan(x)) return x;
                  double a = abs(double(x));
                  if (a > 89.5LF) return uintBitsToFloat(0x7F800000u);
                  double e = jb_exp_d(a);
                  return float(0.5LF * (e + 1.0LF / e));
                }
                """;
    }
}
