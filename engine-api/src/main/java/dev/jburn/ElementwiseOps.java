package dev.jburn;

import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import static dev.jburn.ElementwiseOperands.castTo;
import static dev.jburn.ElementwiseOperands.release;

/**
 * Front end of the element-wise ops: type promotion, casting to the compute type and shape
 * broadcasting, then one backend call. Broadcasts are never materialized here; the backend
 * reads broadcast operands through stride-0 axes.
 *
 * <p>Data-dependent integer faults do not throw (a kernel cannot report them cheaply, and
 * compiled engines would not either): integer {@code quotient} and {@code remainder} by zero
 * give 0; {@code pow} with a negative integer exponent gives 0, except for bases 1 and -1;
 * shifts by a count that is negative or at least the bit width give 0, or -1 for a right shift
 * of a negative signed value. Nx's binary backend raises in these cases instead.
 */
final class ElementwiseOps {
    private ElementwiseOps() {}

    // ---- unary ----------------------------------------------------------------------------------------

    static Tensor unary(UnaryOp op, Tensor x) {
        DType in = x.dtype();
        DType out = op.resultType(in);
        if (alwaysFalse(op, in)) {
            // isNan/isInfinity of integers: a zero-filled PRED buffer is all false.
            return Tensor.wrap(x.engine(), x.backend().allocate(x.size()), DType.PRED, x.shape());
        }
        DType compute = op.floatMath() ? in.toFloating() : (in.isPred() && out == DType.U8 ? DType.U8 : in);
        if (isIdentity(op, compute)) return compute == in ? x.share(in, x.shape()) : x.asType(compute);
        Operand cx = null;
        try {
            cx = castTo(x, compute);
            return Tensor.wrap(x.engine(), x.backend().unary(op, cx, out), out, x.shape());
        } finally {
            release(cx, x);
        }
    }

    /** Ops whose answer on type {@code t} is known without looking at the data. */
    private static boolean alwaysFalse(UnaryOp op, DType t) {
        return switch (op) {
            case IS_NAN, IS_INFINITY -> !t.isFloat();
            case ABS, NEGATE, SIGN, EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN,
                 SINH, COSH, TANH, ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV, FLOOR, CEIL, ROUND,
                 LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> false;
        };
    }

    /** Ops that leave every value of the compute type unchanged (rounding integers, abs of unsigned). */
    private static boolean isIdentity(UnaryOp op, DType compute) {
        return switch (op) {
            case FLOOR, CEIL, ROUND -> compute.isInteger();
            case ABS -> compute.isUnsigned();
            case NEGATE, SIGN, EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN,
                 SINH, COSH, TANH, ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV, IS_NAN, IS_INFINITY,
                 LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> false;
        };
    }

    // ---- binary ---------------------------------------------------------------------------------------

    static Tensor binary(BinaryOp op, Tensor a, Tensor b) {
        Tensor[] on = CommonEngine.of(op.opName(), a, b);
        a = on[0];
        b = on[1];
        DType compute = op.computeType(DType.merge(a.dtype(), b.dtype()));
        Shape out = Shape.broadcast(op.opName(), a.shape(), b.shape());
        Operand ca = null, cb = null;
        try {
            ca = castTo(a, compute);
            cb = castTo(b, compute);
            return run(op, a.engine(), ca, cb, out, compute);
        } finally {
            release(ca, a);
            release(cb, b);
        }
    }

    /** {@code a op scalar} with the scalar weakly typed ({@link DType#mergeScalar(DType, long)}). */
    static Tensor binary(BinaryOp op, Tensor a, long scalar) {
        DType compute = op.computeType(DType.mergeScalar(a.dtype(), scalar));
        Operand ca = null, cs = null;
        try {
            ca = castTo(a, compute);
            cs = ElementwiseOperands.scalar(a.engine(), compute, scalar);
            return run(op, a.engine(), ca, cs, a.shape(), compute);
        } finally {
            release(ca, a);
            release(cs, null);
        }
    }

    /** {@code a op scalar} with the scalar weakly typed ({@link DType#mergeScalar(DType, double)}). */
    static Tensor binary(BinaryOp op, Tensor a, double scalar) {
        DType compute = op.computeType(DType.mergeScalar(a.dtype(), scalar));
        Operand ca = null, cs = null;
        try {
            ca = castTo(a, compute);
            cs = ElementwiseOperands.scalar(a.engine(), compute, scalar);
            return run(op, a.engine(), ca, cs, a.shape(), compute);
        } finally {
            release(ca, a);
            release(cs, null);
        }
    }

    private static Tensor run(BinaryOp op, Engine e, Operand a, Operand b, Shape out, DType compute) {
        DType result = op.resultType(compute);
        return Tensor.wrap(e, e.backend().binary(op, a, b, out, result), result, out);
    }

    // ---- select ---------------------------------------------------------------------------------------

