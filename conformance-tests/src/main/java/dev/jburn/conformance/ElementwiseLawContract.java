package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Algebraic laws of the binary ops, checked on the engine alone (no oracle): commutativity,
 * broadcasting equals broadcasting first, {@code x - x == 0}, {@code x * 1 == x}, comparison
 * complements and mirror images (with NaN: every ordered comparison is false), and integer
 * arithmetic as two's complement at the type's width ({@code u8 250 + 10 == 4}, unsigned
 * compares and divides for U64, JBurn's rules for division by zero, negative powers and
 * shift counts past the width).
 */
public interface ElementwiseLawContract extends EngineContract {

    /**
     * {@code a op b == b op a} for the commutative ops, on mixed dtypes: exact, NaN meeting NaN
     * (IEEE leaves the payload of a NaN result open), the sign of zero included; an op that
     * refuses {@code a, b} refuses {@code b, a} too.
     */
    @Test
    @Covers({"add", "multiply", "BinaryOp.min", "BinaryOp.max", "equal", "notEqual", "logicalAnd", "logicalOr", "logicalXor",
            "bitwiseAnd", "bitwiseOr", "bitwiseXor"})
    default void commutativeOpsCommute() {
        BinaryOp[] commutative = {BinaryOp.ADD, BinaryOp.MULTIPLY, BinaryOp.MIN, BinaryOp.MAX, BinaryOp.EQUAL, BinaryOp.NOT_EQUAL,
                BinaryOp.LOGICAL_AND, BinaryOp.LOGICAL_OR, BinaryOp.LOGICAL_XOR, BinaryOp.BITWISE_AND, BinaryOp.BITWISE_OR, BinaryOp.BITWISE_XOR};
        Props.forAll(Generators.broadcastPairs(Generators.dtypes(), Generators.dtypes(), Elements.Mix.ALL), p -> {
            Tensor a = p.a().on(engine());
            Tensor b = p.b().on(engine());
            for (BinaryOp op : commutative) {
                sameOutcome(op.opName() + "(a, b) vs (b, a) for " + p, Tolerance.EXACT,
                        () -> ElementwiseMethods.binary(op, a, b), () -> ElementwiseMethods.binary(op, b, a));
            }
        });
    }

    /** {@code op(a, b) == op(a.broadcast(out), b.broadcast(out))}: stride-0 reads give what materialized operands give. */
    @Test
    @Covers(families = BinaryOp.class)
    default void broadcastingEqualsBroadcastingFirst() {
        Props.forAll(Generators.broadcastPairs(Generators.dtypes(), Generators.dtypes(), Elements.Mix.ALL), p -> {
            Tensor a = p.a().on(engine());
            Tensor b = p.b().on(engine());
            Shape out = Shape.broadcast("test", p.a().shape(), p.b().shape());
            Tensor wideA = a.broadcast(out);
            Tensor wideB = b.broadcast(out);
            for (BinaryOp op : BinaryOp.values()) {
                sameOutcome(op.opName() + " of " + p + " vs the operands broadcast to " + out, ElementwiseCases.tolerance(op),
                        () -> ElementwiseMethods.binary(op, a, b), () -> ElementwiseMethods.binary(op, wideA, wideB));
            }
        });
    }

