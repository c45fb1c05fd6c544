package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** iota, eye, arange and linspace. */
class CreationTest {
    @Test
    void iotaFlatAndAlongAxis() {
        assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5}, Tensor.iota(Shape.of(2, 3), DType.S64).toLongArray());
        assertArrayEquals(new long[] {0, 0, 0, 1, 1, 1}, Tensor.iota(Shape.of(2, 3), DType.U8, 0).toLongArray());
        assertArrayEquals(new long[] {0, 1, 2, 0, 1, 2}, Tensor.iota(Shape.of(2, 3), DType.S16, -1).toLongArray());
        assertArrayEquals(new double[] {0, 1, 2}, Tensor.iota(Shape.of(3), DType.BF16).toDoubleArray());
        assertEquals(0, Tensor.iota(Shape.of(0, 4), DType.F32).size());
        assertThrows(JBurnException.class, () -> Tensor.iota(Shape.of(2), DType.F32, 1));
    }

    @Test
    void eyeIsIdentity() {
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, Tensor.eye(3, DType.F64).toDoubleArray());
        assertArrayEquals(new long[] {1, 0, 0, 0, 1, 0}, Tensor.eye(2, 3, DType.S32).toLongArray());
        assertEquals(DType.PRED, Tensor.eye(2, DType.PRED).dtype());
    }

    @Test
    void arangeAndLinspace() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, Tensor.arange(5).toIntArray());
        assertArrayEquals(new long[] {10, 7, 4, 1}, Tensor.arange(10, 0, -3, DType.S64).toLongArray());
        assertArrayEquals(new double[] {0, 0.5, 1.0, 1.5}, Tensor.arange(0.0, 2.0, 0.5, DType.F64).toDoubleArray());
        assertEquals(0, Tensor.arange(5, 5, 1, DType.S32).size());
        assertThrows(JBurnException.class, () -> Tensor.arange(0, 5, 0, DType.S32));
        assertArrayEquals(new double[] {0, 0.25, 0.5, 0.75, 1}, Tensor.linspace(0, 1, 5, DType.F64).toDoubleArray());
        assertArrayEquals(new double[] {0, 0.25, 0.5, 0.75}, Tensor.linspace(0, 1, 4, false, DType.F64).toDoubleArray());
        assertEquals(1.0, Tensor.linspace(0, 1, 7, DType.F32).toDoubleArray()[6]);
    }
}
