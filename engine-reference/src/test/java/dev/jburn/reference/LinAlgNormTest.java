package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.LinAlg;
import dev.jburn.LinAlg.Ord;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static dev.jburn.reference.LinAlgTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** norm: Nx's examples for every ord, axes and keepAxes, dtypes, and the errors. */
class LinAlgNormTest {

    private static void assertNorm(double expected, Tensor t, Ord ord) {
        try (t; Tensor n = LinAlg.norm(t, ord)) {
            assertEquals(Shape.scalar(), n.shape());
            assertEquals(t.dtype().toFloating(), n.dtype());
            assertEquals(expected, n.item().doubleValue(), Math.abs(expected) * 1e-6 + 1e-12, ord + " of " + t);
        }
    }

    @Test
    void vectorNormsNxExamples() {
        assertNorm(5, Tensor.of(3, 4), Ord.DEFAULT);
        assertNorm(7, Tensor.of(3, 4), Ord.p(1));
        assertNorm(4, Tensor.of(3, -4), Ord.INF);
        assertNorm(3, Tensor.of(3, -4), Ord.NEG_INF);
        assertNorm(2, Tensor.of(3, -4, 0, 0), Ord.p(0));
        assertNorm(5, Tensor.of(3, 4), Ord.p(2));
        assertNorm(Math.cbrt(27 + 64), Tensor.of(3, -4), Ord.p(3));
        assertNorm(Math.pow(Math.pow(3, 0.5) + Math.pow(4, 0.5), 2), Tensor.of(3.0, 4.0), Ord.p(0.5));
        assertNorm(1 / (1 / 3.0 + 1 / 4.0), Tensor.of(3.0, 4.0), Ord.p(-1));
        assertNorm(4, Tensor.of(3.0, -4.0), Ord.p(Double.POSITIVE_INFINITY));
        assertNorm(0, Tensor.of(0, 0), Ord.DEFAULT);
        try (Tensor n = LinAlg.norm(Tensor.of(3f, 4f))) {
            assertEquals(5.0, n.item().doubleValue());
        }
    }

    @Test
    void matrixNormsNxExamples() {
        assertNorm(5, Tensor.of(new int[][] {{3, -1}, {2, -4}}), Ord.p(-1));
        assertNorm(6, Tensor.of(new int[][] {{3, -2}, {2, -4}}), Ord.p(1));
        assertNorm(5, Tensor.of(new int[][] {{3, -2}, {2, -4}}), Ord.NEG_INF);
        assertNorm(6, Tensor.of(new int[][] {{3, -2}, {2, -4}}), Ord.INF);
        assertNorm(5, Tensor.of(new int[][] {{3, 0}, {0, -4}}), Ord.FROBENIUS);
        assertNorm(14, Tensor.of(new int[][] {{1, 0, 0}, {0, -4, 0}, {0, 0, 9}}), Ord.NUCLEAR);
        assertNorm(1, Tensor.of(new int[][] {{1, 0, 0}, {0, -4, 0}, {0, 0, 9}}), Ord.p(-2));
        assertNorm(9, Tensor.of(new int[][] {{1, 0, 0}, {0, -4, 0}, {0, 0, 9}}), Ord.p(2));
        assertNorm(5, Tensor.of(new int[][] {{3, 0}, {0, -4}}), Ord.DEFAULT);
        assertNorm(0, Tensor.of(new int[][] {{0, 0}, {0, 0}}), Ord.DEFAULT);
        // spectral norm of a non-diagonal matrix: sqrt of the largest eigenvalue of AᵀA
        double[] a = {1, 2, 3, 4};
        double tr = 1 + 4 + 9 + 16, det = (1 * 4 - 2 * 3) * (1 * 4 - 2 * 3);
        assertNorm(Math.sqrt((tr + Math.sqrt(tr * tr - 4 * det)) / 2), of(a, DType.F64, Engine.defaultEngine(), 2, 2), Ord.p(2));
    }

