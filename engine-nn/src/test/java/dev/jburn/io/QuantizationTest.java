package dev.jburn.io;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.layers.Quantized;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** Quantization to f16, bf16 and int8: the formula, predictions near the f32 model's, model files of version 2. */
class QuantizationTest {
    @TempDir Path dir;

    /** A small CNN with batch norm: conv and dense kernels to quantize, a layer (batch norm) whose parameters int8 leaves alone. */
    static Model cnn() {
        return Model.input("image", Shape.of(-1, 8, 8, 2)).conv2d(4, 3, Activation.RELU).batchNorm().maxPool2d(2)
                .flatten().dense(16, Activation.RELU).dense(3).named("small_cnn");
    }

    static Tensor images(int n) { return Prng.normalSplit(Prng.key(5), Shape.of(n, 8, 8, 2), DType.F32, 0, 1); }

    /** The direct formula, element by element on the host: scale = max|w[..., c]| / 127, q = round half away (w / scale), clipped. */
    @Test
    void int8ValuesAndScalesAreTheDirectFormulaAndTheErrorIsAtMostHalfAStep() {
        float[] w = Prng.normalSplit(Prng.key(3), Shape.of(3, 3, 2, 5), DType.F32, 0, 1).multiply(0.3).toFloatArray();
        int c = 5;
        for (int i = 4; i < w.length; i += c) w[i] = 0;          // channel 4: all zeros
        w[7] = 2.5f;                                               // channel 2: one large weight sets its scale
        Tensor kernel = Tensor.of(w).reshape(3, 3, 2, 5);
        Quantization.Int8 q = Quantization.int8PerChannel(kernel);
        assertEquals(DType.S8, q.values().dtype());
        assertEquals(Shape.of(3, 3, 2, 5), q.values().shape());
        assertEquals(Shape.of(5), q.scale().shape());
        float[] scale = q.scale().toFloatArray();
        long[] values = q.values().asType(DType.S64).toLongArray();
        float[] back = Quantized.dequantize(q.values(), q.scale()).toFloatArray();
        for (int ch = 0; ch < c; ch++) {
            float amax = 0;
            for (int i = ch; i < w.length; i += c) amax = Math.max(amax, Math.abs(w[i]));
            float s = amax == 0 ? Float.MIN_NORMAL : amax / 127f;
            assertEquals(s, scale[ch], "scale of channel " + ch);
            for (int i = ch; i < w.length; i += c) {
                float r = w[i] / s;
                long expected = (long) Math.max(-127, Math.min(127, Math.signum(r) * Math.floor(Math.abs(r) + 0.5)));
                assertEquals(expected, values[i], "value " + i);
                assertEquals(values[i] * s, back[i], Math.ulp(back[i]), "dequantized " + i);
                assertTrue(Math.abs(w[i] - back[i]) <= s / 2 * (1 + 1e-6), "error of " + i + ": " + w[i] + " vs " + back[i] + ", scale " + s);
            }
        }
        assertEquals(127, values[7], "the largest weight maps to 127");
        for (int i = 4; i < w.length; i += c) assertEquals(0, back[i], "a zero channel dequantizes to exact zeros");
    }

    @Test
    void int8QuantizesDenseAndConvKernelsOnlyAndPredictsNearTheF32Model() {
        Model m = cnn();
        ModelState s = m.init(Prng.key(1));
        Quantization.Result q = Quantization.quantize(m, s, DType.S8);
        Map<String, Tensor> p = q.state().params();
        assertEquals(DType.S8, p.get("conv2d_0.kernel").dtype());
        assertEquals(Shape.of(4), p.get("conv2d_0.kernel_scale").shape());
        assertEquals(DType.S8, p.get("dense_0.kernel").dtype());
        assertEquals(DType.S8, p.get("dense_1.kernel").dtype());
        assertEquals(DType.F32, p.get("dense_0.bias").dtype());
        assertEquals(DType.F32, p.get("batch_norm_0.gamma").dtype(), "batch norm keeps its parameters under int8");
        assertTrue(q.state().frozen().containsAll(Set.of("dense_0.kernel", "dense_0.kernel_scale")), "int8 kernels are not trained");
        assertEquals(List.of("image", "conv2d_0", "batch_norm_0", "max_pool2d_0", "flatten_0", "dense_0", "dense_1"),
                q.model().layers().stream().map(Model.LayerInfo::name).toList(), "layer names survive");
        assertEquals("quantized_dense", q.model().layers().get(5).kind());
        Tensor x = images(6);
        float[] ref = m.predict(s, x).toFloatArray(), got = q.model().predict(q.state(), x).toFloatArray();
        assertClose(ref, got, 0.03, "int8");
        // The compiled predict equals the eager pure call: the dequantization is part of the graph, not a host step.
        float[] eager = q.model().call(q.state().params(), q.state().state(), List.of(x), false, null).outputs().getFirst().toFloatArray();
        assertArrayEquals(eager, got, 1e-6f);
        // Under a bf16 mixed-precision call the dequantized kernels go on in bf16, like every other parameter.
        float[] mixed = q.model().call(q.state().params(), q.state().state(), List.of(x), false, null, DType.BF16).outputs().getFirst().toFloatArray();
        assertClose(ref, mixed, 0.1, "int8 under bf16 compute");
    }

