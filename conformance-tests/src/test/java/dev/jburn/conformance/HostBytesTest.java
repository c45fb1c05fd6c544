package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.spi.TensorBuffers;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A small tensor made from host values remembers its bytes: reading it (a training step's key words, its learning
 * rate) or moving it to another engine needs no transfer from its engine, which on a GPU is a copy and a wait for all
 * queued work. An engine that counts its downloads checks that none happen, and its own bytes (read past the
 * remembered ones) that the remembered bytes are the engine's, NaN payloads and -0.0 included.
 */
class HostBytesTest {
    private static final AtomicLong DOWNLOADS = CountingEngine.DOWNLOADS;
    private static final Engine COUNTING = CountingEngine.ENGINE;

    /** The engine's own bytes of {@code t}, past anything remembered: a copy through the backend. */
    private static float[] engineFloats(Tensor t) {
        try (Tensor copy = TensorBuffers.copy(t, Engine.select("cpu"))) {
            return copy.toFloatArray();
        }
    }

    @Test
    void hostMadeTensorsAreReadWithoutDownloads() {
        float nanPayload = Float.intBitsToFloat(0x7fc0_1234);
        float[] values = {1.5f, -0.0f, nanPayload, Float.NEGATIVE_INFINITY, Float.MIN_VALUE};
        try (Tensor x = Tensor.of(values).to(COUNTING);
             Tensor lr = Tensor.full(Shape.scalar(), DType.BF16, 3e-4, COUNTING);
             Tensor key = Prng.key(7).to(COUNTING);
             Tensor folded = Prng.foldIn(key, 1);
             Tensor view = x.reshape(5, 1)) {
            long before = DOWNLOADS.get();
            float[] got = x.toFloatArray();
            double rate = lr.toDoubleArray()[0];
            long[] words = key.toLongArray();
            Number one = folded.get(1);
            float[] viewed = view.toFloatArray();
            assertEquals(0, DOWNLOADS.get() - before, "downloads of host-made tensors");
            for (int i = 0; i < values.length; i++) {
                assertEquals(Float.floatToRawIntBits(values[i]), Float.floatToRawIntBits(got[i]), "element " + i);
                assertEquals(Float.floatToRawIntBits(values[i]), Float.floatToRawIntBits(viewed[i]), "view element " + i);
            }
            float[] own = engineFloats(x);
            for (int i = 0; i < values.length; i++) assertEquals(Float.floatToRawIntBits(own[i]), Float.floatToRawIntBits(got[i]), "engine element " + i);
            assertEquals(Tensor.scalar(3e-4, DType.BF16).toDoubleArray()[0], rate);
            assertArrayEquals(Prng.key(7).toLongArray(), words);
            assertEquals(Prng.foldIn(Prng.key(7), 1).get(1), one);
        }
    }

    @Test
    void computedTensorsAreDownloadedAndInputsPassedThroughAreNot() {
        CompiledFunction f = Jit.compileList(xs -> List.of(xs.get(0).add(xs.get(1)), xs.get(1)));
        try (Tensor a = Tensor.of(1f, 2f).to(COUNTING); Tensor b = Tensor.of(10f, 20f).to(COUNTING)) {
            List<Tensor> out = f.apply(List.of(a, b));
            long before = DOWNLOADS.get();
            assertArrayEquals(new float[] {10f, 20f}, out.get(1).toFloatArray());
            assertEquals(0, DOWNLOADS.get() - before, "the passed-through input is read from the host");
            assertArrayEquals(new float[] {11f, 22f}, out.get(0).toFloatArray());
            assertEquals(1, DOWNLOADS.get() - before, "the sum is the engine's: one download");
            out.forEach(Tensor::close);
        }
    }

    @Test
    void largeTensorsAndClosedOnesAreNotServedFromTheHost() {
        Tensor big = Tensor.full(Shape.of(2048), DType.F32, 2, Engine.select("cpu")).to(COUNTING); // 8 KiB: past the limit
        long before = DOWNLOADS.get();
        assertEquals(2f, big.toFloatArray()[2047]);
        assertEquals(1, DOWNLOADS.get() - before);
        Tensor small = Tensor.of(1f).to(COUNTING);
        small.close();
        big.close();
        assertThrows(dev.jburn.JBurnException.class, small::toFloatArray, "a closed tensor stays unreadable");
        assertThrows(dev.jburn.JBurnException.class, () -> small.to(Engine.select("cpu")), "and unmovable");
    }
}