    @Test
    void axesAndKeepAxes() {
        try (Tensor t = Tensor.of(new int[][] {{3, 4}, {0, -4}})) {
            try (Tensor n = LinAlg.norm(t, Ord.DEFAULT, new int[] {1}, false)) {
                assertEquals(Shape.of(2), n.shape());
                assertValues(new double[] {5, 4}, n, 0);
            }
            try (Tensor n = LinAlg.norm(t, Ord.DEFAULT, new int[] {0}, true)) {
                assertEquals(Shape.of(1, 2), n.shape());
                assertValues(new double[] {3, Math.sqrt(32)}, n, 1e-7);
            }
            try (Tensor n = LinAlg.norm(t, Ord.INF, new int[] {-1}, false)) {
                assertValues(new double[] {4, 4}, n, 0);
            }
            try (Tensor n = LinAlg.norm(t, Ord.p(1), new int[] {0, 1}, true)) {
                assertEquals(Shape.of(1, 1), n.shape());
                assertValues(new double[] {8}, n, 0);
            }
        }
        // Batched matrix norms over the last two axes, and over swapped axes (a transposed matrix).
        try (Tensor t = Tensor.fromArray(new int[][][] {{{3, -2}, {2, -4}}, {{1, 0}, {0, -7}}})) {
            try (Tensor n = LinAlg.norm(t, Ord.p(1), new int[] {1, 2}, false)) {
                assertValues(new double[] {6, 7}, n, 0);
            }
            try (Tensor n = LinAlg.norm(t, Ord.p(1), new int[] {2, 1}, false)) {
                assertValues(new double[] {6, 7}, n, 0);   // column sums of the transpose are row sums
            }
            try (Tensor n = LinAlg.norm(t, Ord.INF, new int[] {2, 1}, false)) {
                assertValues(new double[] {6, 7}, n, 0);
            }
            try (Tensor n = LinAlg.norm(t, Ord.NUCLEAR, new int[] {1, 2}, true)) {
                assertEquals(Shape.of(2, 1, 1), n.shape());
                assertEquals(8.0, n.toDoubleArray()[1], 1e-6);
            }
        }
    }

    @Test
    void everyFloatTypeAndLargeValues() {
        for (DType t : FLOATS) {
            try (Tensor v = of(new double[] {3, 4}, t, Engine.defaultEngine(), 2); Tensor n = LinAlg.norm(v)) {
                assertEquals(t, n.dtype());
                assertEquals(5.0, n.item().doubleValue(), 0.05);
            }
        }
        // The max-magnitude scaling keeps squares from overflowing.
        try (Tensor n = LinAlg.norm(Tensor.of(3e30f, 4e30f))) {
            assertEquals(5e30, n.item().doubleValue(), 5e30 * 1e-6);
        }
        try (Tensor n = LinAlg.norm(Tensor.of(1f, Float.POSITIVE_INFINITY))) {
            assertEquals(Double.POSITIVE_INFINITY, n.item().doubleValue());
        }
    }

    @Test
    void errors() {
        try (Tensor v = Tensor.of(3, 4); Tensor m = Tensor.of(new int[][] {{1, 2}, {3, 4}}); Tensor r3 = Tensor.zeros(Shape.of(2, 2, 2), DType.F32)) {
            JBurnException e = assertThrows(JBurnException.class, () -> LinAlg.norm(v, Ord.FROBENIUS));
            assertEquals("norm", e.op());
            assertEquals("expected a 2-D tensor for ord: frobenius, got a 1-D tensor", e.reason());
            assertTrue(assertThrows(JBurnException.class, () -> LinAlg.norm(v, Ord.NUCLEAR)).reason().contains("nuclear norm"));
            assertTrue(assertThrows(JBurnException.class, () -> LinAlg.norm(m, Ord.p(3))).reason().contains("invalid ord for a matrix norm, got: 3"));
            assertTrue(assertThrows(JBurnException.class, () -> LinAlg.norm(m, Ord.p(0))).reason().contains("invalid ord"));
            assertTrue(assertThrows(JBurnException.class, () -> LinAlg.norm(r3)).reason().contains("expected 1-D or 2-D tensor, got tensor with shape [2, 2, 2]"));
            assertTrue(assertThrows(JBurnException.class, () -> LinAlg.norm(r3, Ord.DEFAULT, new int[] {0, 1, 2}, false)).reason().contains("two axes"));
            assertThrows(JBurnException.class, () -> Ord.p(Double.NaN));
        }
    }
}
