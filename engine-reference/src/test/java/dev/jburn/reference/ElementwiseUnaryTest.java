package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.ScalarMath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.jburn.reference.ElementwiseTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** Every unary op on every dtype, and the values of the ones with edge cases. */
class ElementwiseUnaryTest {
    private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;
    private static final double[] SAMPLE = {-3, -2.5, -1, -0.5, 0, 0.5, 1, 2.5, 3, 100};

    private static Tensor sample(DType t) {
        return t.isPred() ? Tensor.of(true, false, true) : Tensor.fromArray(SAMPLE, t);
    }

    @Test
    void everyUnaryOpOnEveryDtypeItAccepts() {
        for (UnaryOp op : UnaryOp.values()) {
            for (DType t : DType.values()) {
                Tensor x = sample(t);
                DType expected;
                try {
                    expected = op.resultType(t);
                } catch (JBurnException refused) {
                    JBurnException ex = assertThrows(JBurnException.class, () -> x.apply(op), op + " on " + t);
                    assertEquals(op.opName(), ex.op());
                    continue;
                }
                for (Engine e : new Engine[] {ORACLE, VECTOR}) {
                    Tensor r = x.to(e).apply(op);
                    assertEquals(expected, r.dtype(), op + " on " + t);
                    assertEquals(x.shape(), r.shape(), op + " on " + t);
                    r.toDoubleArray();
                }
                // the oracle and the vector engine agree (transcendentals within a few ulps)
                assertClose(x.to(ORACLE).apply(op), x.to(VECTOR).apply(op), 4, op + " on " + t);
            }
        }
    }

