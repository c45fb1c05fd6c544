package dev.jburn.kernels;

/**
 * A correctly rounded (to within an ulp) single-precision {@code exp} for GLSL, whose built-in
 * {@code exp} may be off by 3+2|x| ulp and flushes denormal results. Computed in double precision
 * (range reduction by ln 2, a degree-12 Taylor polynomial on |r| <= ln2/2, relative error below
 * 1e-15), then rounded once to f32; denormal results are built from their bits, so a driver that
 * flushes f32 denormals in arithmetic still returns them. Needs {@code shaderFloat64}; without it
 * the name falls back to the built-in. Its double-precision core {@code jb_exp_d} also serves
 * {@link GlslMath}. (Added for the Vulkan engine.)
 */
final class GlslExp {
    private GlslExp() {}

    /** The function name the GLSL dialect uses for f32 {@code exp}. */
    static final String NAME = "jb_exp32";

    static String source(boolean float64) {
        if (!float64) return "#define " + NAME + " exp\n";
        return """
                // exp(x) = jb_exp_core(x, e) * 2^e, the core in [√½, √2]
                double jb_exp_core(double x, out int e) {
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
                  e = int(k);
                  return p;
                }
                double jb_exp_d(double x) {
                  int e;
                  double p = jb_exp_core(x, e);
                  return ldexp(p, e);
                }
                float jb_exp32(float x) {
                  if (isnan(x)) return x;
                  if (x > 89.0) return uintBitsToFloat(0x7F800000u);
                  if (x < -104.0) return 0.0;
                  double y = jb_exp_d(double(x));
                  if (y >= 1.1754943508222875e-38LF) return float(y);
                  // a denormal f32 result, rounded from its bits (ldexp is exact: y is a normal double)
                  return uintBitsToFloat(uint(roundEven(ldexp(y, 149))));
                }
                """;
    }
}
