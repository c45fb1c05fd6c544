package dev.jburn.kernels;

/**
 * Helper functions every element-wise kernel may call, written once in the subset of C that CUDA
 * C++ and GLSL share (types and macros come from {@link Dialect#header}). They carry JBurn's exact
 * semantics where hardware differs: NaN-propagating min/max that order -0 below +0, rounding half
 * away from zero, round-to-nearest-even F16/BF16 conversion, Nx float-to-integer conversion, and
 * integer division, remainder and power that never fault.
 */
final class Prelude {
    private Prelude() {}

    /** The whole prelude for {@code d} on a device with {@code f}. */
    static String of(Dialect d, DeviceFeatures f) {
        StringBuilder s = new StringBuilder(d.header(f));
        s.append(HALF);
        s.append(floatHelpers(d, false, f));
        if (f.float64()) {
            s.append(floatHelpers(d, true, f));
            s.append(F64_TO_F32_ODD.replace("$fabs", d.math("fabs", true)));
            if (d.log64() != null) s.append(ERFINV_NX.replace("$log", d.log64()));
        }
        s.append(INT_TEMPLATE.replace("$I", "i32").replace("$U", "u32"));
        if (f.int64()) {
            s.append(INT_TEMPLATE.replace("$I", "i64").replace("$U", "u64"));
            s.append(INT64_TO_F32);
        }
        return s.toString();
    }

    private static String floatHelpers(Dialect d, boolean f64, DeviceFeatures f) {
        String t = f64 ? "f64" : "f32";
        String signbit = f64 ? "(D_HI(x) >> 31) != 0u" : "(F2U(x) >> 31) != 0u";
        String s = FLOAT_TEMPLATE.replace("$signbit", signbit)
                .replace("$fabs", d.math("fabs", f64)).replace("$floor", d.math("floor", f64)).replace("$ceil", d.math("ceil", f64));
        if (d.math("exp", f64) != null) s += SIGMOID.replace("$exp", d.math("exp", f64));
        if (f.int64()) s += TO_BITS64.replace("$fabs", d.math("fabs", f64)).replace("$floor", d.math("floor", f64)).replace("$ceil", d.math("ceil", f64));
        return s.replace("$T", t);
    }

    private static final String HALF = """
            FN u32 jb_f16_bits(f32 f) {
              u32 x = F2U(f);
              u32 sign = (x >> 16) & 0x8000u;
              u32 ax = x & 0x7FFFFFFFu;
              if (ax > 0x7F800000u) return sign | 0x7E00u | ((ax >> 13) & 0x3FFu);
              if (ax >= 0x477FF000u) return sign | 0x7C00u;
              if (ax >= 0x38800000u) return sign | ((ax + 0xC8000FFFu + ((ax >> 13) & 1u)) >> 13);
              if (ax <= 0x33000000u) return sign;
              u32 e = ax >> 23;
              u32 m = (ax & 0x7FFFFFu) | 0x800000u;
              u32 shift = 126u - e;
              u32 q = m >> shift;
              u32 rem = m & ((1u << shift) - 1u);
              u32 halfway = 1u << (shift - 1u);
              if (rem > halfway || (rem == halfway && (q & 1u) != 0u)) q += 1u;
              return sign | q;
            }
            FN f32 jb_f16_value(u32 h) {
              u32 sign = (h & 0x8000u) << 16;
              u32 e = (h >> 10) & 0x1Fu;
              u32 m = h & 0x3FFu;
              if (e == 0u) { f32 v = f32(m) * 5.9604644775390625e-8f; return sign != 0u ? -v : v; }
              if (e == 31u) return U2F(sign | 0x7F800000u | (m << 13));
              return U2F(sign | ((e + 112u) << 23) | (m << 13));
            }
            FN u32 jb_bf16_bits(f32 f) {
              u32 x = F2U(f);
              if (isnan(f)) return (x >> 16) | 0x40u;
              return (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
            }
            FN f32 jb_bf16_value(u32 b) { return U2F(b << 16); }
            FN f32 jb_u32_to_f32_odd(u32 a) {
              if (a < 0x1000000u) return f32(a);
              i32 shift = MSB32(a) - 23;
              u32 kept = (a >> u32(shift)) | (((a & ((1u << u32(shift)) - 1u)) != 0u) ? 1u : 0u);
              return f32(kept) * U2F(u32(127 + shift) << 23);
            }
            FN f32 jb_i32_to_f32_odd(i32 v) {
              f32 m = jb_u32_to_f32_odd(v < 0 ? 0u - u32(v) : u32(v));
              return v < 0 ? -m : m;
            }
            """;

    private static final String FLOAT_TEMPLATE = """
            FN bool jb_signbit($T x) { return $signbit; }
            FN $T jb_min($T a, $T b) {
              if (isnan(a) || isnan(b)) return a + b;
              if (a < b) return a;
              if (b < a) return b;
              return jb_signbit(a) ? a : b;
            }
            FN $T jb_max($T a, $T b) {
              if (isnan(a) || isnan(b)) return a + b;
              if (a > b) return a;
              if (b > a) return b;
              return jb_signbit(a) ? b : a;
            }
            FN $T jb_sign($T x) { return x > $T(0) ? $T(1) : (x < $T(0) ? $T(-1) : x); }
            FN $T jb_round($T x) {
              $T ax = $fabs(x);
              $T t = $floor(ax);
              if (ax - t >= $T(0.5)) t += $T(1);
              return jb_signbit(x) ? -t : t;
            }
            FN u32 jb_to_bits32($T v) {
              $T tr = v < $T(0) ? $ceil(v) : $floor(v); // not trunc(): lavapipe's f64 trunc rounds -2147483648.0000005 down
              if ($fabs(tr) < $T(2147483648.0)) return u32(i32(tr));
              return u32(tr - $floor(tr * $T(2.3283064365386963e-10)) * $T(4294967296.0));
            }
            """;

