package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.jburn.DType.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Type promotion ({@link DType#merge}, {@link DType#mergeScalar}, {@link DType#toFloating}):
 * the table is commutative, idempotent and associative; the merged type holds both operands
 * exactly except where Nx gives that up (integer with float, U64 with a signed type);
 * the literal examples of Nx's documentation hold, with JBurn's F16+BF16 = F32; and on the
 * engine, casting to the merged type and back gives the data back wherever it holds it.
 */
public interface PromotionContract extends EngineContract {

    @Test
    default void mergeIsCommutativeIdempotentAndAssociative() {
        List<String> bad = new ArrayList<>();
        for (DType a : DType.values()) {
            if (DType.merge(a, a) != a) bad.add("merge(" + a + ", " + a + ") = " + DType.merge(a, a));
            for (DType b : DType.values()) {
                if (DType.merge(a, b) != DType.merge(b, a)) {
                    bad.add("merge(" + a + ", " + b + ") = " + DType.merge(a, b) + " but merge(" + b + ", " + a + ") = " + DType.merge(b, a));
                }
                for (DType c : DType.values()) {
                    DType left = DType.merge(DType.merge(a, b), c);
                    DType right = DType.merge(a, DType.merge(b, c));
                    if (left != right) bad.add("(" + a + " + " + b + ") + " + c + " = " + left + " but " + a + " + (" + b + " + " + c + ") = " + right);
                }
            }
        }
        if (!bad.isEmpty()) fail(bad.size() + " violations:\n  " + String.join("\n  ", bad.subList(0, Math.min(20, bad.size()))));
    }

    @Test
    default void mergedTypeHoldsBothOperandsExactlyExceptWhereNxGivesThatUp() {
        List<String> bad = new ArrayList<>();
        for (DType a : DType.values()) {
            for (DType b : DType.values()) {
                DType m = DType.merge(a, b);
                // Nx keeps the float type as-is for integer + float, and caps U64 + signed at S64.
                boolean nxMayLose = (a.isInteger() && b.isFloat()) || (a == U64 && b.isSigned());
                if (!nxMayLose && !CastSpec.holdsExactly(a, m)) bad.add("merge(" + a + ", " + b + ") = " + m + " does not hold every " + a);
            }
        }
        if (!bad.isEmpty()) fail(String.join("\n", bad));
    }

    @Test
    default void mergeMatchesTheNxExamples() {
        DType[][] examples = {
                {U8, S8, S16}, {U8, S16, S16}, {U16, S8, S32}, {U32, S8, S64}, {U64, S8, S64}, {U32, S32, S64},
                {U64, S64, S64}, {S8, S64, S64}, {U8, U64, U64}, {S64, F16, F16}, {S32, F32, F32}, {U64, F32, F32},
                {S64, BF16, BF16}, {F32, BF16, F32}, {F16, BF16, F32}, {F16, F64, F64}, {PRED, PRED, PRED},
                {PRED, U8, U8}, {PRED, S8, S8}, {PRED, BF16, BF16}};
        for (DType[] e : examples) {
            assertEquals(e[2], DType.merge(e[0], e[1]), "merge(" + e[0] + ", " + e[1] + ")");
        }
    }

    @Test
    default void mergeWithAJavaNumberMatchesTheNxExamples() {
        assertEquals(U8, DType.mergeScalar(U8, 255));
        assertEquals(U8, DType.mergeScalar(U8, 10));
        assertEquals(U16, DType.mergeScalar(U8, 256));
        assertEquals(S16, DType.mergeScalar(U8, -1));
        assertEquals(S32, DType.mergeScalar(U8, -32769));
        assertEquals(S16, DType.mergeScalar(S8, 128));
        assertEquals(S16, DType.mergeScalar(S8, -129));
        assertEquals(S64, DType.mergeScalar(U64, -1337));
        assertEquals(F32, DType.mergeScalar(S8, 1.0));
        assertEquals(F32, DType.mergeScalar(S32, 1.5));
        assertEquals(F64, DType.mergeScalar(F64, 1.0));
        assertEquals(BF16, DType.mergeScalar(BF16, 1e30));
    }

    @Test
    default void toFloatingKeepsFloatsAndMakesF32OfTheRest() {
        for (DType t : DType.values()) assertEquals(t.isFloat() ? t : F32, t.toFloating(), t + ".toFloating()");
    }

    /** A tensor and the dtype of a second operand it would be promoted with. */
    record MergeCase(TensorCase x, DType other) {
        @Override
        public String toString() { return x + " promoted with " + other.shortName() + " to " + DType.merge(x.dtype(), other).shortName(); }
    }

    @Test
    @Covers("asType")
    default void castToTheMergedTypeAndBackKeepsTheDataWhereItHoldsIt() {
        Props.forAll(Generators.tensors().zip(Generators.dtypes(), MergeCase::new), c -> {
            DType merged = DType.merge(c.x().dtype(), c.other());
            if (!CastSpec.holdsExactly(c.x().dtype(), merged)) return;
            Tensor t = c.x().on(engine());
            TensorAssert.assertSame(c.toString(), c.x(), t.asType(merged).asType(c.x().dtype()));
        });
    }
}
