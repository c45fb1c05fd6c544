package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;

/**
 * The element-wise ops that have Vector API kernels, and on which types. Binary kinds include
 * operand-swapped forms (RSUB, RDIV; mirrored comparisons) so that "scalar op tensor" runs
 * through the same tensor-op-scalar loop.
 */
final class VectorOps {
    private VectorOps() {}

    enum Binary {
        ADD, SUB, RSUB, MUL, DIV, RDIV, MIN, MAX, EQ, NE, LT, LE, GT, GE;

        /** The kind computing {@code y op x} from {@code (x, y)}; min and max are symmetric in Java semantics. */
        Binary swapped() {
            return switch (this) {
                case SUB -> RSUB;
                case RSUB -> SUB;
                case DIV -> RDIV;
                case RDIV -> DIV;
                case LT -> GT;
                case LE -> GE;
                case GT -> LT;
                case GE -> LE;
                case ADD, MUL, MIN, MAX, EQ, NE -> this;
            };
        }

        boolean isComparison() {
            return switch (this) {
                case EQ, NE, LT, LE, GT, GE -> true;
                case ADD, SUB, RSUB, MUL, DIV, RDIV, MIN, MAX -> false;
            };
        }

        /** The vector kind of {@code op} on compute type {@code t}, or null when only the oracle runs it. */
        static Binary of(BinaryOp op, DType t) {
            if (!hasVectorType(t)) return null;
            boolean fp = t.isFloat();
            return switch (op) {
                case ADD -> ADD;
                case SUBTRACT -> SUB;
                case MULTIPLY -> MUL;
                case DIVIDE -> fp ? DIV : null;
                case MIN -> MIN;
                case MAX -> MAX;
                case EQUAL -> EQ;
                case NOT_EQUAL -> NE;
                case LESS -> LT;
                case LESS_EQUAL -> LE;
                case GREATER -> GT;
                case GREATER_EQUAL -> GE;
                case QUOTIENT, REMAINDER, POW, ATAN2, LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR,
                     BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> null;
            };
        }
    }

    enum Unary {
        NEG, ABS, SQRT, RSQRT, EXP, EXPM1, LOG, LOG1P, SIN, COS, TANH, SIGMOID;

        /** The vector kind of {@code op} on type {@code t} (the operand and result type), or null. */
        static Unary of(UnaryOp op, DType t) {
            if (!hasVectorType(t)) return null;
            boolean fp = t.isFloat();
            return switch (op) {
                case NEGATE -> NEG;
                case ABS -> ABS;
                case SQRT -> fp ? SQRT : null;
                case RSQRT -> fp ? RSQRT : null;
                case EXP -> fp ? EXP : null;
                case EXPM1 -> fp ? EXPM1 : null;
                case LOG -> fp ? LOG : null;
                case LOG1P -> fp ? LOG1P : null;
                case SIN -> fp ? SIN : null;
                case COS -> fp ? COS : null;
                case TANH -> fp ? TANH : null;
                case SIGMOID -> fp ? SIGMOID : null;
                case SIGN, CBRT, TAN, ASIN, ACOS, ATAN, SINH, COSH, ASINH, ACOSH, ATANH, ERF, ERFC, ERF_INV,
                     FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT,
                     COUNT_LEADING_ZEROS -> null;
            };
        }

        /** Relative work per element, for deciding when to split across threads. */
        long cost() {
            return switch (this) {
                case NEG, ABS -> 1;
                case SQRT, RSQRT -> 2;
                case EXP, EXPM1, LOG, LOG1P, SIN, COS, TANH, SIGMOID -> 8;
            };
        }
    }

    /** The four types with vector kernels. */
    static boolean hasVectorType(DType t) {
        return t == DType.F32 || t == DType.F64 || t == DType.S32 || t == DType.S64;
    }
}
