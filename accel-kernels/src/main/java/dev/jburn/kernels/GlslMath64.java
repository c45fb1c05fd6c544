package dev.jburn.kernels;

/**
 * Double-precision {@code exp, expm1, log, log1p, sinh, cosh, tanh} for GLSL, which has no
 * double-precision transcendentals at all. Built on the double cores that serve the f32 versions
 * ({@code jb_exp_core} of {@link GlslExp}: range reduction by ln 2 with a two-part constant and a
 * degree-12 polynomial; {@code jb_log_d} of {@link GlslMath}: an atanh series on a mantissa in
 * [√½, √2)), each within a few ulp (relative error about 1e-15), with the edges handled
 * explicitly: overflow and underflow thresholds, subnormal results through an exact power-of-two
 * scaling, subnormal inputs of log scaled up first, series where a difference would cancel
 * (|x| < 1/64), and ±Inf, NaN and ±0 as constants (a Vulkan compiler may fold arithmetic that
 * makes an infinity). Needs {@code shaderFloat64}.
 */
final class GlslMath64 {
    private GlslMath64() {}

    /** The function the GLSL dialect uses for f64 {@code fn}, or null when this class has none. */
    static String name(String fn) {
        return switch (fn) {
            case "exp", "expm1", "log", "log1p", "sinh", "cosh", "tanh" -> "jb_" + fn + "64";
            default -> null;
        };
    }

    static String source() {
        return """
                double jb_inf64(bool negative) { return packDouble2x32(uvec2(0u, negative ? 0xFFF00000u : 0x7FF00000u)); }
                double jb_nan64() { return packDouble2x32(uvec2(0u, 0x7FF80000u)); }
                double jb_exp64(double x) {
                  if (isnan(x)) return x;
                  if (x > 709.782712893384LF) return jb_inf64(false);
                  if (x < -745.1332191019412LF) return 0.0LF;
                  int e;
                  double p = jb_exp_core(x, e);
                  if (e > 1023) return ldexp(p, e - 1) * 2.0LF;
                  if (e < -1021) return ldexp(p, e + 1000) * 9.332636185032189e-302LF; // 2^-1000: one rounding into the subnormals
                  return ldexp(p, e);
                }
                double jb_expm164(double x) {
                  if (isnan(x)) return x;
                  if (x > 709.782712893384LF) return jb_inf64(false);
                  if (x < -40.0LF) return -1.0LF;
                  double a = abs(x);
                  if (a < 0.015625LF) {
                    double p = 1.0LF / 3628800.0LF;
                    p = p * x + 1.0LF / 362880.0LF;
                    p = p * x + 1.0LF / 40320.0LF;
                    p = p * x + 1.0LF / 5040.0LF;
                    p = p * x + 1.0LF / 720.0LF;
                    p = p * x + 1.0LF / 120.0LF;
                    p = p * x + 1.0LF / 24.0LF;
                    p = p * x + 1.0LF / 6.0LF;
                    p = p * x + 0.5LF;
                    return x + x * x * p;
                  }
                  return jb_exp64(x) - 1.0LF;
                }
                double jb_log64(double x) {
                  if (isnan(x) || x < 0.0LF) return jb_nan64();
                  if (x == 0.0LF) return jb_inf64(true);
                  if (isinf(x)) return x;
                  if (x < 2.2250738585072014e-308LF) return jb_log_d(x * 18014398509481984.0LF) - 54.0LF * 0.6931471805599453LF; // subnormal: x * 2^54 first
                  return jb_log_d(x);
                }
                double jb_log1p64(double x) {
                  if (isnan(x) || x < -1.0LF) return jb_nan64();
                  if (x == -1.0LF) return jb_inf64(true);
                  if (isinf(x)) return x;
                  if (abs(x) < 0.015625LF) {
                    double p = -1.0LF / 12.0LF;
                    p = p * x + 1.0LF / 11.0LF;
                    p = p * x - 1.0LF / 10.0LF;
                    p = p * x + 1.0LF / 9.0LF;
                    p = p * x - 1.0LF / 8.0LF;
                    p = p * x + 1.0LF / 7.0LF;
                    p = p * x - 1.0LF / 6.0LF;
                    p = p * x + 1.0LF / 5.0LF;
                    p = p * x - 0.25LF;
                    p = p * x + 1.0LF / 3.0LF;
                    p = p * x - 0.5LF;
                    return x + x * x * p;
                  }
                  return jb_log64(1.0LF + x);
                }
                // a - ln 2 for 512 <= a < 1024: the high part of ln 2 (32 significant bits) comes off exactly. Not
                // exp(a/2)^2/2: on the H200 that overflowed to +Inf for cosh(710.2) = 1.36e308.
                double jb_minus_ln2(double a) { return (a - 0.6931471803691238LF) - 1.9082149292705877e-10LF; }
                double jb_sinh64(double x) {
                  if (isnan(x) || x == 0.0LF) return x;
                  double a = abs(x), s;
                  if (a < 0.015625LF) {
                    double a2 = a * a;
                    s = a + a * a2 * (1.0LF / 6.0LF + a2 * (1.0LF / 120.0LF + a2 * (1.0LF / 5040.0LF + a2 * (1.0LF / 362880.0LF))));
                  } else if (a > 710.5LF) {
                    s = jb_inf64(false);
                  } else if (a > 700.0LF) {
                    s = jb_exp64(jb_minus_ln2(a)); // e^a / 2 (e^-a is below an ulp): exp(a) itself would overflow before sinh does
                  } else {
                    double e = jb_exp64(a);
                    s = 0.5LF * (e - 1.0LF / e);
                  }
                  return x < 0.0LF ? -s : s;
                }
                double jb_cosh64(double x) {
                  if (isnan(x)) return x;
                  double a = abs(x);
                  if (a > 710.5LF) return jb_inf64(false);
                  if (a > 700.0LF) return jb_exp64(jb_minus_ln2(a));
                  double e = jb_exp64(a);
                  return 0.5LF * (e + 1.0LF / e);
                }
                double jb_tanh64(double x) {
                  if (isnan(x) || x == 0.0LF) return x;
                  double a = abs(x), t;
                  if (a > 22.0LF) t = 1.0LF;
                  else {
                    double m = jb_expm164(-2.0LF * a);
                    t = -m / (2.0LF + m);
                  }
                  return x < 0.0LF ? -t : t;
                }
                """;
    }
}