    @Test
    void f16AndBf16StoreEveryFloatParameterNarrowAndPredictOnTheRoundedWeights() {
        Model m = cnn();
        ModelState s = m.init(Prng.key(2));
        Tensor x = images(4);
        float[] ref = m.predict(s, x).toFloatArray();
        for (DType t : List.of(DType.F16, DType.BF16)) {
            Quantization.Result q = Quantization.quantize(m, s, t);
            s.params().forEach((k, v) -> {
                Tensor n = q.state().params().get(k);
                assertEquals(t, n.dtype(), k);
                assertArrayEquals(v.asType(t).bitcast(DType.S16).toLongArray(), n.bitcast(DType.S16).toLongArray(), k);
            });
            assertEquals(DType.F32, q.state().state().get("batch_norm_0.var").dtype(), "statistics stay f32");
            float[] got = q.model().predict(q.state(), x).toFloatArray();
            assertEquals(DType.F32, q.model().predict(q.state(), x).dtype(), "outputs keep their type");
            assertClose(ref, got, t == DType.F16 ? 0.005 : 0.03, t.shortName());
        }
    }

    @Test
    void quantizedModelsRoundTripThroughModelFilesBitForBitAsVersion2() throws Exception {
        Model m = cnn();
        ModelState s = m.init(Prng.key(4));
        Tensor x = images(3);
        Path f32 = dir.resolve("f32.jburn");
        ModelFile.save(f32, m, s);
        assertEquals(ModelFile.VERSION_1, SafeTensors.readMetadata(f32).get("version"), "a model without quantized layers stays version 1");
        for (DType t : List.of(DType.F16, DType.BF16, DType.S8)) {
            Quantization.Result q = Quantization.quantize(m, s, t);
            Path f = dir.resolve(t.shortName() + ".jburn");
            ModelFile.save(f, q.model(), q.state());
            assertEquals(ModelFile.VERSION, SafeTensors.readMetadata(f).get("version"));
            ModelFile.Loaded l = ModelFile.load(f);
            assertEquals(q.model().fingerprint(), l.model().fingerprint());
            assertEquals(q.state().frozen(), l.state().frozen());
            q.state().params().forEach((k, v) -> {
                Tensor b = l.state().get(k);
                assertEquals(v.dtype(), b.dtype(), k);
                DType carrier = DType.signed(v.dtype().bits());
                assertArrayEquals(v.bitcast(carrier).asType(DType.S64).toLongArray(), b.bitcast(carrier).asType(DType.S64).toLongArray(), k);
            });
            assertArrayEquals(ModelFileTest.bits(q.model().predict(q.state(), x)), ModelFileTest.bits(l.model().predict(l.state(), x)), t.shortName());
            // The tensor bytes (the header, which holds the topology, aside): f16 about half, int8 about a quarter plus the f32 rest.
            long ratio = dataBytes(f32) * 100 / dataBytes(f);
            assertTrue(ratio >= (t == DType.S8 ? 250 : 190), t.shortName() + " holds " + dataBytes(f) + " tensor bytes against " + dataBytes(f32));
        }
    }

    @Test
    void badRequestsAreClearErrors() {
        Model m = Model.input("x", Shape.of(-1, 4)).dense(3);
        ModelState s = m.init(Prng.key(0));
        assertFault(() -> Quantization.quantize(m, s, DType.F32), "f16, bf16 or s8");
        Quantization.Result q = Quantization.quantize(m, s, DType.S8);
        assertFault(() -> Quantization.quantize(q.model(), q.state(), DType.F16), "quantized already");
        ModelState nan = s.withParams(Map.of("dense_0.kernel", Tensor.full(Shape.of(4, 3), DType.F32, Double.NaN)));
        assertFault(() -> Quantization.quantize(m, nan, DType.S8), "NaN or infinite");
        ModelState huge = s.withParams(Map.of("dense_0.kernel", Tensor.full(Shape.of(4, 3), DType.F32, 1e6)));
        assertFault(() -> Quantization.quantize(m, huge, DType.F16), "beyond the range of f16");
        assertFault(() -> Quantization.int8PerChannel(Tensor.of(1f, 2f)), "rank >= 2");
        assertFault(() -> Quantization.quantize(m, cnn().init(Prng.key(0)), DType.S8), "structure differs");
    }

    /** The bytes after the safetensors header. */
    static long dataBytes(Path f) throws java.io.IOException {
        byte[] head = new byte[8];
        try (var in = Files.newInputStream(f)) {
            assertEquals(8, in.readNBytes(head, 0, 8));
        }
        return Files.size(f) - 8 - java.nio.ByteBuffer.wrap(head).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private static void assertFault(org.junit.jupiter.api.function.Executable e, String part) {
        JBurnException x = assertThrows(JBurnException.class, e);
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }

    /** Largest difference at most {@code rel} of the largest reference magnitude. */
    static void assertClose(float[] ref, float[] got, double rel, String what) {
        double max = 0, diff = 0;
        for (int i = 0; i < ref.length; i++) {
            max = Math.max(max, Math.abs(ref[i]));
            diff = Math.max(diff, Math.abs(ref[i] - got[i]));
        }
        assertTrue(diff <= rel * max, what + ": largest difference " + diff + " against largest output " + max);
    }
}
