package dev.jburn.kernels;

import dev.jburn.Shape;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DotPlanTest {
    private static final int[] NONE = {};

    @Test
    void matmulUsesOperandsInPlace() {
        DotPlan p = DotPlan.of(Shape.of(4, 6), new int[] {1}, NONE, Shape.of(6, 5), new int[] {0}, NONE);
        assertNull(p.permA());
        assertNull(p.permB());
        assertFalse(p.aTransposed() || p.bTransposed());
        assertEquals(1, p.batch());
        assertEquals(4, p.m());
        assertEquals(5, p.n());
        assertEquals(6, p.k());
    }

    @Test
    void transposedStorageBecomesACublasTransposeNotACopy() {
        // a^T b: a is [k, m]; a b^T: b is [n, k].
        DotPlan p = DotPlan.of(Shape.of(6, 4), new int[] {0}, NONE, Shape.of(5, 6), new int[] {1}, NONE);
        assertNull(p.permA());
        assertNull(p.permB());
        assertTrue(p.aTransposed() && p.bTransposed());
        assertEquals(4, p.m());
        assertEquals(5, p.n());
    }

    @Test
    void batchedAndMultiAxisContractions() {
        DotPlan p = DotPlan.of(Shape.of(2, 3, 4, 5), new int[] {2, 3}, new int[] {0}, Shape.of(2, 4, 5, 7), new int[] {1, 2}, new int[] {0});
        assertNull(p.permA());
        assertNull(p.permB());
        assertEquals(2, p.batch());
        assertEquals(3, p.m());
        assertEquals(20, p.k());
        assertEquals(7, p.n());
    }

    @Test
    void nonLeadingBatchOrScrambledContractionIsPermutedFirst() {
        // batch axis last in a: a [m, k, b], b [b, k, n].
        DotPlan p = DotPlan.of(Shape.of(3, 4, 2), new int[] {1}, new int[] {2}, Shape.of(2, 4, 5), new int[] {1}, new int[] {0});
        assertArrayEquals(new int[] {2, 0, 1}, p.permA());
        assertArrayEquals(new int[] {0, 1, 2}, p.permB());
        // contraction pairs in swapped order: a [k1, k2] contracted as (1, 0) with b [k2, k1] as (0, 1).
        DotPlan q = DotPlan.of(Shape.of(3, 4), new int[] {1, 0}, NONE, Shape.of(4, 3), new int[] {0, 1}, NONE);
        assertArrayEquals(new int[] {1, 0}, q.permA());
        assertNull(q.permB());
        assertEquals(12, q.k());
        assertEquals(1, q.m());
        assertEquals(1, q.n());
    }
}
