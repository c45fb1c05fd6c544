package dev.jburn.conformance;

import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;

/**
 * Runs each element-wise op through its own named {@code Tensor} method ({@code x.abs()},
 * {@code a.add(b)}, {@code a.add(2L)}, {@code a.add(2.5)}), so the properties exercise the
 * public API users call rather than the generic {@code apply(op)}. One exhaustive
 * {@code switch} per overload: a new op does not compile until it has a case here.
 */
final class ElementwiseMethods {
    private ElementwiseMethods() {}

    /** {@code x.<op>()}, e.g. {@code x.erfInv()} for {@link UnaryOp#ERF_INV}. */
    static Tensor unary(UnaryOp op, Tensor x) {
        return switch (op) {
            case ABS -> x.abs();
            case NEGATE -> x.negate();
            case SIGN -> x.sign();
            case EXP -> x.exp();
            case EXPM1 -> x.expm1();
            case LOG -> x.log();
            case LOG1P -> x.log1p();
            case SQRT -> x.sqrt();
            case RSQRT -> x.rsqrt();
            case CBRT -> x.cbrt();
            case SIN -> x.sin();
            case COS -> x.cos();
            case TAN -> x.tan();
            case ASIN -> x.asin();
            case ACOS -> x.acos();
            case ATAN -> x.atan();
            case SINH -> x.sinh();
            case COSH -> x.cosh();
            case TANH -> x.tanh();
            case ASINH -> x.asinh();
            case ACOSH -> x.acosh();
            case ATANH -> x.atanh();
            case SIGMOID -> x.sigmoid();
            case ERF -> x.erf();
            case ERFC -> x.erfc();
            case ERF_INV -> x.erfInv();
            case FLOOR -> x.floor();
            case CEIL -> x.ceil();
            case ROUND -> x.round();
            case IS_NAN -> x.isNan();
            case IS_INFINITY -> x.isInfinity();
            case LOGICAL_NOT -> x.logicalNot();
            case BITWISE_NOT -> x.bitwiseNot();
            case POPULATION_COUNT -> x.populationCount();
            case COUNT_LEADING_ZEROS -> x.countLeadingZeros();
        };
    }

    /** {@code a.<op>(b)}, e.g. {@code a.leftShift(b)} for {@link BinaryOp#LEFT_SHIFT}. */
    static Tensor binary(BinaryOp op, Tensor a, Tensor b) {
        return switch (op) {
            case ADD -> a.add(b);
            case SUBTRACT -> a.subtract(b);
            case MULTIPLY -> a.multiply(b);
            case DIVIDE -> a.divide(b);
            case QUOTIENT -> a.quotient(b);
            case REMAINDER -> a.remainder(b);
            case POW -> a.pow(b);
            case ATAN2 -> a.atan2(b);
            case MIN -> a.minimum(b);
            case MAX -> a.maximum(b);
            case EQUAL -> a.equal(b);
            case NOT_EQUAL -> a.notEqual(b);
            case LESS -> a.less(b);
            case LESS_EQUAL -> a.lessEqual(b);
            case GREATER -> a.greater(b);
            case GREATER_EQUAL -> a.greaterEqual(b);
            case LOGICAL_AND -> a.logicalAnd(b);
            case LOGICAL_OR -> a.logicalOr(b);
            case LOGICAL_XOR -> a.logicalXor(b);
            case BITWISE_AND -> a.bitwiseAnd(b);
            case BITWISE_OR -> a.bitwiseOr(b);
            case BITWISE_XOR -> a.bitwiseXor(b);
            case LEFT_SHIFT -> a.leftShift(b);
            case RIGHT_SHIFT -> a.rightShift(b);
        };
    }

    /** {@code a.<op>(s)} with a weakly typed Java integer. */
    static Tensor binary(BinaryOp op, Tensor a, long s) {
        return switch (op) {
            case ADD -> a.add(s);
            case SUBTRACT -> a.subtract(s);
            case MULTIPLY -> a.multiply(s);
            case DIVIDE -> a.divide(s);
            case QUOTIENT -> a.quotient(s);
            case REMAINDER -> a.remainder(s);
            case POW -> a.pow(s);
            case ATAN2 -> a.atan2(s);
            case MIN -> a.minimum(s);
            case MAX -> a.maximum(s);
            case EQUAL -> a.equal(s);
            case NOT_EQUAL -> a.notEqual(s);
            case LESS -> a.less(s);
            case LESS_EQUAL -> a.lessEqual(s);
            case GREATER -> a.greater(s);
            case GREATER_EQUAL -> a.greaterEqual(s);
            case LOGICAL_AND -> a.logicalAnd(s);
            case LOGICAL_OR -> a.logicalOr(s);
            case LOGICAL_XOR -> a.logicalXor(s);
            case BITWISE_AND -> a.bitwiseAnd(s);
            case BITWISE_OR -> a.bitwiseOr(s);
            case BITWISE_XOR -> a.bitwiseXor(s);
            case LEFT_SHIFT -> a.leftShift(s);
            case RIGHT_SHIFT -> a.rightShift(s);
        };
    }

    /** {@code a.<op>(s)} with a weakly typed Java double. */
    static Tensor binary(BinaryOp op, Tensor a, double s) {
        return switch (op) {
            case ADD -> a.add(s);
            case SUBTRACT -> a.subtract(s);
            case MULTIPLY -> a.multiply(s);
            case DIVIDE -> a.divide(s);
            case QUOTIENT -> a.quotient(s);
            case REMAINDER -> a.remainder(s);
            case POW -> a.pow(s);
            case ATAN2 -> a.atan2(s);
            case MIN -> a.minimum(s);
            case MAX -> a.maximum(s);
            case EQUAL -> a.equal(s);
            case NOT_EQUAL -> a.notEqual(s);
            case LESS -> a.less(s);
            case LESS_EQUAL -> a.lessEqual(s);
            case GREATER -> a.greater(s);
            case GREATER_EQUAL -> a.greaterEqual(s);
            case LOGICAL_AND -> a.logicalAnd(s);
            case LOGICAL_OR -> a.logicalOr(s);
            case LOGICAL_XOR -> a.logicalXor(s);
            case BITWISE_AND -> a.bitwiseAnd(s);
            case BITWISE_OR -> a.bitwiseOr(s);
            case BITWISE_XOR -> a.bitwiseXor(s);
            case LEFT_SHIFT -> a.leftShift(s);
            case RIGHT_SHIFT -> a.rightShift(s);
        };
    }
}
