package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.op.BinaryOp;

/**
 * The integer binary ops written out in Java long arithmetic, independently of any engine:
 * operands are the longs a type reads (sign- or zero-extended; U64 as raw bits), the result
 * is wrapped to the type ({@link Elements#wrap}). See
 * {@link ElementwiseLawContract#integerOpsWrapLikeTwosComplement} for the rules.
 */
final class IntegerRules {
    private IntegerRules() {}

    /** {@code x op y} for two values of integer type {@code t}, as the result type reads it (PRED 0/1 for comparisons). */
    static long apply(BinaryOp op, DType t, long x, long y) {
        boolean unsigned = t.isUnsigned();
        int w = t.bits();
        long r = switch (op) {
            case ADD -> x + y;
            case SUBTRACT -> x - y;
            case MULTIPLY -> x * y;
            case QUOTIENT -> y == 0 ? 0 : unsigned ? Long.divideUnsigned(x, y) : x / y;
            case REMAINDER -> y == 0 ? 0 : unsigned ? Long.remainderUnsigned(x, y) : x % y;
            case POW -> pow(x, y, unsigned);
            case MIN -> compare(x, y, unsigned) <= 0 ? x : y;
            case MAX -> compare(x, y, unsigned) >= 0 ? x : y;
            case EQUAL -> x == y ? 1 : 0;
            case NOT_EQUAL -> x != y ? 1 : 0;
            case LESS -> compare(x, y, unsigned) < 0 ? 1 : 0;
            case LESS_EQUAL -> compare(x, y, unsigned) <= 0 ? 1 : 0;
            case GREATER -> compare(x, y, unsigned) > 0 ? 1 : 0;
            case GREATER_EQUAL -> compare(x, y, unsigned) >= 0 ? 1 : 0;
            case BITWISE_AND -> x & y;
            case BITWISE_OR -> x | y;
            case BITWISE_XOR -> x ^ y;
            case LEFT_SHIFT -> countOutOfRange(y, w, unsigned) ? 0 : x << y;
            case RIGHT_SHIFT -> countOutOfRange(y, w, unsigned) ? (!unsigned && x < 0 ? -1 : 0) : unsigned ? x >>> y : x >> y;
            case DIVIDE, ATAN2, LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR ->
                    throw new IllegalArgumentException(op + " is not an integer-to-integer op");
        };
        return Elements.wrap(op.resultType(t), r);
    }

    private static int compare(long x, long y, boolean unsigned) {
        return unsigned ? Long.compareUnsigned(x, y) : Long.compare(x, y);
    }

    /** A shift count below 0 or at least the width (U64 counts are unsigned, so never negative). */
    private static boolean countOutOfRange(long count, int width, boolean unsigned) {
        return unsigned ? Long.compareUnsigned(count, width) >= 0 : count < 0 || count >= width;
    }

    /** {@code x^y} exactly, modulo 2^64 (the caller wraps to the width); a negative exponent gives 0 except for bases 1 and -1. */
    private static long pow(long x, long y, boolean unsigned) {
        if (!unsigned && y < 0) {
            if (x == 1) return 1;
            if (x == -1) return (y & 1) == 0 ? 1 : -1;
            return 0;
        }
        long result = 1;
        long base = x;
        for (long e = y; e != 0; e >>>= 1) {
            if ((e & 1) != 0) result *= base;
            base *= base;
        }
        return result;
    }
}
