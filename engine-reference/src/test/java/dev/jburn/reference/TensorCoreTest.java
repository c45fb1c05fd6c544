package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.TensorScope;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Creation, read-back, printing, casting and memory release of tensors on the cpu engine. */
class TensorCoreTest {
    @Test
    void defaultEngineIsCpu() {
        assertEquals("cpu", Engine.defaultEngine().name());
        assertTrue(Engine.available().stream().anyMatch(i -> i.name().equals("cpu") && i.available()));
    }

    @Test
    void selectUnknownEngineListsAvailable() {
        JBurnException e = assertThrows(JBurnException.class, () -> Engine.select("quantum"));
        assertTrue(e.getMessage().contains("cpu"), e.getMessage());
        assertEquals("engine", e.op());
    }

    @Test
    void nestedArraysRoundTrip() {
        Tensor t = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
        assertEquals(Shape.of(2, 3), t.shape());
        assertEquals(DType.F32, t.dtype());
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, t.toFloatArray());
        assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6}, Tensor.of(new long[][] {{1, 2, 3}, {4, 5, 6}}).toLongArray());
        assertEquals(DType.PRED, Tensor.of(new boolean[][] {{true}, {false}}).dtype());
    }

    @Test
    void raggedArraysAreRefused() {
        assertThrows(JBurnException.class, () -> Tensor.fromArray(new int[][] {{1, 2}, {3}}));
        assertThrows(JBurnException.class, () -> Tensor.fromArray("text"));
    }

    @Test
    void castFollowsNxRules() {
        Tensor f = Tensor.of(Float.POSITIVE_INFINITY, Float.NaN, Float.NEGATIVE_INFINITY, 300.7f, -1.5f);
        assertArrayEquals(new long[] {255, 0, 0, 44, 255}, f.asType(DType.U8).toLongArray());
        assertArrayEquals(new int[] {Integer.MAX_VALUE, 0, Integer.MIN_VALUE, 300, -1}, f.asType(DType.S32).toIntArray());
        assertArrayEquals(new long[] {255}, Tensor.of(-1).asType(DType.U8).toLongArray());
        // bf16 rounds to nearest even: 1 + 2^-8 is a tie between 1 and 1 + 2^-7 -> 1
        assertEquals(1.0, Tensor.of(1.0f + 0x1p-8f).asType(DType.BF16).toDoubleArray()[0]);
        assertEquals(1.0 + 0x1p-7, Tensor.of(1.0f + 0x1p-8f + 0x1p-12f).asType(DType.BF16).toDoubleArray()[0]);
    }

    @Test
    void narrowFloatCastsRoundOnceFromTheExactValue() {
        // Rounding through f32 first would tie and round to even (1.0); the exact value is above the tie.
        assertEquals(1.0009765625, Tensor.of(1 + 0x1p-11 + 0x1p-40).asType(DType.F16).toDoubleArray()[0]);
        assertEquals(1 + 0x1p-7, Tensor.of(1 + 0x1p-8 + 0x1p-40).asType(DType.BF16).toDoubleArray()[0]);
        // Large integers: rounding through a double first would also tie.
        assertEquals(0x1p60 + 0x1p37, Tensor.of((1L << 60) + (1L << 36) + 1).asType(DType.F32).toDoubleArray()[0]);
        assertEquals(0x1p64, Tensor.of(-1L).asType(DType.U64).asType(DType.F32).toDoubleArray()[0]);
        assertEquals(-0x1p63, Tensor.of(Long.MIN_VALUE).asType(DType.BF16).toDoubleArray()[0]);
    }

    @Test
    void closedEmptyTensorsRefuseReads() {
        Tensor t = Tensor.zeros(Shape.of(0), DType.F32);
        t.close();
        assertThrows(JBurnException.class, t::toDoubleArray);
    }

    @Test
    void fullAndScalarsAndItem() {
        Tensor z = Tensor.full(Shape.of(2, 2), DType.S16, 7);
        assertArrayEquals(new long[] {7, 7, 7, 7}, z.toLongArray());
        assertEquals(2.5, Tensor.scalar(2.5).item());
        assertEquals(0, Tensor.scalar(2.5).rank());
        assertEquals(Shape.of(0, 3), Tensor.zeros(Shape.of(0, 3), DType.F32).shape());
    }

    @Test
    void reshapeSharesAndValidates() {
        Tensor t = Tensor.of(1, 2, 3, 4, 5, 6);
        assertEquals(Shape.of(3, 2), t.reshape(3, -1).shape());
        JBurnException e = assertThrows(JBurnException.class, () -> t.reshape(4, 2));
        assertEquals("reshape", e.op());
    }

    @Test
    void toStringShowsTypeShapeAndElides() {
        String s = Tensor.of(new int[][] {{1, 2}, {3, 4}}).toString();
        assertTrue(s.startsWith("Tensor<s32[2,2] cpu>"), s);
        assertTrue(s.contains("[[1, 2],\n [3, 4]]"), s);
        String big = Tensor.zeros(Shape.of(2000), DType.F32).toString();
        assertTrue(big.contains("..."), big);
        assertTrue(big.length() < 200);
    }

    @Test
    void closeAndScopeFreeMemory() {
        // Other tests' forgotten buffers may be freed by the GC meanwhile, so live bytes can only be bounded above.
        long before = HostBuffer.liveBytes();
        Tensor kept;
        try (TensorScope scope = Tensor.scope()) {
            Tensor a = Tensor.zeros(Shape.of(1000), DType.F64);
            Tensor b = a.reshape(10, 100);
            kept = scope.keep(Tensor.ones(Shape.of(10), DType.F32));
            assertFalse(a.isClosed());
            assertFalse(b.isClosed());
        }
        assertTrue(HostBuffer.liveBytes() <= before + 40, "the scope freed its 8000 bytes; the kept 40 remain");
        assertEquals(10, kept.toFloatArray().length);
        kept.close();
        assertTrue(HostBuffer.liveBytes() <= before);
        JBurnException e = assertThrows(JBurnException.class, kept::toFloatArray);
        assertTrue(e.getMessage().contains("closed"));
    }
}
