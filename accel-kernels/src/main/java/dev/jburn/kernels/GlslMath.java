package dev.jburn.kernels;

/**
 * Single-precision {@code expm1, log, log1p, sinh, cosh, tanh, erf, erfc, asinh, acosh, atanh, cbrt} for GLSL, computed in double
 * precision and rounded once, because the built-ins may be several ulps off (and GLSL has no
 * double-precision transcendentals to fall back on). Each is within about one f32 ulp: a double
 * {@code exp} core ({@code jb_exp_d} of {@link GlslExp}, which comes first in the header) and a double {@code log} core
 * ({@code atanh} series on a mantissa in [√½, √2)), with short series where a difference would
 * cancel ({@code |x|} tiny); erf and erfc are fdlibm's rational approximations (as {@code ScalarMath}) in
 * double; the inverse hyperbolic functions are logarithms of arguments formed without cancellation
 * (every f32 input is exact in double), with series where the result is tiny; cbrt is three Newton
 * steps in double from a single-precision guess. Needs {@code shaderFloat64}; without it the first eight
 * fall back to the built-ins, which the engines then do not trust (their kit tolerances are not
 * guaranteed), and the last four do not exist ({@link GlslDialect#needsFloat64}).
 */
final class GlslMath {
    private GlslMath() {}

