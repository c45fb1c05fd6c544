package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** argmax / argmin: Nx examples, tie breaks, the NaN rule, keepAxis, every dtype, errors. */
class ReductionArgTest {
    private static final float NAN = Float.NaN, INF = Float.POSITIVE_INFINITY;

    private static Tensor nxExample() {
        return Tensor.fromArray(new int[][][] {{{4, 2, 3}, {1, -5, 3}}, {{6, 2, 3}, {4, 8, 3}}});
    }

    @Test
    void flattenedIndexMatchesNx() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor r = nxExample().to(e).argmax();
            assertEquals(DType.S32, r.dtype());
            assertEquals(Shape.scalar(), r.shape());
            assertEquals(10L, r.item());
            assertEquals(4L, nxExample().to(e).argmin().item());
        }
    }

    @Test
    void tieBreakHighAndLow() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = nxExample().to(e);
            Tensor high = x.argmax(1, false, true);
            assertEquals(Shape.of(2, 3), high.shape());
            assertArrayEquals(new int[] {0, 0, 1, 0, 1, 1}, high.toIntArray());
            assertArrayEquals(new int[] {0, 0, 0, 0, 1, 0}, x.argmax(1).toIntArray());
            assertArrayEquals(new int[] {1, 1, 0, 1, 0, 0}, x.argmin(1).toIntArray());
            assertArrayEquals(new int[] {1, 1, 1, 1, 0, 1}, x.argmin(1, false, true).toIntArray());
            Tensor kept = x.argmax(-1, true, false);
            assertEquals(Shape.of(2, 2, 1), kept.shape());
            assertArrayEquals(new int[] {0, 2, 0, 1}, kept.toIntArray());
        }
    }

    @Test
    void nanWinsAndTheLastNaNIsChosen() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = Tensor.of(new float[][] {{NAN, NAN, 1}, {NAN, INF, 1}, {-INF, NAN, 1}, {INF, INF, 1}}).to(e);
            assertArrayEquals(new int[] {1, 0, 1, 0}, x.argmax(1).toIntArray());
            assertArrayEquals(new int[] {1, 0, 1, 1}, x.argmax(1, false, true).toIntArray());
            assertArrayEquals(new int[] {1, 0, 1, 2}, x.argmin(1).toIntArray());
            assertArrayEquals(new int[] {1, 0, 1, 2}, x.argmin(1, false, true).toIntArray());
            for (DType t : new DType[] {DType.F16, DType.BF16, DType.F64}) {
                assertArrayEquals(new int[] {1, 0, 1, 0}, x.asType(t).argmax(1).toIntArray(), t.toString());
            }
            assertEquals(7L, x.argmax().item(), "the last NaN of the flattened tensor");
        }
    }

    @Test
    void signedZerosTie() {
        Tensor z = Tensor.of(-0f, 0f);
        assertEquals(0L, z.argmax().item());
        assertArrayEquals(new int[] {1}, z.argmax(0, true, true).toIntArray());
        assertEquals(0L, z.argmin().item());
    }

    @Test
    void everyDtypeAndUnsigned64() {
        for (DType t : DType.values()) {
            if (t.isPred()) continue;
            Tensor x = Tensor.fromArray(new int[] {3, 7, 1, 7, 1}, t);
            assertEquals(1L, x.argmax().item(), t.toString());
            assertEquals(3L, x.argmax(0, false, true).item(), t.toString());
            assertEquals(2L, x.argmin().item(), t.toString());
            assertEquals(4L, x.argmin(0, false, true).item(), t.toString());
        }
        Tensor u = Tensor.fromArray(new long[] {1, -1L, Long.MAX_VALUE}, DType.U64);
        assertEquals(1L, u.argmax().item());
        assertEquals(0L, u.argmin().item());
        Tensor p = Tensor.of(false, true, true);
        assertEquals(1L, p.argmax().item());
        assertEquals(0L, p.argmin().item());
    }

    @Test
    void emptyAxisIsAnErrorButEmptyOuterAxesAreFine() {
        Tensor x = Tensor.zeros(Shape.of(2, 0), DType.F32);
        JBurnException e = assertThrows(JBurnException.class, () -> x.argmax(1));
        assertEquals("argmax", e.op());
        assertTrue(e.reason().contains("[2, 0]"), e.reason());
        assertEquals("argmin", assertThrows(JBurnException.class, x::argmin).op());
        assertEquals(Shape.of(0), x.argmax(0).shape());
        assertEquals(Shape.of(0, 1), Tensor.zeros(Shape.of(0, 3), DType.F32).argmin(1, true, false).shape());
    }

    @Test
    void scalarsAndBadAxes() {
        assertEquals(0L, Tensor.scalar(5f).argmax().item());
        assertEquals("argmax", assertThrows(JBurnException.class, () -> Tensor.scalar(5f).argmax(0)).op());
        assertEquals("argmin", assertThrows(JBurnException.class, () -> Tensor.of(1, 2).argmin(1)).op());
    }

    @Test
    void parallelAndOracleAgreeOnLargeInputs() {
        java.util.Random r = new java.util.Random(7);
        float[] v = new float[300 * 257];
        for (int i = 0; i < v.length; i++) v[i] = r.nextInt(50) - 25;
        v[1234] = NAN;
        Tensor x = Tensor.of(v).reshape(300, 257);
        for (int axis = 0; axis < 2; axis++) {
            for (boolean high : new boolean[] {false, true}) {
                int[] want = x.to(ReductionEngines.ORACLE).argmax(axis, false, high).toIntArray();
                assertArrayEquals(want, x.to(ReductionEngines.PARALLEL).argmax(axis, false, high).toIntArray());
                assertArrayEquals(x.to(ReductionEngines.ORACLE).argmin(axis, false, high).toIntArray(),
                        x.to(ReductionEngines.PARALLEL).argmin(axis, false, high).toIntArray());
            }
        }
    }
}
