package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.op.BinaryOp;

import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * The scalar meaning of every {@link BinaryOp} on one compute type: on doubles for float types
 * (rounded once on write, which for + - * / equals the IEEE operation in the narrow type) and on
 * longs for integers and PRED (raw bits, wrapped to the width on write; U64 compared and divided
 * unsigned). Comparisons and logical ops return 1 or 0.
 *
 * <p>Integer faults never throw: quotient and remainder by zero give 0; a negative exponent gives
 * 0 unless the base is 1 or -1; shifts by a negative count or one of at least the bit width give
 * 0 (or -1 for a right shift of a negative signed value).
 */
final class BinaryFunctions {
    private BinaryFunctions() {}

    /** {@code op} for elements of float compute type {@code t}. */
    static DoubleBinaryOperator onDoubles(BinaryOp op, DType t) {
        return switch (op) {
            case ADD -> Double::sum;
            case SUBTRACT -> (a, b) -> a - b;
            case MULTIPLY -> (a, b) -> a * b;
            case DIVIDE -> (a, b) -> a / b;
            case REMAINDER -> (a, b) -> a % b; // Java's % on doubles is C fmod: the sign of the dividend
            case POW -> dev.jburn.spi.ScalarMath::pow;
            case ATAN2 -> StrictMath::atan2;
            case MIN -> Math::min; // NaN propagates, -0.0 < 0.0
            case MAX -> Math::max;
            case EQUAL -> (a, b) -> a == b ? 1 : 0;
            case NOT_EQUAL -> (a, b) -> a != b ? 1 : 0;
            case LESS -> (a, b) -> a < b ? 1 : 0;
            case LESS_EQUAL -> (a, b) -> a <= b ? 1 : 0;
            case GREATER -> (a, b) -> a > b ? 1 : 0;
            case GREATER_EQUAL -> (a, b) -> a >= b ? 1 : 0;
            // NaN != 0 is true in Java, so NaN counts as true, as in Nx.
            case LOGICAL_AND -> (a, b) -> a != 0 && b != 0 ? 1 : 0;
            case LOGICAL_OR -> (a, b) -> a != 0 || b != 0 ? 1 : 0;
            case LOGICAL_XOR -> (a, b) -> (a != 0) != (b != 0) ? 1 : 0;
            case QUOTIENT, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> throw notDefined(op, t);
        };
    }

    /** {@code op} for elements of integer or PRED compute type {@code t}. */
    static LongBinaryOperator onLongs(BinaryOp op, DType t) {
        boolean u64 = t == DType.U64;
        boolean signed = t.isSigned();
        int bits = t.bits();
        return switch (op) {
            case ADD -> Long::sum;
            case SUBTRACT -> (a, b) -> a - b;
            case MULTIPLY -> (a, b) -> a * b;
            case QUOTIENT -> u64 ? (a, b) -> b == 0 ? 0 : Long.divideUnsigned(a, b) : (a, b) -> b == 0 ? 0 : a / b;
            case REMAINDER -> u64 ? (a, b) -> b == 0 ? 0 : Long.remainderUnsigned(a, b) : (a, b) -> b == 0 ? 0 : a % b;
            case POW -> (a, b) -> integerPow(a, b, signed);
            case MIN -> u64 ? (a, b) -> Long.compareUnsigned(a, b) <= 0 ? a : b : Math::min;
            case MAX -> u64 ? (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b : Math::max;
            case EQUAL -> (a, b) -> a == b ? 1 : 0;
            case NOT_EQUAL -> (a, b) -> a != b ? 1 : 0;
            case LESS -> u64 ? (a, b) -> Long.compareUnsigned(a, b) < 0 ? 1 : 0 : (a, b) -> a < b ? 1 : 0;
            case LESS_EQUAL -> u64 ? (a, b) -> Long.compareUnsigned(a, b) <= 0 ? 1 : 0 : (a, b) -> a <= b ? 1 : 0;
            case GREATER -> u64 ? (a, b) -> Long.compareUnsigned(a, b) > 0 ? 1 : 0 : (a, b) -> a > b ? 1 : 0;
            case GREATER_EQUAL -> u64 ? (a, b) -> Long.compareUnsigned(a, b) >= 0 ? 1 : 0 : (a, b) -> a >= b ? 1 : 0;
            case LOGICAL_AND -> (a, b) -> a != 0 && b != 0 ? 1 : 0;
            case LOGICAL_OR -> (a, b) -> a != 0 || b != 0 ? 1 : 0;
            case LOGICAL_XOR -> (a, b) -> (a != 0) != (b != 0) ? 1 : 0;
            case BITWISE_AND -> (a, b) -> a & b;
            case BITWISE_OR -> (a, b) -> a | b;
            case BITWISE_XOR -> (a, b) -> a ^ b;
            case LEFT_SHIFT -> (a, b) -> shiftOutOfRange(b, bits) ? 0 : a << b;
            case RIGHT_SHIFT -> signed
                    ? (a, b) -> shiftOutOfRange(b, bits) ? (a < 0 ? -1 : 0) : a >> b
                    : (a, b) -> shiftOutOfRange(b, bits) ? 0 : a >>> b;
            case DIVIDE, ATAN2 -> throw notDefined(op, t);
        };
    }

    /**
     * A count that is negative (as a signed type) or at least the width shifts every bit out.
     * Signed counts arrive sign-extended, so negative ones compare as huge unsigned values.
     */
    static boolean shiftOutOfRange(long count, int bits) {
        return Long.compareUnsigned(count, bits) >= 0;
    }

    /**
     * {@code base^exponent} by repeated squaring; the low bits equal those of the exact power, so
     * wrapping on write gives Nx's "exact, then wrapped" result. Negative exponents: 0 except for
     * bases 1 and -1 (Nx raises; compiled engines leave it undefined).
     */
    static long integerPow(long base, long exponent, boolean signed) {
        if (signed && exponent < 0) {
            if (base == 1) return 1;
            if (base == -1) return (exponent & 1) == 0 ? 1 : -1;
            return 0;
        }
        long result = 1;
        long b = base;
        long e = exponent;
        while (e != 0) {
            if ((e & 1) != 0) result *= b;
            e >>>= 1;
            if (e != 0) b *= b;
        }
        return result;
    }

    private static JBurnException notDefined(BinaryOp op, DType t) {
        return new JBurnException(op.opName(), "the cpu kernel has no " + op.opName() + " on " + t.shortName()
                + " elements; the front end should have converted the operands");
    }

    /** Relative work per element, for deciding when to split across threads. */
    static long cost(BinaryOp op) {
        return switch (op) {
            case POW, ATAN2 -> 16;
            case DIVIDE, QUOTIENT, REMAINDER -> 4;
            case ADD, SUBTRACT, MULTIPLY, MIN, MAX, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL,
                 LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> 2;
        };
    }
}