    @Test
    void floatMathOnIntegersComputesInF32() {
        assertDoubles(Tensor.of(0, 1).exp(), DType.F32, 1, (float) Math.E);
        assertDoubles(Tensor.fromArray(new long[] {4}, DType.U64).sqrt(), DType.F32, 2);
        assertDoubles(Tensor.of(true).sigmoid(), DType.F32, (float) (1 / (1 + Math.exp(-1))));
        assertDoubles(Tensor.fromArray(new double[] {4}, DType.F16).sqrt(), DType.F16, 2);
        assertDoubles(Tensor.of(4.0).rsqrt(), DType.F64, 0.5);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void roundingSignAndAbs(Engine e) {
        Tensor x = Tensor.of(0.5, 1.5, 2.5, -0.5, -2.5, 0.49999999999999994, -0.4, NAN, INF).to(e);
        double[] r = x.round().toDoubleArray();
        assertArrayEquals(new double[] {1, 2, 3, -1, -3, 0, -0.0, NAN, INF}, r);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(r[6]));
        assertDoubles(Tensor.of(-1.5f, 1.5f).to(e).floor(), DType.F32, -2, 1);
        assertDoubles(Tensor.of(-1.5f, 1.5f).to(e).ceil(), DType.F32, -1, 2);
        assertLongs(Tensor.of(7, -7).to(e).round(), DType.S32, 7, -7);
        assertDoubles(Tensor.of(NAN, -3, 0, -0.0, 2).to(e).sign(), DType.F64, NAN, -1, 0, -0.0, 1);
        assertLongs(ints(e, DType.U8, 0, 200).sign(), DType.U8, 0, 1);
        assertLongs(ints(e, DType.S16, -7, 0, 7).sign(), DType.S16, -1, 0, 1);
        assertLongs(Tensor.of(true, false).to(e).sign(), DType.U8, 1, 0);
        assertLongs(Tensor.of(true, false).to(e).negate(), DType.U8, 255, 0);
        assertLongs(Tensor.of(Integer.MIN_VALUE, -3).to(e).abs(), DType.S32, Integer.MIN_VALUE, 3);
        assertLongs(Tensor.of(Long.MIN_VALUE, -3L).to(e).negate(), DType.S64, Long.MIN_VALUE, 3);
        assertLongs(ints(e, DType.U64, -1L).abs(), DType.U64, -1L);
        assertDoubles(Tensor.of(-0.0f, -2f).to(e).abs(), DType.F32, 0, 2);
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void predicatesAndBitOps(Engine e) {
        assertBools(Tensor.of(NAN, 1, INF, -INF).to(e).isNan(), true, false, false, false);
        assertBools(Tensor.of(NAN, 1, INF, -INF).to(e).isInfinity(), false, false, true, true);
        assertBools(Tensor.of(1, 2).to(e).isNan(), false, false);
        assertBools(Tensor.of(1, 2).to(e).isInfinity(), false, false);
        assertBools(Tensor.of(0, 5).to(e).logicalNot(), true, false);
        assertBools(Tensor.of(true, false).to(e).bitwiseNot(), false, true);
        assertLongs(ints(e, DType.S8, 0, -1, 5).bitwiseNot(), DType.S8, -1, 0, -6);
        assertLongs(ints(e, DType.U8, 0, 255, 5).bitwiseNot(), DType.U8, 255, 0, 250);
        assertLongs(ints(e, DType.S8, -1, 0, 7).populationCount(), DType.S8, 8, 0, 3);
        assertLongs(ints(e, DType.U64, -1L).populationCount(), DType.U64, 64);
        assertLongs(ints(e, DType.U8, 1, 0, 128).countLeadingZeros(), DType.U8, 7, 8, 0);
        assertLongs(ints(e, DType.S32, -1, 1).countLeadingZeros(), DType.S32, 0, 31);
        assertLongs(ints(e, DType.S64, 1).countLeadingZeros(), DType.S64, 63);
        JBurnException ex = assertThrows(JBurnException.class, () -> Tensor.of(1f).to(e).populationCount());
        assertEquals("populationCount", ex.op());
    }

    @ParameterizedTest
    @MethodSource("dev.jburn.reference.ElementwiseTestSupport#engines")
    void transcendentalValues(Engine e) {
        Tensor x = Tensor.of(0.5).to(e);
        assertEquals(0.5204998778130465, x.erf().item());
        assertEquals(1 - 0.5204998778130465, (double) x.erfc().item(), 1e-16);
        assertEquals(0.4769362762044699, (double) x.erfInv().item(), 2 * Math.ulp(0.4769362762044699));
        assertEquals(ScalarMath.erfInvF32(0.5f), (float) (double) Tensor.of(0.5f).to(e).erfInv().item());
        assertDoubles(Tensor.of(-1.0, 1.0, 2.0).to(e).erfInv(), DType.F64, -INF, INF, NAN);
        assertEquals(ScalarMath.asinh(2), Tensor.of(2.0).to(e).asinh().item());
        assertDoubles(Tensor.of(1.0, 0.5).to(e).acosh(), DType.F64, 0, NAN);
        assertDoubles(Tensor.of(1.0, -1.0).to(e).atanh(), DType.F64, INF, -INF);
        assertDoubles(Tensor.of(-1000.0, 0, 1000).to(e).sigmoid(), DType.F64, 0, 0.5, 1);
        assertDoubles(Tensor.of(-1000f, 0f, 1000f).to(e).sigmoid(), DType.F32, 0, 0.5, 1);
        assertDoubles(Tensor.of(-8.0, 27).to(e).cbrt(), DType.F64, -2, 3);
        assertDoubles(Tensor.of(0.0, -1).to(e).log(), DType.F64, -INF, NAN);
        assertDoubles(Tensor.of(1e-20).to(e).log1p(), DType.F64, 1e-20);
        assertDoubles(Tensor.of(1e-20).to(e).expm1(), DType.F64, 1e-20);
        assertDoubles(Tensor.of(1.0, -1.0).to(e).apply(BinaryOp.ATAN2, -1.0), DType.F64, Math.atan2(1, -1), Math.atan2(-1, -1));
        assertDoubles(Tensor.of(0, 1).to(e).atan2(Tensor.of(1, 0).to(e)), DType.F32, 0, (float) (Math.PI / 2));
    }

    @Test
    void roundTripsThroughTheGenericApply() {
        Tensor x = Tensor.zeros(Shape.of(2, 2), DType.F32);
        assertEquals(Shape.of(2, 2), x.apply(UnaryOp.COS).shape());
        assertEquals(DType.PRED, x.apply(BinaryOp.LESS, 1).dtype());
    }
}