    /** The function the GLSL dialect uses for f32 {@code fn}, or null when this class has none. */
    static String name(String fn) {
        return switch (fn) {
            case "expm1", "log", "log1p", "sinh", "cosh", "tanh", "erf", "erfc", "asinh", "acosh", "atanh", "cbrt" -> "jb_" + fn + "32";
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
                  else if (a > 89.5LF) s = packDouble2x32(uvec2(0u, 0x7FF00000u)); // +inf as a constant: NVIDIA's compiler mangled an infinity made by arithmetic
                  else { double e = jb_exp_d(a); s = 0.5LF * (e - 1.0LF / e); }
                  float r = float(s);
                  return x < 0.0 ? -r : r;
                }
                // fdlibm's rational approximations shared by erf and erfc: |x| < 0.84375 (in z = x*x) and
                // 0.84375 <= |x| < 1.25 (in s = |x| - 1)
                double jb_erf_small(double z) {
                  double r = 1.28379167095512558561e-01LF + z * (-3.25042107247001499370e-01LF + z * (-2.84817495755985104766e-02LF + z * (-5.77027029648944159157e-03LF + z * (-2.37630166566501626084e-05LF))));
                  double s = 1.0LF + z * (3.97917223959155352819e-01LF + z * (6.50222499887672944485e-02LF + z * (5.08130628187576562776e-03LF + z * (1.32494738004321644526e-04LF + z * (-3.96022827877536812320e-06LF)))));
                  return r / s;
                }
                double jb_erf_mid(double s) {
                  double p = -2.36211856075265944077e-03LF + s * (4.14856118683748331666e-01LF + s * (-3.72207876035701323847e-01LF + s * (3.18346619901161753674e-01LF + s * (-1.10894694282396677476e-01LF + s * (3.54783043256182359371e-02LF + s * (-2.16637559486879084300e-03LF))))));
                  double q = 1.0LF + s * (1.06420880400844228286e-01LF + s * (5.40397917702171048937e-01LF + s * (7.18286544141962662868e-02LF + s * (1.26171219808761642112e-01LF + s * (1.36370839120290507362e-02LF + s * (1.19844998467991074170e-02LF))))));
                  return p / q;
                }
                double jb_erfc_tail(double ax) {
                  uint ix = unpackDouble2x32(ax).y & 0x7fffffffu;
                  double s = 1.0LF / (ax * ax);
                  double r, q;
                  if (ix < 0x4006DB6Eu) {
                    r = -9.86494403484714822705e-03LF + s * (-6.93858572707181764372e-01LF + s * (-1.05586262253232909814e+01LF + s * (-6.23753324503260060396e+01LF + s * (-1.62396669462573470355e+02LF + s * (-1.84605092906711035994e+02LF + s * (-8.12874355063065934246e+01LF + s * (-9.81432934416914548592e+00LF)))))));
                    q = 1.0LF + s * (1.96512716674392571292e+01LF + s * (1.37657754143519042600e+02LF + s * (4.34565877475229228821e+02LF + s * (6.45387271733267880336e+02LF + s * (4.29008140027567833386e+02LF + s * (1.08635005541779435134e+02LF + s * (6.57024977031928170135e+00LF + s * (-6.04244152148580987438e-02LF))))))));
                  } else {
                    r = -9.86494292470009928597e-03LF + s * (-7.99283237680523006574e-01LF + s * (-1.77579549177547519889e+01LF + s * (-1.60636384855821916062e+02LF + s * (-6.37566443368389627722e+02LF + s * (-1.02509513161107724954e+03LF + s * (-4.83519191608651397019e+02LF))))));
                    q = 1.0LF + s * (3.03380607434824582924e+01LF + s * (3.25792512996573918826e+02LF + s * (1.53672958608443695994e+03LF + s * (3.19985821950859553908e+03LF + s * (2.55305040643316442583e+03LF + s * (4.74528541206955367215e+02LF + s * (-2.24409524465858183362e+01LF)))))));
                  }
                  double z = packDouble2x32(uvec2(0u, unpackDouble2x32(ax).y));
                  return jb_exp_d(-z * z - 0.5625LF) * jb_exp_d((z - ax) * (z + ax) + r / q) / ax;
                }
                float jb_erf32(float xf) {
                  if (isnan(xf)) return xf;
                  if (isinf(xf)) return xf > 0.0 ? 1.0 : -1.0;
                  double x = double(xf);
                  uint hx = unpackDouble2x32(x).y;
                  uint ix = hx & 0x7fffffffu;
                  bool neg = (hx >> 31) != 0u;
                  double ax = abs(x);
                  if (ix < 0x3feb0000u) {
                    if (ix < 0x3e300000u) return float(x + 1.28379167095512586316e-01LF * x);
                    return float(x + x * jb_erf_small(x * x));
                  }
                  if (ix < 0x3ff40000u) {
                    double pq = jb_erf_mid(ax - 1.0LF);
                    return float(neg ? -8.45062911510467529297e-01LF - pq : 8.45062911510467529297e-01LF + pq);
                  }
                  if (ix >= 0x40180000u) return neg ? -1.0 : 1.0;
                  double t = jb_erfc_tail(ax);
                  return float(neg ? t - 1.0LF : 1.0LF - t);
                }
                float jb_erfc32(float xf) {
                  if (isnan(xf)) return xf;
                  if (isinf(xf)) return xf > 0.0 ? 0.0 : 2.0;
                  double x = double(xf);
                  uint hx = unpackDouble2x32(x).y;
                  uint ix = hx & 0x7fffffffu;
                  bool neg = (hx >> 31) != 0u;
                  double ax = abs(x);
                  if (ix < 0x3feb0000u) {
                    if (ix < 0x3c700000u) return float(1.0LF - x);
                    double z = x * x;
                    double y = jb_erf_small(z);
                    if (hx < 0x3fd00000u || neg) return float(1.0LF - (x + x * y));
                    return float(0.5LF - (x * y + (x - 0.5LF)));
                  }
                  if (ix < 0x3ff40000u) {
                    double pq = jb_erf_mid(ax - 1.0LF);
                    return float(neg ? 1.0LF + (8.45062911510467529297e-01LF + pq) : (1.0LF - 8.45062911510467529297e-01LF) - pq);
                  }
                  if (ix < 0x403c0000u) {
                    if (neg && ix >= 0x40180000u) return 2.0;
                    double t = jb_erfc_tail(ax);
                    return float(neg ? 2.0LF - t : t);
                  }
                  return neg ? 2.0 : 0.0;
                }
                float jb_asinh32(float x) {
                  if (isnan(x) || isinf(x) || x == 0.0) return x;
                  double a = abs(double(x));
                  double r;
                  if (a < 0.001LF) { double a2 = a * a; r = a * (1.0LF - a2 * (1.0LF / 6.0LF - a2 * (3.0LF / 40.0LF))); }
                  else if (a > 268435456.0LF) r = jb_log_d(a) + 0.6931471805599453LF;
                  else r = jb_log_d(a + sqrt(a * a + 1.0LF));
                  float f = float(r);
                  return x < 0.0 ? -f : f;
                }
                float jb_acosh32(float x) {
                  if (isnan(x) || x < 1.0) return uintBitsToFloat(0x7FC00000u);
                  if (isinf(x)) return x;
                  double a = double(x);
                  if (a > 268435456.0LF) return float(jb_log_d(a) + 0.6931471805599453LF);
                  return float(jb_log_d(a + sqrt(a * a - 1.0LF))); // a*a - 1 is exact for an f32 a
                }
                float jb_atanh32(float x) {
                  if (isnan(x) || abs(x) > 1.0) return uintBitsToFloat(0x7FC00000u);
                  if (x == 0.0) return x;
                  if (abs(x) == 1.0) return uintBitsToFloat(x > 0.0 ? 0x7F800000u : 0xFF800000u); // not x * inf: NVIDIA returned garbage for that
                  double a = abs(double(x));
                  double r;
                  if (a < 0.0001LF) { double a2 = a * a; r = a * (1.0LF + a2 * (1.0LF / 3.0LF + a2 * 0.2LF)); }
                  else r = 0.5LF * jb_log_d((1.0LF + a) / (1.0LF - a)); // 1 ± a exact for an f32 a
                  float f = float(r);
                  return x < 0.0 ? -f : f;
                }
                float jb_cbrt32(float x) {
                  if (isnan(x) || isinf(x) || x == 0.0) return x;
                  int e;
                  double m = frexp(abs(double(x)), e); // m in [0.5, 1); subnormal f32 inputs are normal doubles
                  int q = (e + 300) / 3;                // GLSL leaves / and % of negative ints undefined: shift e up first
                  int r = e + 300 - 3 * q;
                  m = ldexp(m, r);                      // m in [0.5, 4), e - r = 3 * (q - 100)
                  double y = double(exp2(log2(float(m)) / 3.0));
                  for (int i = 0; i < 3; i++) y -= (y * y * y - m) / (3.0LF * y * y);
                  float f = float(ldexp(y, q - 100));
                  return x < 0.0 ? -f : f;
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
