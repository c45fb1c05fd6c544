package dev.jburn;

import org.junit.jupiter.api.Test;

import static dev.jburn.DType.*;
import static org.junit.jupiter.api.Assertions.*;

/** The promotion table and weak scalar typing, against NX-SEMANTICS §0-§1 examples. */
class DTypeTest {
    @Test
    void tensorPromotion() {
        assertEquals(S16, merge(U8, S8));
        assertEquals(S16, merge(U8, S16));
        assertEquals(S32, merge(U16, S8));
        assertEquals(S64, merge(U32, S8));
        assertEquals(S64, merge(U32, S32));
        assertEquals(S64, merge(U64, S8));
        assertEquals(S64, merge(U64, S64));
        assertEquals(S64, merge(S8, S64));
        assertEquals(F32, merge(S32, F32));
        assertEquals(F16, merge(S64, F16));
        assertEquals(F32, merge(U64, F32));
        assertEquals(BF16, merge(S64, BF16));
        assertEquals(F32, merge(F32, BF16));
        assertEquals(F32, merge(F16, BF16));
        assertEquals(F64, merge(BF16, F64));
        assertEquals(U8, merge(PRED, U8));
        assertEquals(PRED, merge(PRED, PRED));
    }

    @Test
    void promotionIsCommutative() {
        for (DType a : values()) for (DType b : values()) assertEquals(merge(a, b), merge(b, a), a + "+" + b);
    }

    @Test
    void weakScalars() {
        assertEquals(U8, mergeScalar(U8, 255));
        assertEquals(U16, mergeScalar(U8, 256));
        assertEquals(S16, mergeScalar(U8, -1));
        assertEquals(S32, mergeScalar(U8, -32769));
        assertEquals(S16, mergeScalar(S8, 128));
        assertEquals(S16, mergeScalar(S8, -129));
        assertEquals(F32, mergeScalar(S8, 1.0));
        assertEquals(S64, mergeScalar(U64, -1337));
        assertEquals(F64, mergeScalar(F64, 1.0));
        assertEquals(F32, mergeScalar(S32, 1.5));
        assertEquals(S32, mergeScalar(S32, 1));
    }

    @Test
    void floatingAndWidths() {
        assertEquals(F32, S64.toFloating());
        assertEquals(F16, F16.toFloating());
        assertEquals(2, BF16.byteSize());
        assertEquals(-1L, U64.maxLong());
        assertEquals(BF16, parse("bf16"));
        JBurnException e = assertThrows(JBurnException.class, () -> parse("f8"));
        assertTrue(e.getMessage().contains("unknown dtype"));
    }
}
