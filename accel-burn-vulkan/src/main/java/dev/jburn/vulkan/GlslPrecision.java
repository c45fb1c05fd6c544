package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.KernelExpr;
import dev.jburn.op.UnaryOp;

/**
 * Which float functions the Vulkan engine trusts to the conformance kit's tolerances. The Vulkan
 * spec lets GLSL's transcendental built-ins be far from correctly rounded ({@code exp}: 3+2|x| ulp,
 * {@code log}: absolute 2^-21 near 1, {@code sin}/{@code cos}: absolute 2^-11, {@code atan}: 4096
 * ulp), drivers flush denormals, and lavapipe measurably misses the kit's 16-ulp bound (atan 56 ulp,
 * exp 52 ulp near overflow, log of denormals). So those ops run on the cpu engine instead,
 * counted as fallbacks, except f32 {@code exp}, which the emitter computes in double precision;
 * arithmetic, comparisons, min/max, abs, floor/ceil/round, sqrt/rsqrt (2-2.5
 * ulp in the spec) and every integer op stay on the device; so do f32 {@code sin}, {@code cos} and
 * {@code tan}, computed by {@code GlslTrig} with an exact argument reduction (they need f64 and int64),
 * its {@code asin}, {@code acos}, {@code atan}, and {@code GlslMath}'s {@code asinh}, {@code acosh},
 * {@code atanh}, {@code cbrt} and the prelude's {@code erfInv} (f64); of f64 itself {@code exp, expm1, log,
 * log1p, sinh, cosh, tanh} and sigmoid ({@code GlslMath64}), the other f64 transcendentals run on the cpu.
 * Binary {@code pow} is {@code GlslPow}'s (in double; the emitter itself refuses it without f64).
 */
final class GlslPrecision {
    private GlslPrecision() {}

    /**
     * Whether {@code op} on float type {@code t} is accurate enough in GLSL on a device with or
     * without {@code shaderFloat64} and {@code shaderInt64}. Integer types are always exact. {@code exp, expm1, log, log1p,
     * sinh, cosh, tanh, erf, erfc} of f32 (and of f16/bf16, computed in f32) are the shared emitter's
     * double-precision versions, and sigmoid is built on that exp, so they need f64.
     */
    static boolean trusted(UnaryOp op, DType t, boolean float64, boolean int64) {
        if (!t.isFloat()) return true;
        return switch (op) {
            case ABS, NEGATE, SIGN, SQRT, RSQRT, FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT,
                 BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> true;
            // the shared emitter's double-precision versions (GlslExp, GlslMath); sigmoid is built on that exp
            // ... and for f64 GlslMath64's (exp, expm1, log, log1p, sinh, cosh, tanh; sigmoid on that exp)
            case EXP, EXPM1, LOG, LOG1P, SINH, COSH, TANH, SIGMOID -> float64;
            case ERF, ERFC -> float64 && t != DType.F64;
            // GlslTrig: exact argument reduction with 64-bit integers, then double precision
            case SIN, COS, TAN -> float64 && int64 && t != DType.F64;
            // GlslMath / the prelude, in double: logs of cancellation-free arguments, Newton cube roots, Nx's erfInv polynomial
            case ASIN, ACOS, ATAN, CBRT, ASINH, ACOSH, ATANH, ERF_INV -> float64 && t != DType.F64;
        };
    }

    /** Whether every node of {@code k} is trusted. */
    static boolean trusted(ElementwiseKernel k, boolean float64, boolean int64) {
        for (KernelExpr e : k.nodes()) {
            if (e instanceof KernelExpr.Unary u && !trusted(u.op(), k.nodes().get(u.x()).type(), float64, int64)) return false;
        }
        return true;
    }
}
