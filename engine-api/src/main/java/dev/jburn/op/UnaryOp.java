package dev.jburn.op;

import dev.jburn.DType;
import dev.jburn.JBurnException;

/**
 * Element-wise ops of one operand. Result types follow Nx: float math on integer input gives
 * F32; predicates give {@link DType#PRED}; bit ops need integers.
 */
public enum UnaryOp implements Op {
    ABS, NEGATE, SIGN,
    EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT,
    SIN, COS, TAN, ASIN, ACOS, ATAN,
    SINH, COSH, TANH, ASINH, ACOSH, ATANH,
    SIGMOID, ERF, ERFC, ERF_INV,
    FLOOR, CEIL, ROUND,
    IS_NAN, IS_INFINITY,
    LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    /** What the op computes on: ints become F32 for float math. */
    public boolean floatMath() {
        return switch (this) {
            case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                 ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> true;
            default -> false;
        };
    }

    /** The result type for an operand of type {@code in}, or a {@link JBurnException} naming the op. */
    public DType resultType(DType in) {
        return switch (this) {
            case IS_NAN, IS_INFINITY, LOGICAL_NOT -> DType.PRED;
            case BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> {
                if (!in.isInteger() && !(this == BITWISE_NOT && in.isPred())) {
                    throw new JBurnException(opName(), "bitwise operators expect integer tensors as inputs and outputs an integer tensor, got: " + in.shortName());
                }
                yield in;
            }
            case ABS, NEGATE, SIGN, FLOOR, CEIL, ROUND -> in.isPred() ? DType.U8 : in;
            default -> in.toFloating();
        };
    }
}
