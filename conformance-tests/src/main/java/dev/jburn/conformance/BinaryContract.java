package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Binary element-wise ops: every op on broadcast pairs of any two dtypes matches the oracle
 * and the promotion rule ({@link DType#merge}, then {@link BinaryOp#computeType} and
 * {@link BinaryOp#resultType}); Java {@code long} and {@code double} operands are weakly typed
 * ({@link DType#mergeScalar}) and act exactly as a scalar tensor of the merged type; integer-only
 * ops refuse floats and incompatible shapes fail, naming the op.
 */
public interface BinaryContract extends EngineContract {

    @Test
    @Covers(families = BinaryOp.class)
    default void binaryOpsMatchTheOracleOnPromotedBroadcastPairs() {
        Props.forAll(Generators.broadcastPairs(Generators.dtypes(), Generators.dtypes(), Elements.Mix.ALL), p -> {
            Tensor a = p.a().on(engine());
            Tensor b = p.b().on(engine());
            Shape out = Shape.broadcast("test", p.a().shape(), p.b().shape());
            DType merged = DType.merge(p.a().dtype(), p.b().dtype());
            for (BinaryOp op : BinaryOp.values()) {
                String label = op.opName() + " of " + p;
                Oracle.check(engine(), label, ElementwiseCases.tolerance(op), List.of(p.a(), p.b()),
                        in -> List.of(ElementwiseMethods.binary(op, in.get(0), in.get(1))));
                checkTypeRule(label, op, merged, out, () -> ElementwiseMethods.binary(op, a, b), () -> a.apply(op, b));
            }
        });
    }

    @Test
    @Covers(families = BinaryOp.class)
    default void javaIntegersAreWeaklyTyped() {
        Props.forAll(ElementwiseCases.withLongScalar(Generators.dtypes()), c -> {
            Tensor x = c.x().on(engine());
            DType merged = DType.mergeScalar(c.x().dtype(), c.s());
            for (BinaryOp op : BinaryOp.values()) {
                String label = op.opName() + " of " + c;
                Oracle.check(engine(), label, c.x(), ElementwiseCases.tolerance(op), t -> ElementwiseMethods.binary(op, t, c.s()));
                if (checkTypeRule(label, op, merged, c.x().shape(), () -> ElementwiseMethods.binary(op, x, c.s()), () -> x.apply(op, c.s()))) {
                    Tensor strong = Tensor.scalar(c.s(), merged).to(engine());
                    TensorAssert.assertSame(label + ": differs from the same op with the scalar tensor " + merged.shortName() + " " + c.s(),
                            TensorCase.of(ElementwiseMethods.binary(op, x, strong)), ElementwiseMethods.binary(op, x, c.s()));
                }
            }
        });
    }

    @Test
    @Covers(families = BinaryOp.class)
    default void javaDoublesAreWeaklyTyped() {
        Props.forAll(ElementwiseCases.withDoubleScalar(Generators.dtypes()), c -> {
            Tensor x = c.x().on(engine());
            DType merged = DType.mergeScalar(c.x().dtype(), c.s());
            for (BinaryOp op : BinaryOp.values()) {
                String label = op.opName() + " of " + c;
                Oracle.check(engine(), label, c.x(), ElementwiseCases.tolerance(op), t -> ElementwiseMethods.binary(op, t, c.s()));
                if (checkTypeRule(label, op, merged, c.x().shape(), () -> ElementwiseMethods.binary(op, x, c.s()), () -> x.apply(op, c.s()))) {
                    Tensor strong = Tensor.scalar(c.s(), merged).to(engine());
                    TensorAssert.assertSame(label + ": differs from the same op with the scalar tensor " + merged.shortName() + " " + c.s(),
                            TensorCase.of(ElementwiseMethods.binary(op, x, strong)), ElementwiseMethods.binary(op, x, c.s()));
                }
            }
        });
    }

    @Test
    @Covers({"quotient", "bitwiseAnd", "bitwiseOr", "bitwiseXor", "leftShift", "rightShift"})
    default void integerOpsRefuseFloatsNamingTheOpAndTheType() {
        BinaryOp[] integerOnly = {BinaryOp.QUOTIENT, BinaryOp.BITWISE_AND, BinaryOp.BITWISE_OR, BinaryOp.BITWISE_XOR,
                BinaryOp.LEFT_SHIFT, BinaryOp.RIGHT_SHIFT};
        Gen<TensorPair> pairs = Generators.broadcastPairs(Generators.floatTypes(), Generators.dtypes(), Elements.Mix.ALL);
        Props.forAll(pairs, p -> {
            Tensor f = p.a().on(engine());
            Tensor any = p.b().on(engine());
            String merged = DType.merge(p.a().dtype(), p.b().dtype()).shortName();
            for (BinaryOp op : integerOnly) {
                String label = op.opName() + " of " + p;
                expectTypeError(label, op, merged, () -> ElementwiseMethods.binary(op, f, any));
                expectTypeError(label + " (swapped)", op, merged, () -> ElementwiseMethods.binary(op, any, f));
                expectTypeError(label + " with 3L", op, p.a().dtype().shortName(), () -> ElementwiseMethods.binary(op, f, 3L));
                expectTypeError(label + " with 3.0", op, "f32", () -> ElementwiseMethods.binary(op, any.asType(DType.S32), 3.0));
            }
        });
    }

    @Test
    @Covers(families = BinaryOp.class)
    default void incompatibleShapesNameTheOpAndBothShapes() {
        Gen<TensorPair> pairs = rs -> {
            BroadcastShapes s = Shapes.incompatible().generate(rs);
            Gen<DType> ints = Generators.integerTypes();
            return new TensorPair(Generators.values(ints.generate(rs), s.a(), Elements.Mix.ALL).generate(rs),
                    Generators.values(ints.generate(rs), s.b(), Elements.Mix.ALL).generate(rs));
        };
        Props.forAll(pairs, p -> {
            Tensor a = p.a().on(engine());
            Tensor b = p.b().on(engine());
            for (BinaryOp op : BinaryOp.values()) {
                String label = op.opName() + " of " + p;
                JBurnException e = assertThrows(JBurnException.class, () -> ElementwiseMethods.binary(op, a, b), label);
                assertEquals(op.opName(), e.op(), label);
                assertTrue(e.reason().contains(p.a().shape().toString()) && e.reason().contains(p.b().shape().toString()),
                        () -> label + ": the reason should name both shapes: " + e.reason());
            }
        });
    }

    /**
     * Checks the result of {@code named} against the promotion rule and {@code viaApply}: the
     * type {@code resultType(computeType(merged))} and shape {@code out}, or a
     * {@link JBurnException} naming the op when {@code computeType} refuses the merged type.
     *
     * @return whether the op ran (false when it was refused, as the rule says)
     */
    private static boolean checkTypeRule(String label, BinaryOp op, DType merged, Shape out, Supplier<Tensor> named, Supplier<Tensor> viaApply) {
        DType want;
        try {
            want = op.resultType(op.computeType(merged));
        } catch (JBurnException refused) {
            JBurnException e = assertThrows(JBurnException.class, named::get, label);
            assertEquals(op.opName(), e.op(), label);
            return false;
        }
        Tensor r = named.get();
        assertEquals(want, r.dtype(), () -> label + ": the promotion rule gives " + want.shortName() + " (merged " + merged.shortName() + ")");
        assertEquals(out, r.shape(), label);
        TensorAssert.assertSame(label + ": apply(" + op + ") and " + op.opName() + "(...) differ", TensorCase.of(r), viaApply.get());
        return true;
    }

    private static void expectTypeError(String label, BinaryOp op, String typeName, Supplier<Tensor> call) {
        JBurnException e = assertThrows(JBurnException.class, call::get, label);
        assertEquals(op.opName(), e.op(), label);
        assertTrue(e.reason().contains(typeName), () -> label + ": the reason should name " + typeName + ": " + e.reason());
    }
}
