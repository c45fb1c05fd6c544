package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.ScalarMath;

import java.util.function.DoubleUnaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * The scalar meaning of every {@link UnaryOp}: one function on doubles (float types, computed
 * in double and rounded once on write) and one on longs (integer raw bits, wrapped on write).
 * Predicates return 1 or 0. Transcendentals use {@link StrictMath} so the oracle is the same
 * on every platform.
 */
final class UnaryFunctions {
    private UnaryFunctions() {}

    /** {@code op} for elements of float type {@code t} (the compute type). */
    static DoubleUnaryOperator onDoubles(UnaryOp op, DType t) {
        return switch (op) {
            case ABS -> Math::abs;
            case NEGATE -> v -> -v;
            case SIGN -> Math::signum; // NaN stays NaN, ±0 keep their sign
            case EXP -> StrictMath::exp;
            case EXPM1 -> StrictMath::expm1;
            case LOG -> StrictMath::log;
            case LOG1P -> StrictMath::log1p;
            case SQRT -> Math::sqrt;
            case RSQRT -> v -> 1 / Math.sqrt(v);
            case CBRT -> StrictMath::cbrt;
            case SIN -> StrictMath::sin;
            case COS -> StrictMath::cos;
            case TAN -> StrictMath::tan;
            case ASIN -> StrictMath::asin;
            case ACOS -> StrictMath::acos;
            case ATAN -> StrictMath::atan;
            case SINH -> StrictMath::sinh;
            case COSH -> StrictMath::cosh;
            case TANH -> StrictMath::tanh;
            case ASINH -> ScalarMath::asinh;
            case ACOSH -> ScalarMath::acosh;
            case ATANH -> ScalarMath::atanh;
            case SIGMOID -> ScalarMath::sigmoid;
            case ERF -> ScalarMath::erf;
            case ERFC -> ScalarMath::erfc;
            // Narrow types use Nx's binary-backend algorithm, so erfInv (and samplers built on it) reproduce
            // Nx's f32 vectors; F64 gets the accurate inverse.
            case ERF_INV -> t == DType.F64 ? ScalarMath::erfInv : ScalarMath::erfInvNx;
            case FLOOR -> Math::floor;
            case CEIL -> Math::ceil;
            case ROUND -> ScalarMath::roundHalfAwayFromZero;
            case IS_NAN -> v -> Double.isNaN(v) ? 1 : 0;
            case IS_INFINITY -> v -> Double.isInfinite(v) ? 1 : 0;
            case LOGICAL_NOT -> v -> v == 0 ? 1 : 0; // NaN is non-zero, so not(NaN) is false
            case BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> throw notDefined(op, t);
        };
    }

    /** {@code op} for elements of integer or PRED type {@code t}, as raw bits (U64 above 2^63 negative). */
    static LongUnaryOperator onLongs(UnaryOp op, DType t) {
        int bits = t.bits();
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        return switch (op) {
            case ABS -> t.isSigned() ? (v -> v < 0 ? -v : v) : (v -> v); // -MIN wraps back to MIN on write
            case NEGATE -> v -> -v;
            case SIGN -> t.isSigned() ? Long::signum : (v -> v != 0 ? 1 : 0);
            case FLOOR, CEIL, ROUND -> v -> v;
            case IS_NAN, IS_INFINITY -> v -> 0;
            case LOGICAL_NOT -> v -> v == 0 ? 1 : 0;
            case BITWISE_NOT -> t.isPred() ? (v -> v ^ 1) : (v -> ~v);
            case POPULATION_COUNT -> v -> Long.bitCount(v & mask);
            case COUNT_LEADING_ZEROS -> v -> Long.numberOfLeadingZeros(v & mask) - (64 - bits);
            case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                 ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> throw notDefined(op, t);
        };
    }

    private static JBurnException notDefined(UnaryOp op, DType t) {
        return new JBurnException(op.opName(), "the cpu kernel has no " + op.opName() + " on " + t.shortName()
                + " elements; the front end should have converted the operand");
    }

    /** Relative work per element, for deciding when to split across threads. */
    static long cost(UnaryOp op) {
        return switch (op) {
            case ABS, NEGATE, SIGN, FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT,
                 POPULATION_COUNT, COUNT_LEADING_ZEROS, SQRT, RSQRT -> 2;
            case EXP, EXPM1, LOG, LOG1P, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH, SIGMOID -> 16;
            case ASINH, ACOSH, ATANH, ERF, ERFC, ERF_INV -> 32;
        };
    }
}
