package dev.jburn;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Broadcasting and axis normalization (NX-SEMANTICS §2). */
class ShapeTest {
    @Test
    void broadcasting() {
        assertEquals(Shape.of(8, 7, 6, 5), Shape.broadcast("add", Shape.of(8, 1, 6, 1), Shape.of(7, 1, 5)));
        assertEquals(Shape.of(5, 4), Shape.broadcast("add", Shape.of(5, 4), Shape.of(1)));
        assertEquals(Shape.of(2, 3), Shape.broadcast("add", Shape.scalar(), Shape.of(2, 3)));
        assertEquals(Shape.of(0, 3), Shape.broadcast("add", Shape.of(0, 1), Shape.of(3)));
        JBurnException e = assertThrows(JBurnException.class, () -> Shape.broadcast("add", Shape.of(4, 2, 5), Shape.of(3, 2, 5)));
        assertEquals("add", e.op());
        assertEquals("add: cannot broadcast tensor of dimensions [4, 2, 5] to [3, 2, 5]", e.getMessage());
    }

    @Test
    void axes() {
        Shape s = Shape.of(4, 2, 1, 4);
        assertEquals(2, s.normalizeAxis("sum", -2));
        JBurnException e = assertThrows(JBurnException.class, () -> Shape.of(2, 2).normalizeAxis("sum", 2));
        assertTrue(e.getMessage().contains("given axis (2) invalid"), e.getMessage());
        assertThrows(JBurnException.class, () -> s.normalizeAxes("sum", 1, -3));
        assertArrayEquals(new int[] {3, 0}, s.normalizeAxes("sum", -1, 0));
    }

    @Test
    void sizesAndStrides() {
        assertEquals(1, Shape.scalar().size());
        assertEquals(0, Shape.of(3, 0).size());
        assertArrayEquals(new long[] {12, 4, 1}, Shape.of(2, 3, 4).strides());
        assertThrows(JBurnException.class, () -> Shape.of(-2));
        assertThrows(JBurnException.class, () -> Shape.of(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertTrue(Shape.of(3, 1).broadcastsTo(Shape.of(2, 3, 4)));
        assertFalse(Shape.of(3, 2).broadcastsTo(Shape.of(2, 3, 4)));
        assertTrue(Shape.of(3, 1).broadcastsTo(Shape.of(2, 3, 4).withDim(2, 1)));
    }

    @Test
    void openAxesDescribeInputsButNeverMakeTensors() {
        Shape open = Shape.of(-1, 784);
        assertTrue(open.isOpen());
        assertFalse(Shape.of(2, 3).isOpen());
        assertEquals("[-1, 784]", open.toString());
        JBurnException e = assertThrows(JBurnException.class, open::size);
        assertTrue(e.getMessage().contains("open axis"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Tensor.zeros(open, DType.F32));
        assertEquals("zeros", e.op());
        assertThrows(JBurnException.class, () -> Tensor.iota(open, DType.S32));
    }
}
