package dev.jburn.op;

import dev.jburn.DType;
import dev.jburn.JBurnException;

/**
 * Element-wise ops of two broadcast operands. Both operands are first promoted to
 * {@link #computeType} (see {@link DType#merge}); comparisons and logical ops give
 * {@link DType#PRED}.
 */
public enum BinaryOp implements Op {
    ADD, SUBTRACT, MULTIPLY, DIVIDE, QUOTIENT, REMAINDER, POW, ATAN2, MIN, MAX,
    EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL,
    LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR,
    BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    public boolean isComparison() {
        return switch (this) {
            case EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL -> true;
            default -> false;
        };
    }

    public boolean isLogical() {
        return this == LOGICAL_AND || this == LOGICAL_OR || this == LOGICAL_XOR;
    }

    public boolean isBitwise() {
        return switch (this) {
            case BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> true;
            default -> false;
        };
    }

    /** The type both operands are converted to before the kernel runs, given the merged input type. */
    public DType computeType(DType merged) {
        return switch (this) {
            case DIVIDE, ATAN2 -> merged.toFloating();
            case QUOTIENT -> {
                if (!merged.isInteger()) throw new JBurnException(opName(), "quotient expects integer tensors as inputs and outputs an integer tensor, got: " + merged.shortName());
                yield merged;
            }
            case BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> {
                if (merged.isPred() && !(this == LEFT_SHIFT || this == RIGHT_SHIFT)) yield merged;
                if (!merged.isInteger()) throw new JBurnException(opName(), "bitwise operators expect integer tensors as inputs and outputs an integer tensor, got: " + merged.shortName());
                yield merged;
            }
            case ADD, SUBTRACT, MULTIPLY, REMAINDER, POW, MIN, MAX -> merged.isPred() && this != MIN && this != MAX ? DType.U8 : merged;
            default -> merged;
        };
    }

    /** The result type given the compute type. */
    public DType resultType(DType compute) {
        return isComparison() || isLogical() ? DType.PRED : compute;
    }
}
