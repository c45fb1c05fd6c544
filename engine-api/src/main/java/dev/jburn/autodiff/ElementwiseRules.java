package dev.jburn.autodiff;

import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;

import java.util.Arrays;
import java.util.List;

/** Backward rules of element-wise prims: {@code unary} and {@code binary}. */
final class ElementwiseRules {
    private ElementwiseRules() {}

    private static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);

    /** Whether {@code op} has a derivative (on float inputs); the others give zero cotangents. */
    static boolean differentiable(UnaryOp op) {
        return switch (op) {
            case ABS, NEGATE, EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN,
                 SINH, COSH, TANH, ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> true;
            // piecewise constant (zero derivative almost everywhere) or not numeric
            case SIGN, FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> false;
        };
    }

    /** Whether {@code op} has a derivative (on float inputs); the others give zero cotangents. */
    static boolean differentiable(BinaryOp op) {
        return switch (op) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, REMAINDER, POW, ATAN2, MIN, MAX -> true;
            case QUOTIENT, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_AND, LOGICAL_OR,
                 LOGICAL_XOR, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> false;
        };
    }

    /** The cotangent of {@code x} for {@code y = op(x)}, or {@code null} (zero). */
    static Tensor unary(UnaryOp op, Tensor x, Tensor y, Tensor g) {
        if (!x.dtype().isFloat() || !y.dtype().isFloat()) return null;
        return switch (op) {
            case ABS -> g.multiply(x.sign());
            case NEGATE -> g.negate();
            case EXP -> g.multiply(y);
            case EXPM1 -> g.multiply(y.add(1.0));
            case LOG -> g.divide(x);
            case LOG1P -> g.divide(x.add(1.0));
            case SQRT -> g.multiply(0.5).divide(y);
            case RSQRT -> g.multiply(-0.5).multiply(y).divide(x);
            // (1/3)·y⁻², not y/(3x): at 0 that is 0/0, where the derivative is +Inf
            case CBRT -> g.multiply(1.0 / 3.0).divide(y.multiply(y));
            case SIN -> g.multiply(x.cos());
            case COS -> g.multiply(x.sin()).negate();
            case TAN -> g.multiply(y.multiply(y).add(1.0));
            case ASIN -> g.multiply(oneMinusSquare(x).rsqrt());
            case ACOS -> g.multiply(oneMinusSquare(x).rsqrt()).negate();
            case ATAN -> g.divide(x.multiply(x).add(1.0));
            case SINH -> g.multiply(x.cosh());
            case COSH -> g.multiply(x.sinh());
            case TANH -> g.multiply(oneMinusSquare(y));
            case ASINH -> g.multiply(x.multiply(x).add(1.0).rsqrt());
            case ACOSH -> g.multiply(x.multiply(x).subtract(1.0).rsqrt());
            case ATANH -> g.divide(oneMinusSquare(x));
            case SIGMOID -> g.multiply(y).multiply(y.negate().add(1.0));
            case ERF -> g.multiply(x.multiply(x).negate().exp()).multiply(TWO_OVER_SQRT_PI);
            case ERFC -> g.multiply(x.multiply(x).negate().exp()).multiply(-TWO_OVER_SQRT_PI);
            case ERF_INV -> g.multiply(y.multiply(y).exp()).multiply(1.0 / TWO_OVER_SQRT_PI);
            case SIGN, FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> null;
        };
    }

    /**
     * {@code y = a^b}, as JAX: {@code ā = b·a^(b-1)}, taken as 0 where {@code b == 0} ({@code a^0 = 1}
     * is constant, while {@code 0·0^(-1)} is NaN); {@code b̄ = y·log a}, taken as 0 where {@code a == 0}
     * ({@code log 0 = -Inf}). The discarded branches read a safe 1 instead of the 0, so that no NaN
     * reaches gradients of gradients through select either.
     */
    private static Tensor[] pow(Tensor a, Tensor b, Tensor y, Tensor g) {
        Tensor bZero = b.equal(0.0);
        Tensor safeB = bZero.select(1.0, b);
        Tensor ga = bZero.select(0.0, g.multiply(safeB).multiply(a.pow(safeB.subtract(1.0))));
        Tensor aZero = a.equal(0.0);
        Tensor safeA = aZero.select(1.0, a);
        Tensor gb = aZero.select(0.0, g.multiply(y).multiply(safeA.log()));
        return new Tensor[] {ga, gb};
    }

    private static Tensor oneMinusSquare(Tensor t) { return t.multiply(t).negate().add(1.0); }

    /** Cotangents of {@code a, b} for {@code y = op(a, b)} (broadcast to {@code y}'s shape by the kernel). */
    static List<Tensor> binary(BinaryOp op, Tensor a, Tensor b, Tensor y, Tensor g) {
        if (!a.dtype().isFloat() || !y.dtype().isFloat()) return BackwardRules.none(2);
        Tensor[] gs = switch (op) {
            case ADD -> new Tensor[] {g, g};
            case SUBTRACT -> new Tensor[] {g, g.negate()};
            case MULTIPLY -> new Tensor[] {g.multiply(b), g.multiply(a)};
            case DIVIDE -> new Tensor[] {g.divide(b), g.multiply(y).divide(b).negate()};
            case POW -> pow(a, b, y, g);
            case ATAN2 -> {
                Tensor r2 = a.multiply(a).add(b.multiply(b));
                yield new Tensor[] {g.multiply(b).divide(r2), g.multiply(a).divide(r2).negate()};
            }
            case MIN, MAX -> {
                // ties split the gradient evenly (JAX's convention)
                Tensor aWins = op == BinaryOp.MAX ? a.greater(b) : a.less(b);
                Tensor bWins = op == BinaryOp.MAX ? b.greater(a) : b.less(a);
                Tensor tie = a.equal(b);
                Tensor wa = aWins.select(1.0, tie.select(0.5, 0.0)).asType(g.dtype());
                Tensor wb = bWins.select(1.0, tie.select(0.5, 0.0)).asType(g.dtype());
                yield new Tensor[] {g.multiply(wa), g.multiply(wb)};
            }
            case REMAINDER -> {
                // remainder = a - b * trunc(a / b)
                Tensor q = a.divide(b);
                yield new Tensor[] {g, g.multiply(q.sign().multiply(q.abs().floor())).negate()};
            }
            case QUOTIENT, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_AND, LOGICAL_OR,
                 LOGICAL_XOR, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> null;
        };
        if (gs == null) return BackwardRules.none(2);
        Tensor ga = gs[0], gb = gs[1];
        return Arrays.asList(BackwardRules.unbroadcast(broadcastTo(ga, y), a.shape()), BackwardRules.unbroadcast(broadcastTo(gb, y), b.shape()));
    }

    /** {@code t} at {@code y}'s shape (a rule's result may have a smaller broadcast shape, e.g. {@code g * b} with scalar g). */
    private static Tensor broadcastTo(Tensor t, Tensor y) {
        return t.shape().equals(y.shape()) ? t : t.broadcast(y.shape());
    }
}
