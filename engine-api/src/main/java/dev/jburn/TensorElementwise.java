package dev.jburn;

/**
 * Element-wise ops on a {@link Tensor}: unary math, binary arithmetic with NumPy broadcasting and Nx type promotion (Java numbers are weakly typed), comparisons, logical and bitwise ops, {@code select}, {@code clip} and {@code bitcast}.
 * Implemented only by {@link Tensor}; call these methods on a tensor.
 */
public sealed interface TensorElementwise permits Tensor {
    private Tensor self() { return (Tensor) this; }
    // Binary ops broadcast (NumPy rules) and promote both sides with DType.merge; a Java number
    // is weakly typed (DType.mergeScalar): u8.add(10) stays U8, u8.add(256) is U16, s32.add(1.5) is F32.

    /**
     * {@code op} applied to every element; the result type is {@link dev.jburn.op.UnaryOp#resultType}.
     *
     * <pre>{@code
     * Tensor.of(1, 4, 9).apply(UnaryOp.SQRT);   // f32[3] [1.0, 2.0, 3.0]
     * }</pre>
     */
    default Tensor apply(dev.jburn.op.UnaryOp op) {
        Args.nonNull("apply", "op", op);
        return ElementwiseOps.unary(op, self());
    }

    /**
     * {@code this op other} with broadcasting and promotion; the type is {@link dev.jburn.op.BinaryOp#computeType}
     * of the merged type, or PRED for comparisons and logical ops.
     */
    default Tensor apply(dev.jburn.op.BinaryOp op, Tensor other) {
        Args.nonNull("apply", "op", op);
        Args.nonNull("apply", "other", other);
        return ElementwiseOps.binary(op, self(), other);
    }

    /** {@code this op scalar}, the Java integer weakly typed ({@link DType#mergeScalar(DType, long)}). */
    default Tensor apply(dev.jburn.op.BinaryOp op, long scalar) {
        Args.nonNull("apply", "op", op);
        return ElementwiseOps.binary(op, self(), scalar);
    }

    /** {@code this op scalar}, the Java double weakly typed ({@link DType#mergeScalar(DType, double)}). */
    default Tensor apply(dev.jburn.op.BinaryOp op, double scalar) {
        Args.nonNull("apply", "op", op);
        return ElementwiseOps.binary(op, self(), scalar);
    }