    private static final String TO_BITS64 = """
            FN u64 jb_to_bits64($T v) {
              $T tr = v < $T(0) ? $ceil(v) : $floor(v); // as in jb_to_bits32
              if ($fabs(tr) < $T(9223372036854775808.0)) return u64(i64(tr));
              return u64(tr - $floor(tr * $T(5.421010862427522e-20)) * $T(18446744073709551616.0));
            }
            """;

    private static final String SIGMOID = """
            FN $T jb_sigmoid($T x) {
              if (x >= $T(0)) return $T(1) / ($T(1) + $exp(-x));
              $T e = $exp(x);
              return e / ($T(1) + e);
            }
            """;

    private static final String F64_TO_F32_ODD = """
            FN f32 jb_f64_to_f32_odd(f64 d) {
              f32 f = f32(d);
              if (isnan(d) || isinf(f) || f64(f) == d) return f;
              u32 b = F2U(f);
              if ($fabs(f64(f)) > $fabs(d)) b -= 1u;
              return U2F(b | 1u);
            }
            """;

    // Nx's binary-backend erf_inv: Giles' single-precision polynomial evaluated in double.
    private static final String ERFINV_NX = """
            FN f64 jb_erfinv_nx(f64 y) {
              if (!(y >= -1.0 && y <= 1.0)) return f64(U2F(0x7FC00000u));
              if (y == 1.0 || y == -1.0) return f64(U2F(y > 0.0 ? 0x7F800000u : 0xFF800000u)); // a constant: NVIDIA's Vulkan compiler mangled y * inf
              if (y == 0.0) return y;
              f64 w = -$log((1.0 - y) * (1.0 + y));
              f64 p;
              if (w < 5.0) {
                f64 t = w - 2.5;
                p = 2.81022636e-08;
                p = p * t + 3.43273939e-07; p = p * t + -3.5233877e-06; p = p * t + -4.39150654e-06;
                p = p * t + 0.00021858087; p = p * t + -0.00125372503; p = p * t + -0.00417768164;
                p = p * t + 0.246640727; p = p * t + 1.50140941;
              } else {
                f64 t = sqrt(w) - 3.0;
                p = -0.000200214257;
                p = p * t + 0.000100950558; p = p * t + 0.00134934322; p = p * t + -0.00367342844;
                p = p * t + 0.00573950773; p = p * t + -0.0076224613; p = p * t + 0.00943887047;
                p = p * t + 1.00167406; p = p * t + 2.83297682;
              }
              return p * y;
            }
            """;

    private static final String INT_TEMPLATE = """
            FN $I jb_quot($I a, $I b) {
              if (b == $I(0)) return $I(0);
              if (b == $I(-1)) return $I($U(0) - $U(a));
              return a / b;
            }
            FN $U jb_quot($U a, $U b) { return b == $U(0) ? $U(0) : a / b; }
            FN $I jb_rem($I a, $I b) {
              if (b == $I(0) || b == $I(-1)) return $I(0);
              $U ua = a < $I(0) ? $U(0) - $U(a) : $U(a);
              $U ub = b < $I(0) ? $U(0) - $U(b) : $U(b);
              $U r = ua % ub;
              return a < $I(0) ? $I($U(0) - r) : $I(r);
            }
            FN $U jb_rem($U a, $U b) { return b == $U(0) ? $U(0) : a % b; }
            FN $U jb_upow($U b, $U e) {
              $U r = $U(1);
              while (e != $U(0)) {
                if ((e & $U(1)) != $U(0)) r *= b;
                e >>= 1;
                if (e != $U(0)) b *= b;
              }
              return r;
            }
            FN $U jb_pow($U b, $U e) { return jb_upow(b, e); }
            FN $I jb_pow($I b, $I e) {
              if (e < $I(0)) {
                if (b == $I(1)) return $I(1);
                if (b == $I(-1)) return (e & $I(1)) == $I(0) ? $I(1) : $I(-1);
                return $I(0);
              }
              return $I(jb_upow($U(b), $U(e)));
            }
            """;

    private static final String INT64_TO_F32 = """
            FN f32 jb_u64_to_f32(u64 a, bool odd) {
              u32 hi = u32(a >> 32);
              i32 msb = hi != 0u ? 32 + MSB32(hi) : MSB32(u32(a));
              i32 keep = odd ? 24 : 26;
              if (msb < keep) return f32(u32(a));
              i32 shift = msb - (keep - 1);
              u64 kept = (a >> u32(shift)) | (((a & ((u64(1) << u32(shift)) - u64(1))) != u64(0)) ? u64(1) : u64(0));
              return f32(u32(kept)) * U2F(u32(127 + shift) << 23);
            }
            FN f32 jb_i64_to_f32(i64 v, bool odd) {
              f32 m = jb_u64_to_f32(v < i64(0) ? u64(0) - u64(v) : u64(v), odd);
              return v < i64(0) ? -m : m;
            }
            """;
}
