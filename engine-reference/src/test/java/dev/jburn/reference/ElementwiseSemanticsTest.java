package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.jburn.reference.ElementwiseTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** The Nx rules of NX-SEMANTICS §0-§3 for element-wise ops, on the oracle and on the vector engine. */
class ElementwiseSemanticsTest {
    private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void javaNumbersAreWeaklyTyped(Engine e) {
        Tensor u8 = ints(e, DType.U8, 250);
        assertLongs(u8.add(10), DType.U8, 4);                  // wraps, stays u8
        assertLongs(u8.add(256), DType.U16, 506);
        assertLongs(u8.add(-1), DType.S16, 249);
        assertLongs(ints(e, DType.U8, 1).add(-32769), DType.S32, -32768);
        assertLongs(ints(e, DType.S8, 1).add(128), DType.S16, 129);
        assertDoubles(ints(e, DType.S32, 1).add(1.5), DType.F32, 2.5);
        assertDoubles(ints(e, DType.F64, 1).add(1.0), DType.F64, 2.0);
        assertLongs(ints(e, DType.U64, 5).add(-1337), DType.S64, -1332);
        // a scalar tensor is strongly typed
        assertLongs(u8.add(Tensor.scalar(1).to(e)), DType.S32, 251);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void tensorPromotion(Engine e) {
        assertType(DType.S16, ints(e, DType.U8, 1).add(ints(e, DType.S8, 1)));
        assertType(DType.S64, ints(e, DType.U32, 1).add(ints(e, DType.S32, 1)));
        assertType(DType.S64, ints(e, DType.U64, 1).add(ints(e, DType.S64, 1)));
        assertType(DType.F16, ints(e, DType.S64, 1).add(reals(e, DType.F16, 1)));
        assertType(DType.F32, reals(e, DType.F16, 1).add(reals(e, DType.BF16, 1)));
        assertLongs(Tensor.of(true, true).to(e).add(Tensor.of(true, false).to(e)), DType.U8, 2, 1);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void divisionRemainderAndQuotient(Engine e) {
        Tensor col = Tensor.fromArray(new long[][] {{1}, {2}}, DType.S8).to(e);
        Tensor row = Tensor.fromArray(new long[][] {{10, 20}}, DType.S8).to(e);
        assertDoubles(col.divide(row), DType.F32, 0.1f, 0.05f, 0.2f, 0.1f);
        assertDoubles(Tensor.of(1, 2, 3).to(e).divide(1), DType.F32, 1, 2, 3);
        assertDoubles(Tensor.of(1, 0, -1).to(e).divide(0), DType.F32, INF, NAN, -INF);

        assertLongs(ints(e, DType.S8, -11).remainder(ints(e, DType.U8, 10)), DType.S16, -1);
        assertLongs(Tensor.of(-11 + 20).to(e).remainder(10), DType.S32, 9);
        assertDoubles(Tensor.scalar(2).to(e).remainder(Tensor.of(1f, 2f, 3f).to(e)), DType.F32, 0, 0, 2);
        assertDoubles(Tensor.of(-5.5, 5.5).to(e).remainder(2), DType.F64, -1.5, 1.5);

        assertLongs(Tensor.of(11, -7).to(e).quotient(2), DType.S32, 5, -3);
        Tensor q = Tensor.fromArray(new long[][] {{10, 20}}, DType.U8).to(e)
                .quotient(Tensor.fromArray(new long[][] {{1}, {2}}, DType.U32).to(e));
        assertLongs(q, DType.U32, 10, 20, 5, 10);
        JBurnException ex = assertThrows(JBurnException.class, () -> Tensor.of(1f).to(e).quotient(2));
        assertEquals("quotient", ex.op());
        assertTrue(ex.reason().contains("integer"), ex.reason());

        // integer division by zero does not throw: 0 (documented deviation from Nx's binary backend)
        assertLongs(Tensor.of(5, -5, 0).to(e).quotient(0), DType.S32, 0, 0, 0);
        assertLongs(Tensor.of(5, -5, 0).to(e).remainder(0), DType.S32, 0, 0, 0);
        // signed overflow wraps
        assertLongs(Tensor.of(Integer.MIN_VALUE).to(e).quotient(-1), DType.S32, Integer.MIN_VALUE);
        // u64 divides unsigned
        Tensor big = ints(e, DType.U64, -2L);   // 2^64 - 2
        assertLongs(big.quotient(ints(e, DType.U64, 2)), DType.U64, Long.MAX_VALUE);
        assertLongs(big.remainder(ints(e, DType.U64, 3)), DType.U64, Long.remainderUnsigned(-2L, 3));
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void powers(Engine e) {
        assertLongs(Tensor.of(1, 2, 3).to(e).pow(2), DType.S32, 1, 4, 9);
        assertDoubles(Tensor.scalar(2).to(e).pow(Tensor.of(1f, 2f, 3f).to(e)), DType.F32, 2, 4, 8);
        assertLongs(ints(e, DType.S8, 2).pow(7), DType.S8, -128);
        assertLongs(ints(e, DType.U8, 3).pow(5), DType.U8, 243);
        assertLongs(ints(e, DType.U8, 3).pow(6), DType.U8, 729 & 0xFF);
        assertDoubles(Tensor.of(4, 9).to(e).pow(0.5), DType.F32, 2, 3);
        assertLongs(Tensor.of(1, -1, -1, 2, 0).to(e).pow(Tensor.of(-3, -3, -2, -1, -1).to(e)), DType.S32, 1, -1, 1, 0, 0);
        assertLongs(Tensor.of(0, 5).to(e).pow(0), DType.S32, 1, 1);
        assertLongs(ints(e, DType.S64, 3).pow(41), DType.S64, java.math.BigInteger.valueOf(3).pow(41).longValue()); // wraps in 64 bits
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void shifts(Engine e) {
        assertLongs(Tensor.of(1, 1, -1, -1).to(e).leftShift(Tensor.of(1, 2, 3, 4).to(e)), DType.S32, 2, 4, -8, -16);
        assertLongs(Tensor.of(16, 32, -64, -128).to(e).rightShift(Tensor.of(1, 2, 3, 4).to(e)), DType.S32, 8, 8, -8, -8);
        assertLongs(ints(e, DType.U8, 248).rightShift(1), DType.U8, 124);
        assertLongs(ints(e, DType.S8, -8).rightShift(1), DType.S8, -4);
        assertLongs(ints(e, DType.S8, 3, 100).leftShift(2), DType.S8, 12, (byte) 400);
        // counts >= width, and negative counts (treated as >= width)
        assertLongs(ints(e, DType.S8, 1, -1).leftShift(8), DType.S8, 0, 0);
        assertLongs(ints(e, DType.S8, 16, -16).rightShift(9), DType.S8, 0, -1);
        assertLongs(ints(e, DType.U8, 255).leftShift(9), DType.U8, 0);
        assertLongs(Tensor.of(5, -5).to(e).rightShift(Tensor.of(-1, -1).to(e)), DType.S32, 0, -1);
        assertLongs(Tensor.of(5, -5).to(e).leftShift(Tensor.of(-1, 32).to(e)), DType.S32, 0, 0);
        assertLongs(ints(e, DType.U64, -1L).rightShift(ints(e, DType.U64, 63)), DType.U64, 1);
        assertLongs(ints(e, DType.S64, -1L).leftShift(63), DType.S64, Long.MIN_VALUE);
        JBurnException ex = assertThrows(JBurnException.class, () -> Tensor.of(1f).to(e).leftShift(1));
        assertEquals("leftShift", ex.op());
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void bitwiseOnNegatives(Engine e) {
        assertLongs(Tensor.of(0, -1, -2).to(e).bitwiseAnd(-1), DType.S32, 0, -1, -2);
        assertLongs(Tensor.of(0, -1, -2).to(e).bitwiseOr(-1), DType.S32, -1, -1, -1);
        assertLongs(Tensor.of(-1, -2, -3).to(e).bitwiseXor(2), DType.S32, -3, -4, -1);
        assertBools(Tensor.of(true, false).to(e).bitwiseXor(Tensor.of(true, true).to(e)), false, true);
        JBurnException ex = assertThrows(JBurnException.class, () -> Tensor.of(1f).to(e).bitwiseAnd(1));
        assertEquals("bitwiseAnd", ex.op());
        assertTrue(ex.reason().contains("bitwise operators expect integer tensors"), ex.reason());
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void nanComparisonsAndMinMax(Engine e) {
        Tensor a = Tensor.of(NAN, 1, NAN, 2).to(e);
        Tensor b = Tensor.of(NAN, NAN, 1, 2).to(e);
        assertBools(a.equal(b), false, false, false, true);
        assertBools(a.notEqual(b), true, true, true, false);
        assertBools(a.less(b), false, false, false, false);
        assertBools(a.lessEqual(b), false, false, false, true);
        assertBools(a.greater(b), false, false, false, false);
        assertBools(a.greaterEqual(b), false, false, false, true);
        assertDoubles(a.maximum(b), DType.F64, NAN, NAN, NAN, 2);
        assertDoubles(a.minimum(b), DType.F64, NAN, NAN, NAN, 2);
        assertDoubles(Tensor.of(-INF, INF, 3).to(e).maximum(Tensor.of(-INF, 1, 3).to(e)), DType.F64, -INF, INF, 3);
        double negZeroMin = Tensor.of(-0.0f).to(e).minimum(Tensor.of(0.0f).to(e)).toDoubleArray()[0];
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(negZeroMin));
        // u64 compares unsigned
        assertBools(ints(e, DType.U64, -1L).greater(ints(e, DType.U64, 1)), true);
        assertLongs(ints(e, DType.U64, -1L).minimum(ints(e, DType.U64, 1)), DType.U64, 1);
        // comparisons against weak scalars widen first rather than wrap
        assertBools(ints(e, DType.U8, 44).equal(300), false);
        assertBools(ints(e, DType.U8, 255).greater(-1), true);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void logicalOpsTreatNonZeroAndNanAsTrue(Engine e) {
        Tensor a = Tensor.of(NAN, 0, 2, 0).to(e);
        Tensor b = Tensor.of(1, 1, 0, 0).to(e);
        assertBools(a.logicalAnd(b), true, false, false, false);
        assertBools(a.logicalOr(b), true, true, true, false);
        assertBools(a.logicalXor(b), false, true, true, false);
        assertBools(a.logicalNot(), false, true, false, true);
        assertBools(Tensor.of(3, 0).to(e).logicalAnd(1), true, false);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void selectPromotesAndBroadcasts(Engine e) {
        Tensor pred = Tensor.of(0, 2, -1).to(e);
        Tensor r = pred.select(Tensor.of(1, 2, 3).to(e), Tensor.of(10.5f, 20.5f, 30.5f).to(e));
        assertDoubles(r, DType.F32, 10.5, 2, 3);
        Tensor x = Tensor.of(new float[][] {{-1, 2}, {3, -4}}).to(e);
        assertDoubles(x.greater(0).select(x, 0), DType.F32, 0, 2, 3, 0);
        assertDoubles(x.greater(0).select(1.0, -1.0), DType.F32, -1, 1, 1, -1);
        assertLongs(Tensor.of(true, false).to(e).select(7, 8), DType.S32, 7, 8);
        Tensor col = Tensor.of(new boolean[][] {{true}, {false}}).to(e);
        Tensor s = col.select(Tensor.of(1, 2, 3).to(e), Tensor.scalar(-1).to(e));
        assertEquals(Shape.of(2, 3), s.shape());
        assertLongs(s, DType.S32, 1, 2, 3, -1, -1, -1);
        assertLongs(ints(e, DType.U8, 1, 0).select(ints(e, DType.U8, 5, 5), ints(e, DType.S8, -1, -1)), DType.S16, 5, -1);
        assertEquals(Shape.of(0, 2), Tensor.zeros(Shape.of(0, 1), DType.PRED).to(e).select(Tensor.of(1, 2).to(e), 0).shape());
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void clipIsMaxThenMin(Engine e) {
        assertLongs(Tensor.of(-5, 0, 5).to(e).clip(-1, 3), DType.S32, -1, 0, 3);
        assertLongs(ints(e, DType.U8, 0, 200).clip(10, 300), DType.U16, 10, 200);
        assertDoubles(Tensor.of(-5, 0, 5).to(e).clip(0.5, 2.5), DType.F32, 0.5, 0.5, 2.5);
        assertDoubles(Tensor.of(NAN, 9, -9).to(e).clip(-1, 1), DType.F64, NAN, 1, -1);
        Tensor t = Tensor.of(1f, 5f, 9f).to(e).clip(Tensor.scalar(2.0).to(e), Tensor.scalar(6f).to(e));
        assertDoubles(t, DType.F64, 2, 5, 6);
        assertDoubles(Tensor.of(1f, 5f).to(e).clip(4, 2), DType.F32, 2, 2);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void bitcastReinterpretsSameWidthOnly(Engine e) {
        assertLongs(Tensor.of(1.0f, -0.0f).to(e).bitcast(DType.S32), DType.S32, 1065353216, Integer.MIN_VALUE);
        assertLongs(Tensor.of(-1).to(e).bitcast(DType.U32), DType.U32, 0xFFFF_FFFFL);
        assertDoubles(Tensor.of(0x3FF0_0000_0000_0000L).to(e).bitcast(DType.F64), DType.F64, 1.0);
        assertLongs(Tensor.of(true).to(e).bitcast(DType.U8), DType.U8, 1);
        JBurnException ex = assertThrows(JBurnException.class, () -> Tensor.of(1f).to(e).bitcast(DType.F64));
        assertEquals("bitcast", ex.op());
        assertTrue(ex.reason().contains("f32") && ex.reason().contains("f64"), ex.reason());
        assertThrows(JBurnException.class, () -> ints(e, DType.U8, 2).bitcast(DType.PRED));
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void broadcastingShapes(Engine e) {
        float[] av = new float[8 * 6];
        for (int i = 0; i < 8; i++) for (int k = 0; k < 6; k++) av[i * 6 + k] = i * 10 + k;
        float[] bv = new float[7 * 5];
        for (int j = 0; j < 7; j++) for (int l = 0; l < 5; l++) bv[j * 5 + l] = j * 100 + l * 1000;
        Tensor a = Tensor.of(av).to(e).reshape(8, 1, 6, 1);
        Tensor b = Tensor.of(bv).to(e).reshape(7, 1, 5);
        Tensor sum = a.add(b);
        assertEquals(Shape.of(8, 7, 6, 5), sum.shape());
        float[] s = sum.toFloatArray();
        for (int i = 0; i < 8; i++) for (int j = 0; j < 7; j++) for (int k = 0; k < 6; k++) for (int l = 0; l < 5; l++) {
            assertEquals(i * 10 + k + j * 100 + l * 1000, s[((i * 7 + j) * 6 + k) * 5 + l]);
        }
        float[] d = b.subtract(a).toFloatArray();   // the broadcast operand on the left this time
        assertEquals(100 + 2000 - 30 - 4, d[((3 * 7 + 1) * 6 + 4) * 5 + 2]);
        JBurnException ex = assertThrows(JBurnException.class,
                () -> Tensor.zeros(Shape.of(4, 2, 5), DType.F32).to(e).add(Tensor.zeros(Shape.of(3, 2, 5), DType.F32).to(e)));
        assertEquals("add", ex.op());
        assertTrue(ex.reason().contains("cannot broadcast tensor of dimensions [4, 2, 5] to [3, 2, 5]"), ex.reason());
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void emptyAndRankZero(Engine e) {
        Tensor empty = Tensor.zeros(Shape.of(0, 3), DType.F32).to(e);
        assertEquals(Shape.of(0, 3), empty.add(Tensor.of(1f, 2f, 3f).to(e)).shape());
        assertEquals(Shape.of(0, 3), empty.multiply(2).shape());
        assertEquals(Shape.of(0, 3), empty.exp().shape());
        assertEquals(DType.PRED, empty.less(1).dtype());
        assertEquals(0, empty.isNan().size());
        assertEquals(Shape.of(0), Tensor.zeros(Shape.of(0), DType.S32).to(e).add(Tensor.scalar(1).to(e)).shape());
        Tensor s = Tensor.scalar(2.5).to(e).add(Tensor.scalar(1.0).to(e));
        assertEquals(0, s.rank());
        assertEquals(3.5, s.item());
        assertEquals(3.0, Tensor.scalar(2.5).to(e).round().item());
        assertEquals(Shape.of(3), Tensor.scalar(1).to(e).subtract(Tensor.of(1, 2, 3).to(e)).shape());
        assertLongs(Tensor.scalar(1).to(e).subtract(Tensor.of(1, 2, 3).to(e)), DType.S32, 0, -1, -2);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void narrowFloatsRoundToNearestEven(Engine e) {
        Tensor one16 = reals(e, DType.F16, 1.0);
        assertDoubles(one16.add(reals(e, DType.F16, 0x1p-11)), DType.F16, 1.0);                  // tie -> even
        assertDoubles(one16.add(reals(e, DType.F16, 3 * 0x1p-11)), DType.F16, 1 + 0x1p-9);       // tie -> even
        assertDoubles(reals(e, DType.F16, 60000).add(10000), DType.F16, INF);                    // overflow
        Tensor oneBf = reals(e, DType.BF16, 1.0);
        assertDoubles(oneBf.add(reals(e, DType.BF16, 0x1p-8)), DType.BF16, 1.0);
        assertDoubles(oneBf.add(reals(e, DType.BF16, 3 * 0x1p-8)), DType.BF16, 1 + 0x1p-6);
        assertDoubles(reals(e, DType.F16, 2).sqrt(), DType.F16, Float.float16ToFloat(Float.floatToFloat16((float) Math.sqrt(2))));
        assertDoubles(reals(e, DType.BF16, 1, 2).divide(3), DType.BF16, 0.333984375, 0.66796875);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void integerWrapping(Engine e) {
        assertLongs(ints(e, DType.S8, -128, 127).abs(), DType.S8, -128, 127);
        assertLongs(ints(e, DType.U8, 1, 0).negate(), DType.U8, 255, 0);
        assertLongs(ints(e, DType.S32, Integer.MAX_VALUE).add(1), DType.S32, Integer.MIN_VALUE);
        assertLongs(ints(e, DType.U16, 300).multiply(300), DType.U16, (300 * 300) & 0xFFFF);
        assertLongs(ints(e, DType.U32, 0).add(-1), DType.S64, -1);          // weak -1 makes u32 -> s64
        assertLongs(ints(e, DType.U32, 0).subtract(1), DType.U32, 0xFFFF_FFFFL);
        assertLongs(ints(e, DType.U32, 0).subtract(ints(e, DType.U32, 1)), DType.U32, 0xFFFF_FFFFL);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void operandsOnDifferentEnginesAreRefused(Engine e) {
        Engine other = e == ORACLE ? VECTOR : ORACLE;
        JBurnException ex = assertThrows(JBurnException.class, () -> Tensor.of(1f).to(e).add(Tensor.of(1f).to(other)));
        assertEquals("add", ex.op());
        assertTrue(ex.reason().contains("different engines"), ex.reason());
        assertThrows(JBurnException.class, () -> Tensor.of(true).to(e).select(Tensor.of(1f).to(other), Tensor.of(2f).to(e)));
        assertThrows(JBurnException.class, () -> Tensor.of(1f).to(e).clip(Tensor.of(1f).to(other), Tensor.of(2f).to(e)));
    }
}