    /** Absolute value. A signed minimum wraps to itself ({@code s8 -128 -> -128}); PRED gives U8. */
    default Tensor abs() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ABS, self()); }

    /** {@code -x}, wrapping for integers ({@code u8 1 -> 255}); PRED gives U8. */
    default Tensor negate() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.NEGATE, self()); }

    /** -1, 0 or 1 by the sign of each element; NaN stays NaN and ±0 keep their sign; PRED gives U8. */
    default Tensor sign() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SIGN, self()); }

    /** {@code e^x}. Integer and PRED input is computed in F32. */
    default Tensor exp() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.EXP, self()); }

    /** {@code e^x - 1}, accurate near 0. Integer and PRED input is computed in F32. */
    default Tensor expm1() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.EXPM1, self()); }

    /** Natural logarithm (NaN below 0, -Inf at 0). Integer and PRED input is computed in F32. */
    default Tensor log() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.LOG, self()); }

    /** {@code log(1 + x)}, accurate near 0. Integer and PRED input is computed in F32. */
    default Tensor log1p() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.LOG1P, self()); }

    /** Square root (NaN below 0). Integer and PRED input is computed in F32. */
    default Tensor sqrt() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SQRT, self()); }

    /** {@code 1 / sqrt(x)}. Integer and PRED input is computed in F32. */
    default Tensor rsqrt() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.RSQRT, self()); }

    /** Cube root. Integer and PRED input is computed in F32. */
    default Tensor cbrt() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.CBRT, self()); }

    /** Sine (radians). Integer and PRED input is computed in F32. */
    default Tensor sin() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SIN, self()); }

    /** Cosine (radians). Integer and PRED input is computed in F32. */
    default Tensor cos() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.COS, self()); }

    /** Tangent (radians). Integer and PRED input is computed in F32. */
    default Tensor tan() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.TAN, self()); }

    /** Arc sine. Integer and PRED input is computed in F32. */
    default Tensor asin() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ASIN, self()); }

    /** Arc cosine. Integer and PRED input is computed in F32. */
    default Tensor acos() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ACOS, self()); }

    /** Arc tangent. Integer and PRED input is computed in F32. */
    default Tensor atan() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ATAN, self()); }

    /** Hyperbolic sine. Integer and PRED input is computed in F32. */
    default Tensor sinh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SINH, self()); }

    /** Hyperbolic cosine. Integer and PRED input is computed in F32. */
    default Tensor cosh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.COSH, self()); }

    /** Hyperbolic tangent. Integer and PRED input is computed in F32. */
    default Tensor tanh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.TANH, self()); }

    /** Inverse hyperbolic sine. Integer and PRED input is computed in F32. */
    default Tensor asinh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ASINH, self()); }

    /** Inverse hyperbolic cosine (NaN below 1). Integer and PRED input is computed in F32. */
    default Tensor acosh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ACOSH, self()); }

    /** Inverse hyperbolic tangent (±Inf at ±1). Integer and PRED input is computed in F32. */
    default Tensor atanh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ATANH, self()); }

    /** The logistic function {@code 1 / (1 + e^-x)}. Integer and PRED input is computed in F32. */
    default Tensor sigmoid() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SIGMOID, self()); }

    /** The error function. Integer and PRED input is computed in F32. */
    default Tensor erf() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ERF, self()); }

    /** The complementary error function {@code 1 - erf(x)}, accurate for large x. Integer and PRED input is computed in F32. */
    default Tensor erfc() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ERFC, self()); }

    /** The inverse error function (±Inf at ±1, NaN outside [-1, 1]). F32, F16 and BF16 use Nx's binary-backend algorithm ({@link dev.jburn.spi.ScalarMath#erfInvNx}), so results match Nx; F64 is accurate to a few ulps. Integer and PRED input is computed in F32. */
    default Tensor erfInv() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ERF_INV, self()); }

    /** Rounds toward -Inf; integers are returned unchanged; PRED gives U8. */
    default Tensor floor() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.FLOOR, self()); }

    /** Rounds toward +Inf; integers are returned unchanged; PRED gives U8. */
    default Tensor ceil() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.CEIL, self()); }

    /** Rounds half away from zero ({@code 2.5 -> 3}, {@code -2.5 -> -3}), as Nx does; integers are unchanged; PRED gives U8. */
    default Tensor round() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ROUND, self()); }

    /** PRED: true where the element is NaN (all false for integer types). */
    default Tensor isNan() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.IS_NAN, self()); }

    /** PRED: true where the element is +Inf or -Inf (all false for integer types). */
    default Tensor isInfinity() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.IS_INFINITY, self()); }

    /** PRED: true where the element is zero (NaN counts as non-zero). */
    default Tensor logicalNot() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.LOGICAL_NOT, self()); }

    /** Two's-complement {@code ~x} for integer types; logical not for PRED. Float input throws. */
    default Tensor bitwiseNot() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.BITWISE_NOT, self()); }

    /** Number of set bits within the type's width ({@code s8 -1 -> 8}). Integer types only. */
    default Tensor populationCount() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.POPULATION_COUNT, self()); }

    /** Leading zero bits within the type's width ({@code u8 1 -> 7}). Integer types only. */
    default Tensor countLeadingZeros() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.COUNT_LEADING_ZEROS, self()); }

    /**
     * Element-wise sum; integers wrap ({@code u8 250 + 10 -> 4}); PRED + PRED gives U8.
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{1}, {2}}).add(Tensor.of(10, 20));   // s32[2,2] [[11, 21], [12, 22]]
     * }</pre>
     */
    default Tensor add(Tensor other) {
        Args.nonNull("add", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ADD, self(), other);
    }

    /** {@link #add(Tensor)} with a weakly typed Java integer. */
    default Tensor add(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ADD, self(), scalar); }

    /** {@link #add(Tensor)} with a weakly typed Java double. */
    default Tensor add(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ADD, self(), scalar); }

    /** Element-wise difference; integers wrap. */
    default Tensor subtract(Tensor other) {
        Args.nonNull("subtract", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.SUBTRACT, self(), other);
    }

    /** {@link #subtract(Tensor)} with a weakly typed Java integer. */
    default Tensor subtract(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.SUBTRACT, self(), scalar); }

    /** {@link #subtract(Tensor)} with a weakly typed Java double. */
    default Tensor subtract(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.SUBTRACT, self(), scalar); }

    /** Element-wise product; integers wrap. */
    default Tensor multiply(Tensor other) {
        Args.nonNull("multiply", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MULTIPLY, self(), other);
    }

    /** {@link #multiply(Tensor)} with a weakly typed Java integer. */
    default Tensor multiply(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MULTIPLY, self(), scalar); }

    /** {@link #multiply(Tensor)} with a weakly typed Java double. */
    default Tensor multiply(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MULTIPLY, self(), scalar); }

    /** Element-wise true division; integer operands give F32 ({@code s32 [1, 2] / 2 -> f32 [0.5, 1.0]}); IEEE results for division by zero. */
    default Tensor divide(Tensor other) {
        Args.nonNull("divide", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.DIVIDE, self(), other);
    }

    /** {@link #divide(Tensor)} with a weakly typed Java integer. */
    default Tensor divide(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.DIVIDE, self(), scalar); }

    /** {@link #divide(Tensor)} with a weakly typed Java double. */
    default Tensor divide(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.DIVIDE, self(), scalar); }

    /** Integer division truncating toward zero ({@code -7 / 2 -> -3}); integer types only. Division by zero gives 0 (Nx's binary backend raises). */
    default Tensor quotient(Tensor other) {
        Args.nonNull("quotient", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.QUOTIENT, self(), other);
    }

    /** {@link #quotient(Tensor)} with a weakly typed Java integer. */
    default Tensor quotient(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.QUOTIENT, self(), scalar); }

    /** {@link #quotient(Tensor)} with a weakly typed Java double. */
    default Tensor quotient(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.QUOTIENT, self(), scalar); }

    /** Remainder with the sign of the dividend (C {@code %}, {@code fmod} for floats): {@code remainder(-11, 10) -> -1}. Integer remainder by zero gives 0. */
    default Tensor remainder(Tensor other) {
        Args.nonNull("remainder", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.REMAINDER, self(), other);
    }

    /** {@link #remainder(Tensor)} with a weakly typed Java integer. */
    default Tensor remainder(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.REMAINDER, self(), scalar); }

    /** {@link #remainder(Tensor)} with a weakly typed Java double. */
    default Tensor remainder(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.REMAINDER, self(), scalar); }

    /** {@code x^y}. Integer powers are computed exactly and wrapped to the type; a negative integer exponent gives 0, except for bases 1 and -1 (Nx raises). */
    default Tensor pow(Tensor other) {
        Args.nonNull("pow", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.POW, self(), other);
    }

    /** {@link #pow(Tensor)} with a weakly typed Java integer. */
    default Tensor pow(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.POW, self(), scalar); }

    /** {@link #pow(Tensor)} with a weakly typed Java double. */
    default Tensor pow(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.POW, self(), scalar); }

    /** Arc tangent of {@code this / other} using both signs for the quadrant; integer operands give F32. */
    default Tensor atan2(Tensor other) {
        Args.nonNull("atan2", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ATAN2, self(), other);
    }

    /** {@link #atan2(Tensor)} with a weakly typed Java integer. */
    default Tensor atan2(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ATAN2, self(), scalar); }

    /** {@link #atan2(Tensor)} with a weakly typed Java double. */
    default Tensor atan2(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ATAN2, self(), scalar); }

    /** Element-wise minimum; NaN propagates; {@code -0.0 < 0.0}. */
    default Tensor minimum(Tensor other) {
        Args.nonNull("min", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MIN, self(), other);
    }

    /** {@link #minimum(Tensor)} with a weakly typed Java integer. */
    default Tensor minimum(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MIN, self(), scalar); }

    /** {@link #minimum(Tensor)} with a weakly typed Java double. */
    default Tensor minimum(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MIN, self(), scalar); }

    /** Element-wise maximum; NaN propagates; {@code -0.0 < 0.0}. */
    default Tensor maximum(Tensor other) {
        Args.nonNull("max", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MAX, self(), other);
    }

    /** {@link #maximum(Tensor)} with a weakly typed Java integer. */
    default Tensor maximum(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MAX, self(), scalar); }

    /** {@link #maximum(Tensor)} with a weakly typed Java double. */
    default Tensor maximum(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MAX, self(), scalar); }

    /** PRED: {@code this == other}; NaN equals nothing. */
    default Tensor equal(Tensor other) {
        Args.nonNull("equal", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.EQUAL, self(), other);
    }

    /** {@link #equal(Tensor)} with a weakly typed Java integer. */
    default Tensor equal(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.EQUAL, self(), scalar); }

    /** {@link #equal(Tensor)} with a weakly typed Java double. */
    default Tensor equal(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.EQUAL, self(), scalar); }

    /** PRED: {@code this != other}; true wherever either side is NaN. */
    default Tensor notEqual(Tensor other) {
        Args.nonNull("notEqual", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.NOT_EQUAL, self(), other);
    }

    /** {@link #notEqual(Tensor)} with a weakly typed Java integer. */
    default Tensor notEqual(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.NOT_EQUAL, self(), scalar); }

    /** {@link #notEqual(Tensor)} with a weakly typed Java double. */
    default Tensor notEqual(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.NOT_EQUAL, self(), scalar); }

    /** PRED: {@code this < other}; false where either side is NaN. */
    default Tensor less(Tensor other) {
        Args.nonNull("less", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS, self(), other);
    }

    /** {@link #less(Tensor)} with a weakly typed Java integer. */
    default Tensor less(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS, self(), scalar); }

    /** {@link #less(Tensor)} with a weakly typed Java double. */
    default Tensor less(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS, self(), scalar); }

    /** PRED: {@code this <= other}; false where either side is NaN. */
    default Tensor lessEqual(Tensor other) {
        Args.nonNull("lessEqual", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS_EQUAL, self(), other);
    }

    /** {@link #lessEqual(Tensor)} with a weakly typed Java integer. */
    default Tensor lessEqual(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS_EQUAL, self(), scalar); }

    /** {@link #lessEqual(Tensor)} with a weakly typed Java double. */
    default Tensor lessEqual(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS_EQUAL, self(), scalar); }

    /** PRED: {@code this > other}; false where either side is NaN. */
    default Tensor greater(Tensor other) {
        Args.nonNull("greater", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER, self(), other);
    }

    /** {@link #greater(Tensor)} with a weakly typed Java integer. */
    default Tensor greater(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER, self(), scalar); }

    /** {@link #greater(Tensor)} with a weakly typed Java double. */
    default Tensor greater(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER, self(), scalar); }

    /** PRED: {@code this >= other}; false where either side is NaN. */
    default Tensor greaterEqual(Tensor other) {
        Args.nonNull("greaterEqual", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER_EQUAL, self(), other);
    }

    /** {@link #greaterEqual(Tensor)} with a weakly typed Java integer. */
    default Tensor greaterEqual(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER_EQUAL, self(), scalar); }

    /** {@link #greaterEqual(Tensor)} with a weakly typed Java double. */
    default Tensor greaterEqual(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER_EQUAL, self(), scalar); }

    /** PRED: both non-zero (NaN counts as non-zero). */
    default Tensor logicalAnd(Tensor other) {
        Args.nonNull("logicalAnd", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_AND, self(), other);
    }

    /** {@link #logicalAnd(Tensor)} with a weakly typed Java integer. */
    default Tensor logicalAnd(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_AND, self(), scalar); }

    /** {@link #logicalAnd(Tensor)} with a weakly typed Java double. */
    default Tensor logicalAnd(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_AND, self(), scalar); }

    /** PRED: either non-zero (NaN counts as non-zero). */
    default Tensor logicalOr(Tensor other) {
        Args.nonNull("logicalOr", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_OR, self(), other);
    }

    /** {@link #logicalOr(Tensor)} with a weakly typed Java integer. */
    default Tensor logicalOr(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_OR, self(), scalar); }

    /** {@link #logicalOr(Tensor)} with a weakly typed Java double. */
    default Tensor logicalOr(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_OR, self(), scalar); }

    /** PRED: exactly one non-zero (NaN counts as non-zero). */
    default Tensor logicalXor(Tensor other) {
        Args.nonNull("logicalXor", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_XOR, self(), other);
    }

    /** {@link #logicalXor(Tensor)} with a weakly typed Java integer. */
    default Tensor logicalXor(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_XOR, self(), scalar); }

    /** {@link #logicalXor(Tensor)} with a weakly typed Java double. */
    default Tensor logicalXor(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_XOR, self(), scalar); }

    /** Two's-complement AND; integer types (or PRED) only. */
    default Tensor bitwiseAnd(Tensor other) {
        Args.nonNull("bitwiseAnd", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_AND, self(), other);
    }

    /** {@link #bitwiseAnd(Tensor)} with a weakly typed Java integer. */
    default Tensor bitwiseAnd(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_AND, self(), scalar); }

    /** {@link #bitwiseAnd(Tensor)} with a weakly typed Java double. */
    default Tensor bitwiseAnd(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_AND, self(), scalar); }

    /** Two's-complement OR; integer types (or PRED) only. */
    default Tensor bitwiseOr(Tensor other) {
        Args.nonNull("bitwiseOr", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_OR, self(), other);
    }

    /** {@link #bitwiseOr(Tensor)} with a weakly typed Java integer. */
    default Tensor bitwiseOr(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_OR, self(), scalar); }

    /** {@link #bitwiseOr(Tensor)} with a weakly typed Java double. */
    default Tensor bitwiseOr(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_OR, self(), scalar); }

    /** Two's-complement XOR; integer types (or PRED) only. */
    default Tensor bitwiseXor(Tensor other) {
        Args.nonNull("bitwiseXor", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_XOR, self(), other);
    }

    /** {@link #bitwiseXor(Tensor)} with a weakly typed Java integer. */
    default Tensor bitwiseXor(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_XOR, self(), scalar); }

    /** {@link #bitwiseXor(Tensor)} with a weakly typed Java double. */
    default Tensor bitwiseXor(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_XOR, self(), scalar); }

    /** {@code this << other}, wrapped to the type; a count that is negative or at least the bit width gives 0. Integer types only. */
    default Tensor leftShift(Tensor other) {
        Args.nonNull("leftShift", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LEFT_SHIFT, self(), other);
    }

    /** {@link #leftShift(Tensor)} with a weakly typed Java integer. */
    default Tensor leftShift(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LEFT_SHIFT, self(), scalar); }

    /** {@link #leftShift(Tensor)} with a weakly typed Java double. */
    default Tensor leftShift(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LEFT_SHIFT, self(), scalar); }

    /** {@code this >> other}: arithmetic for signed types, logical for unsigned; a count that is negative or at least the bit width gives 0, or -1 for negative signed values. Integer types only. */
    default Tensor rightShift(Tensor other) {
        Args.nonNull("rightShift", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.RIGHT_SHIFT, self(), other);
    }

    /** {@link #rightShift(Tensor)} with a weakly typed Java integer. */
    default Tensor rightShift(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.RIGHT_SHIFT, self(), scalar); }

    /** {@link #rightShift(Tensor)} with a weakly typed Java double. */
    default Tensor rightShift(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.RIGHT_SHIFT, self(), scalar); }

    /**
     * {@code this ? onTrue : onFalse} element-wise, called on the predicate: any non-zero element
     * (NaN included) is true. The branches are promoted to their merged type; all three broadcast.
     *
     * <pre>{@code
     * x.greater(0).select(x, x.multiply(0.01));   // leaky relu
     * }</pre>
     */
    default Tensor select(Tensor onTrue, Tensor onFalse) {
        Args.nonNull("select", "onTrue", onTrue);
        Args.nonNull("select", "onFalse", onFalse);
        return ElementwiseOps.select(self(), onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java integer for the false branch. */
    default Tensor select(Tensor onTrue, long onFalse) {
        Args.nonNull("select", "onTrue", onTrue);
        return ElementwiseOps.select(self(), onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java integer for the true branch. */
    default Tensor select(long onTrue, Tensor onFalse) {
        Args.nonNull("select", "onFalse", onFalse);
        return ElementwiseOps.select(self(), onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java double for the false branch. */
    default Tensor select(Tensor onTrue, double onFalse) {
        Args.nonNull("select", "onTrue", onTrue);
        return ElementwiseOps.select(self(), onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java double for the true branch. */
    default Tensor select(double onTrue, Tensor onFalse) {
        Args.nonNull("select", "onFalse", onFalse);
        return ElementwiseOps.select(self(), onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with two Java integers, typed S32 (S64 when a value needs it). */
    default Tensor select(long onTrue, long onFalse) { return ElementwiseOps.select(self(), onTrue, onFalse); }

    /** {@link #select(Tensor, Tensor)} with two Java doubles, typed F32. */
    default Tensor select(double onTrue, double onFalse) { return ElementwiseOps.select(self(), onTrue, onFalse); }

    /**
     * Clamps every element into {@code [min, max]}: {@code max(this, min)} then {@code min(., max)}, so
     * NaN propagates and {@code min > max} gives {@code max}. The type is this type promoted with both
     * bounds; bounds broadcast like any binary operand.
     */
    default Tensor clip(Tensor min, Tensor max) {
        Args.nonNull("clip", "min", min);
        Args.nonNull("clip", "max", max);
        return ElementwiseOps.clip(self(), min, max);
    }

    /** {@link #clip(Tensor, Tensor)} with weakly typed Java doubles ({@code s32.clip(0.5, 2.5)} is F32). */
    default Tensor clip(double min, double max) { return ElementwiseOps.clip(self(), min, max); }

    /** {@link #clip(Tensor, Tensor)} with weakly typed Java integers ({@code u8.clip(0, 300)} is U16). */
    default Tensor clip(long min, long max) { return ElementwiseOps.clip(self(), min, max); }

    /**
     * The same bits read as {@code type}, which must have the same element width (not PRED); shares memory.
     *
     * <pre>{@code
     * Tensor.of(1.0f).bitcast(DType.S32);   // s32[1] [1065353216]
     * }</pre>
     */
    default Tensor bitcast(DType type) {
        Args.nonNull("bitcast", "type", type);
        return ElementwiseOps.bitcast(self(), type);
    }
}