    /** {@code x - x} is 0 for integers (PRED gives U8 0) and +0.0 for finite floats, NaN for NaN and ±Inf. */
    @Test
    @Covers("subtract")
    default void subtractingItselfGivesZero() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            DType type = BinaryOp.SUBTRACT.computeType(x.dtype());
            TensorCase want;
            if (type.isFloat()) {
                double[] v = x.doubles();
                for (int i = 0; i < v.length; i++) v[i] = Double.isFinite(v[i]) ? 0.0 : Double.NaN;
                want = TensorCase.ofDoubles(type, x.shape(), v);
            } else {
                want = TensorCase.ofLongs(type, x.shape(), new long[(int) x.size()]);
            }
            TensorAssert.assertSame("subtract(x, x) for x = " + x, want, t.subtract(t));
        });
    }

    /** {@code x * 1 == x} with the same dtype (PRED gives U8), bit for bit with the sign of zero, for a Java 1, 1.0 and a scalar tensor. */
    @Test
    @Covers("multiply")
    default void multiplyingByOneIsTheIdentity() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            TensorCase want = x.dtype().isPred() ? TensorCase.of(t.asType(DType.U8)) : x;
            TensorAssert.assertSame("x * 1L for x = " + x, want, t.multiply(1L));
            TensorAssert.assertSame("x * ones(" + x.dtype().shortName() + ") for x = " + x, want,
                    t.multiply(Tensor.ones(Shape.scalar(), want.dtype()).to(engine())));
            if (x.dtype().isFloat()) TensorAssert.assertSame("x * 1.0 for x = " + x, x, t.multiply(1.0));
        });
    }

    /**
     * {@code less(a, b) == !greaterEqual(a, b)} and {@code greater(a, b) == !lessEqual(a, b)}
     * where neither side is NaN, and all four false where one is; {@code equal == !notEqual}
     * everywhere; {@code less(a, b) == greater(b, a)}, {@code lessEqual(a, b) == greaterEqual(b, a)}.
     */
    @Test
    @Covers({"less", "lessEqual", "greater", "greaterEqual", "equal", "notEqual", "logicalNot"})
    default void comparisonsAreComplementsAndMirrorImages() {
        Props.forAll(Generators.broadcastPairs(Generators.dtypes(), Generators.dtypes(), Elements.Mix.ALL), p -> {
            Tensor a = p.a().on(engine());
            Tensor b = p.b().on(engine());
            Shape out = Shape.broadcast("test", p.a().shape(), p.b().shape());
            int n = (int) out.size();
            long[] notNaN = new long[n];
            for (int i = 0; i < n; i++) {
                boolean nan = Double.isNaN(p.a().doubleAt(ElementwiseCases.sourceIndex(p.a().shape(), out, i)))
                        || Double.isNaN(p.b().doubleAt(ElementwiseCases.sourceIndex(p.b().shape(), out, i)));
                notNaN[i] = nan ? 0 : 1;
            }
            Tensor ordered = TensorCase.ofLongs(DType.PRED, out, notNaN).on(engine());
            String of = " for " + p;
            same("less == !greaterEqual where no NaN" + of, a.greaterEqual(b).logicalNot().logicalAnd(ordered), a.less(b));
            same("greater == !lessEqual where no NaN" + of, a.lessEqual(b).logicalNot().logicalAnd(ordered), a.greater(b));
            same("greaterEqual is false at NaN" + of, a.greaterEqual(b).logicalAnd(ordered), a.greaterEqual(b));
            same("lessEqual is false at NaN" + of, a.lessEqual(b).logicalAnd(ordered), a.lessEqual(b));
            same("equal == !notEqual" + of, a.notEqual(b).logicalNot(), a.equal(b));
            same("less(a, b) == greater(b, a)" + of, b.greater(a), a.less(b));
            same("lessEqual(a, b) == greaterEqual(b, a)" + of, b.greaterEqual(a), a.lessEqual(b));
        });
    }

    /**
     * Integer ops of two same-typed integer tensors (broadcast) equal Java long arithmetic
     * wrapped to the type: add, subtract, multiply, quotient (toward zero), remainder (sign of
     * the dividend), pow (exact, then wrapped), min, max, the comparisons, the bitwise ops and
     * shifts (arithmetic for signed, logical for unsigned); U64 compares and divides unsigned.
     * JBurn's rules where Nx's binary backend raises: division by zero gives 0; a negative
     * exponent gives 0 except for bases 1 and -1; a shift count that is negative or at least the
     * width gives 0 (-1 for a right shift of a negative signed value).
     */
    @Test
    @Covers({"add", "subtract", "multiply", "quotient", "remainder", "pow", "BinaryOp.min", "BinaryOp.max", "equal", "notEqual",
            "less", "lessEqual", "greater", "greaterEqual", "bitwiseAnd", "bitwiseOr", "bitwiseXor", "leftShift", "rightShift"})
    default void integerOpsWrapLikeTwosComplement() {
        BinaryOp[] ops = {BinaryOp.ADD, BinaryOp.SUBTRACT, BinaryOp.MULTIPLY, BinaryOp.QUOTIENT, BinaryOp.REMAINDER, BinaryOp.POW,
                BinaryOp.MIN, BinaryOp.MAX, BinaryOp.EQUAL, BinaryOp.NOT_EQUAL, BinaryOp.LESS, BinaryOp.LESS_EQUAL, BinaryOp.GREATER,
                BinaryOp.GREATER_EQUAL, BinaryOp.BITWISE_AND, BinaryOp.BITWISE_OR, BinaryOp.BITWISE_XOR, BinaryOp.LEFT_SHIFT,
                BinaryOp.RIGHT_SHIFT};
        Props.forAll(Generators.broadcastPairs(Generators.integerTypes(), Elements.Mix.ALL), p -> {
            Tensor a = p.a().on(engine());
            Tensor b = p.b().on(engine());
            DType t = p.a().dtype();
            Shape out = Shape.broadcast("test", p.a().shape(), p.b().shape());
            int n = (int) out.size();
            for (BinaryOp op : ops) {
                long[] want = new long[n];
                for (int i = 0; i < n; i++) {
                    long x = p.a().longAt(ElementwiseCases.sourceIndex(p.a().shape(), out, i));
                    long y = p.b().longAt(ElementwiseCases.sourceIndex(p.b().shape(), out, i));
                    want[i] = IntegerRules.apply(op, t, x, y);
                }
                TensorAssert.assertSame(op.opName() + " of " + p, TensorCase.ofLongs(op.resultType(t), out, want),
                        ElementwiseMethods.binary(op, a, b));
            }
        });
    }

    /** Nx's examples: {@code u8 250 + 10 == 4} (the literal is weakly typed), {@code u8 + 256 -> u16}, {@code u8 + -1 -> s16}. */
    @Test
    @Covers({"add", "subtract"})
    default void integerWraparoundExamples() {
        Tensor u8 = TensorCase.ofLongs(DType.U8, Shape.of(3), 250, 0, 255).on(engine());
        TensorAssert.assertSame("u8 [250, 0, 255] + 10", TensorCase.ofLongs(DType.U8, Shape.of(3), 4, 10, 9), u8.add(10L));
        TensorAssert.assertSame("u8 [250, 0, 255] + u8 10", TensorCase.ofLongs(DType.U8, Shape.of(3), 4, 10, 9),
                u8.add(Tensor.scalar(10L, DType.U8).to(engine())));
        TensorAssert.assertSame("u8 [250, 0, 255] - 1", TensorCase.ofLongs(DType.U8, Shape.of(3), 249, 255, 254), u8.subtract(1L));
        TensorAssert.assertSame("u8 [250, 0, 255] + 256", TensorCase.ofLongs(DType.U16, Shape.of(3), 506, 256, 511), u8.add(256L));
        TensorAssert.assertSame("u8 [250, 0, 255] + -1", TensorCase.ofLongs(DType.S16, Shape.of(3), 249, -1, 254), u8.add(-1L));
        Tensor s8 = TensorCase.ofLongs(DType.S8, Shape.of(2), 127, -128).on(engine());
        TensorAssert.assertSame("s8 [127, -128] + 1", TensorCase.ofLongs(DType.S8, Shape.of(2), -128, -127), s8.add(1L));
        TensorAssert.assertSame("s8 [127, -128] - 1", TensorCase.ofLongs(DType.S8, Shape.of(2), 126, 127), s8.subtract(1L));
        TensorAssert.assertSame("s8 [127, -128] + 1.5", TensorCase.ofDoubles(DType.F32, Shape.of(2), 128.5, -126.5), s8.add(1.5));
    }

    /** Both calls throw a {@link JBurnException} naming the same op, or both return results within {@code tol}. */
    private void sameOutcome(String label, Tolerance tol, Supplier<Tensor> first, Supplier<Tensor> second) {
        Tensor r1;
        try {
            r1 = first.get();
        } catch (JBurnException e1) {
            try {
                Tensor r2 = second.get();
                Assertions.fail(label + ": the first form threw \"" + e1.getMessage() + "\" but the second returned " + r2);
            } catch (JBurnException e2) {
                assertEquals(e1.op(), e2.op(), label);
            }
            return;
        }
        Tensor r2;
        try {
            r2 = second.get();
        } catch (JBurnException e2) {
            throw new AssertionError(label + ": the first form returned " + TensorCase.of(r1) + " but the second threw \"" + e2.getMessage() + "\"", e2);
        }
        TensorAssert.assertClose(label, TensorCase.of(r1), r2, tol);
    }

    private static void same(String label, Tensor expected, Tensor actual) {
        TensorAssert.assertSame(label, TensorCase.of(expected), actual);
    }
}
