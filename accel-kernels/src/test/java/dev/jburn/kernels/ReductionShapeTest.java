package dev.jburn.kernels;

import dev.jburn.Shape;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ReductionShapeTest {
    @Test
    void shapesAreSimplified() {
        ReductionShape all = ReductionShape.of(Shape.of(4, 5, 6), new int[] {0, 1, 2});
        assertEquals(Shape.of(1, 120), all.shape());
        assertArrayEquals(new int[] {1}, all.axes());
        ReductionShape rows = ReductionShape.of(Shape.of(4, 1, 5, 6), new int[] {2, 3});
        assertEquals(Shape.of(4, 30), rows.shape());
        assertArrayEquals(new int[] {1}, rows.axes());
        ReductionShape middle = ReductionShape.of(Shape.of(2, 3, 4, 5), new int[] {1, 2});
        assertEquals(Shape.of(2, 12, 5), middle.shape());
        assertArrayEquals(new int[] {1}, middle.axes());
        ReductionShape leading = ReductionShape.of(Shape.of(3, 4), new int[] {0});
        assertEquals(Shape.of(1, 3, 4), leading.shape());
        assertArrayEquals(new int[] {1}, leading.axes());
        ReductionShape none = ReductionShape.of(Shape.of(3, 1), new int[] {1});
        assertEquals(Shape.of(3, 1), none.shape());
        assertArrayEquals(new int[] {1}, none.axes());
        ReductionShape empty = ReductionShape.of(Shape.of(0, 3), new int[] {0});
        assertEquals(Shape.of(1, 0, 3), empty.shape());
        assertArrayEquals(new int[] {1}, empty.axes());
    }
}