    static Tensor select(Tensor pred, Tensor onTrue, Tensor onFalse) {
        Tensor[] on = CommonEngine.of("select", pred, onTrue, onFalse);
        pred = on[0];
        onTrue = on[1];
        onFalse = on[2];
        DType type = DType.merge(onTrue.dtype(), onFalse.dtype());
        Shape out = broadcast3("select", pred.shape(), onTrue.shape(), onFalse.shape());
        Operand cp = null, ct = null, cf = null;
        try {
            cp = castTo(pred, DType.PRED);
            ct = castTo(onTrue, type);
            cf = castTo(onFalse, type);
            Buffer r = pred.backend().select(cp, ct, cf, out);
            return Tensor.wrap(pred.engine(), r, type, out);
        } finally {
            release(cp, pred);
            release(ct, onTrue);
            release(cf, onFalse);
        }
    }

    static Tensor select(Tensor pred, Tensor onTrue, long onFalse) {
        try (Tensor f = ShapeOps.scalarOn(pred.engine(), DType.mergeScalar(onTrue.dtype(), onFalse), onFalse)) {
            return select(pred, onTrue, f);
        }
    }

    static Tensor select(Tensor pred, long onTrue, Tensor onFalse) {
        try (Tensor t = ShapeOps.scalarOn(pred.engine(), DType.mergeScalar(onFalse.dtype(), onTrue), onTrue)) {
            return select(pred, t, onFalse);
        }
    }

    static Tensor select(Tensor pred, Tensor onTrue, double onFalse) {
        try (Tensor f = ShapeOps.scalarOn(pred.engine(), DType.mergeScalar(onTrue.dtype(), onFalse), onFalse)) {
            return select(pred, onTrue, f);
        }
    }

    static Tensor select(Tensor pred, double onTrue, Tensor onFalse) {
        try (Tensor t = ShapeOps.scalarOn(pred.engine(), DType.mergeScalar(onFalse.dtype(), onTrue), onTrue)) {
            return select(pred, t, onFalse);
        }
    }

    /** Two Java integers: typed as Nx types integer literals (S32, wider when a value needs it). */
    static Tensor select(Tensor pred, long onTrue, long onFalse) {
        DType type = DType.mergeScalar(DType.mergeScalar(DType.S32, onTrue), onFalse);
        try (Tensor t = ShapeOps.scalarOn(pred.engine(), type, onTrue); Tensor f = ShapeOps.scalarOn(pred.engine(), type, onFalse)) {
            return select(pred, t, f);
        }
    }

    /** Two Java doubles: typed F32, as Nx types float literals. */
    static Tensor select(Tensor pred, double onTrue, double onFalse) {
        try (Tensor t = ShapeOps.scalarOn(pred.engine(), DType.F32, onTrue); Tensor f = ShapeOps.scalarOn(pred.engine(), DType.F32, onFalse)) {
            return select(pred, t, f);
        }
    }

    // ---- clip -----------------------------------------------------------------------------------------

    /** {@code min(max(x, lo), hi)}; the type is x's promoted with both bounds, the shape all three broadcast. */
    static Tensor clip(Tensor x, Tensor lo, Tensor hi) {
        Tensor[] on = CommonEngine.of("clip", x, lo, hi);
        x = on[0];
        lo = on[1];
        hi = on[2];
        broadcast3("clip", x.shape(), lo.shape(), hi.shape()); // fail with the composite's name, before any work
        try (Tensor atLeast = binary(BinaryOp.MAX, x, lo)) {
            return binary(BinaryOp.MIN, atLeast, hi);
        }
    }

    /** Clip with weakly typed Java bounds: {@code u8.clip(0, 300)} is U16, {@code s32.clip(0.5, 2)} is F32. */
    static Tensor clip(Tensor x, double lo, double hi) {
        try (Tensor atLeast = binary(BinaryOp.MAX, x, lo)) {
            return binary(BinaryOp.MIN, atLeast, hi);
        }
    }

    static Tensor clip(Tensor x, long lo, long hi) {
        try (Tensor atLeast = binary(BinaryOp.MAX, x, lo)) {
            return binary(BinaryOp.MIN, atLeast, hi);
        }
    }

    // ---- bitcast --------------------------------------------------------------------------------------

    /** The same bits read as {@code to}, which must have the element width of x's type; shares memory. */
    static Tensor bitcast(Tensor x, DType to) {
        DType from = x.dtype();
        if (to == from) return x.share(to, x.shape());
        if (to.bits() != from.bits()) {
            throw new JBurnException("bitcast", "bitcast needs types of equal width, got " + from.shortName() + " ("
                    + from.bits() + " bits) to " + to.shortName() + " (" + to.bits() + " bits) for shape " + x.shape());
        }
        if (to.isPred()) {
            throw new JBurnException("bitcast", "cannot bitcast " + from.shortName() + x.shape()
                    + " to pred: bytes other than 0 and 1 are not booleans; use notEqual(0) or asType(PRED)");
        }
        return x.share(to, x.shape());
    }

    private static Shape broadcast3(String op, Shape a, Shape b, Shape c) {
        return Shape.broadcast(op, Shape.broadcast(op, a, b), c);
    }
}
