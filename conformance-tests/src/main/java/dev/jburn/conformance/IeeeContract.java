package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * Float ops against IEEE 754 and Java's math library, independently of the oracle. One IEEE
 * operation ({@code + - * /}, fmod, min, max, comparisons) is correctly rounded: computed in
 * double and rounded once to F32, F16 or BF16 it is exact (double has more than twice their
 * precision plus two bits), so the engine must match bit for bit, with the sign of zero.
 * Float math (exp, sin, asinh, sigmoid, pow, atan2 ...) is within {@link Tolerance#TRANSCENDENTAL}
 * of {@link StrictMath} (or an accurate double formula) rounded to the type. {@code pow} follows
 * IEEE 754 / C99 special cases ({@link dev.jburn.spi.ScalarMath#pow}): {@code pow(1, NaN) = 1},
 * {@code pow(-1, ±Inf) = 1}.
 */
public interface IeeeContract extends EngineContract {

    @Test
    @Covers({"add", "subtract", "multiply", "divide", "remainder", "BinaryOp.min", "BinaryOp.max", "equal", "notEqual",
            "less", "lessEqual", "greater", "greaterEqual", "pow", "atan2"})
    default void floatArithmeticIsCorrectlyRounded() {
        BinaryOp[] ops = {BinaryOp.ADD, BinaryOp.SUBTRACT, BinaryOp.MULTIPLY, BinaryOp.DIVIDE, BinaryOp.REMAINDER, BinaryOp.MIN,
                BinaryOp.MAX, BinaryOp.EQUAL, BinaryOp.NOT_EQUAL, BinaryOp.LESS, BinaryOp.LESS_EQUAL, BinaryOp.GREATER,
                BinaryOp.GREATER_EQUAL, BinaryOp.POW, BinaryOp.ATAN2};
        Props.forAll(Generators.broadcastPairs(Generators.floatTypes(), Elements.Mix.ALL), p -> {
            Tensor a = p.a().on(engine());
            Tensor b = p.b().on(engine());
            DType t = p.a().dtype();
            Shape out = Shape.broadcast("test", p.a().shape(), p.b().shape());
            int n = (int) out.size();
            for (BinaryOp op : ops) {
                DoubleBinaryOperator f = javaMath(op);
                DType rt = op.resultType(t);
                double[] d = new double[rt.isFloat() ? n : 0];
                long[] l = new long[rt.isFloat() ? 0 : n];
                for (int i = 0; i < n; i++) {
                    double r = f.applyAsDouble(p.a().doubleAt(ElementwiseCases.sourceIndex(p.a().shape(), out, i)),
                            p.b().doubleAt(ElementwiseCases.sourceIndex(p.b().shape(), out, i)));
                    if (rt.isFloat()) d[i] = r;
                    else l[i] = (long) r;
                }
                TensorCase want = rt.isFloat() ? TensorCase.ofDoubles(rt, out, d) : TensorCase.ofLongs(rt, out, l);
                Tolerance tol = op == BinaryOp.POW || op == BinaryOp.ATAN2 ? Tolerance.TRANSCENDENTAL : Tolerance.EXACT;
                TensorAssert.assertClose(op.opName() + " of " + p + " vs Java double arithmetic rounded to " + rt.shortName(),
                        want, ElementwiseMethods.binary(op, a, b), tol);
            }
        });
    }

    @Test
    @Covers({"exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan",
            "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid"})
    default void floatMathIsCloseToJavaMath() {
        UnaryOp[] ops = {UnaryOp.EXP, UnaryOp.EXPM1, UnaryOp.LOG, UnaryOp.LOG1P, UnaryOp.SQRT, UnaryOp.RSQRT, UnaryOp.CBRT,
                UnaryOp.SIN, UnaryOp.COS, UnaryOp.TAN, UnaryOp.ASIN, UnaryOp.ACOS, UnaryOp.ATAN, UnaryOp.SINH, UnaryOp.COSH,
                UnaryOp.TANH, UnaryOp.ASINH, UnaryOp.ACOSH, UnaryOp.ATANH, UnaryOp.SIGMOID};
        Props.forAll(Generators.tensors(Generators.floatTypes()), x -> {
            Tensor t = x.on(engine());
            double[] v = x.doubles();
            for (UnaryOp op : ops) {
                // The double formulas for asinh..sigmoid lose a few double ulps: plenty for F32 and narrower, not for F64.
                if (x.dtype() == DType.F64 && formula(op)) continue;
                DoubleUnaryOperator f = javaMath(op);
                double[] want = new double[v.length];
                for (int i = 0; i < v.length; i++) want[i] = f.applyAsDouble(v[i]);
                TensorAssert.assertClose(op.opName() + " of " + x + " vs Java math rounded to " + x.dtype().shortName(),
                        TensorCase.ofDoubles(x.dtype(), x.shape(), want), ElementwiseMethods.unary(op, t), Tolerance.TRANSCENDENTAL);
            }
        });
    }

    private static boolean formula(UnaryOp op) {
        return op == UnaryOp.ASINH || op == UnaryOp.ACOSH || op == UnaryOp.ATANH || op == UnaryOp.SIGMOID;
    }

    /** The Java reference of a float binary op; comparisons give 1 or 0. */
    private static DoubleBinaryOperator javaMath(BinaryOp op) {
        return switch (op) {
            case ADD -> Double::sum;
            case SUBTRACT -> (a, b) -> a - b;
            case MULTIPLY -> (a, b) -> a * b;
            case DIVIDE -> (a, b) -> a / b;
            case REMAINDER -> (a, b) -> a % b; // C fmod: exact, the sign of the dividend
            case MIN -> Math::min;             // NaN propagates, -0.0 < 0.0
            case MAX -> Math::max;
            case POW -> dev.jburn.spi.ScalarMath::pow;
            case ATAN2 -> StrictMath::atan2;
            case EQUAL -> (a, b) -> a == b ? 1 : 0;
            case NOT_EQUAL -> (a, b) -> a != b ? 1 : 0;
            case LESS -> (a, b) -> a < b ? 1 : 0;
            case LESS_EQUAL -> (a, b) -> a <= b ? 1 : 0;
            case GREATER -> (a, b) -> a > b ? 1 : 0;
            case GREATER_EQUAL -> (a, b) -> a >= b ? 1 : 0;
            case QUOTIENT, LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT ->
                    throw new IllegalArgumentException(op + " has no float reference here");
        };
    }

    /** The Java reference of a float unary op, in double. */
    private static DoubleUnaryOperator javaMath(UnaryOp op) {
        return switch (op) {
            case EXP -> StrictMath::exp;
            case EXPM1 -> StrictMath::expm1;
            case LOG -> StrictMath::log;
            case LOG1P -> StrictMath::log1p;
            case SQRT -> StrictMath::sqrt;
            case RSQRT -> x -> 1 / StrictMath.sqrt(x);
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
            case ASINH -> x -> {
                if (Double.isInfinite(x)) return x;
                double s = Math.abs(x);
                return Math.copySign(StrictMath.log1p(s + s * s / (1 + StrictMath.sqrt(1 + s * s))), x);
            };
            case ACOSH -> x -> x < 1 ? Double.NaN : StrictMath.log1p((x - 1) + StrictMath.sqrt((x - 1) * (x + 1)));
            case ATANH -> x -> 0.5 * StrictMath.log1p(2 * x / (1 - x));
            case SIGMOID -> x -> 1 / (1 + StrictMath.exp(-x));
            case ABS, NEGATE, SIGN, ERF, ERFC, ERF_INV, FLOOR, CEIL, ROUND, IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT,
                 POPULATION_COUNT, COUNT_LEADING_ZEROS -> throw new IllegalArgumentException(op + " has no Java math reference here");
        };
    }
}
