package dev.jburn.io;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.layers.Custom;
import dev.jburn.nn.layers.Dense;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

class ModelFileTest {
    @TempDir Path dir;

    static Model mlp() {
        return Model.input("x", Shape.of(-1, 4)).dense(8, Activation.RELU).dropout(0.5).dense(3);
    }

    static Tensor batch() {
        return Tensor.of(new float[][] {{1, -2, 3, 0.5f}, {-0.25f, 0, 7, -1}, {1e-3f, 2e3f, -5, 9}});
    }

    static int[] bits(Tensor t) { return t.asType(DType.F32).bitcast(DType.S32).toIntArray(); }

    @Test
    void anMlpRoundTripsBitForBit() {
        Model m = mlp();
        ModelState s = m.init(Prng.key(11));
        Path f = dir.resolve("mlp.jburn.safetensors");
        ModelFile.save(f, m, s);
        ModelFile.Loaded l = ModelFile.load(f);
        assertEquals(m.summary(), l.model().summary());
        assertEquals(m.name(), l.model().name());
        assertEquals(m.inputNames(), l.model().inputNames());
        assertEquals(m.inputSpecs(), l.model().inputSpecs());
        assertEquals(List.copyOf(s.params().keySet()), List.copyOf(l.state().params().keySet()));
        assertEquals(s.modelFingerprint(), l.state().modelFingerprint());
        s.params().forEach((k, v) -> assertArrayEquals(bits(v), bits(l.state().get(k)), k));
        assertArrayEquals(bits(m.predict(s, batch())), bits(l.model().predict(l.state(), batch())));
        // The file's state fits the original model too, and the original state fits the loaded model.
        assertArrayEquals(bits(m.predict(s, batch())), bits(m.predict(l.state(), batch())));
        assertArrayEquals(bits(m.predict(s, batch())), bits(l.model().predict(s, batch())));
        // Built-in initializers come back as themselves: init draws the same parameters.
        ModelState again = l.model().init(Prng.key(11));
        s.params().forEach((k, v) -> assertArrayEquals(bits(v), bits(again.get(k)), k));
        // It is a plain safetensors file.
        Map<String, String> meta = SafeTensors.readMetadata(f);
        assertEquals("jburn-model", meta.get("format"));
        assertEquals("1", meta.get("version"));
        assertEquals(64, meta.get("checksum").length());
        assertEquals(List.of("params/dense_0.kernel", "params/dense_0.bias", "params/dense_1.kernel", "params/dense_1.bias"),
                List.copyOf(SafeTensors.read(f).keySet()));
    }

    @Test
    void aTwoInputConcatenateModelRoundTrips() {
        Model a = Model.input("a", Shape.of(-1, 3)), b = Model.input("b", Shape.of(-1, 2));
        Model m = Model.concatenate(-1, a.dense(4).withName("left"), b.dense(4, Activation.TANH)).dense(2, Activation.leakyRelu(0.2)).named("two");
        ModelState s = m.init(Prng.key(5));
        Path f = dir.resolve("two.safetensors");
        ModelFile.save(f, m, s);
        ModelFile.Loaded l = ModelFile.load(f);
        assertEquals(m.summary(), l.model().summary());
        assertEquals(List.of("a", "b"), l.model().inputNames());
        Tensor xa = Tensor.of(new float[][] {{1, 2, 3}, {-1, 0.5f, 4}}), xb = Tensor.of(new float[][] {{0.1f, -7}, {3, 3}});
        assertArrayEquals(bits(m.predict(s, xa, xb)), bits(l.model().predict(l.state(), xa, xb)));
    }

    @Test
    void theFrozenSetSurvives() {
        Model m = mlp();
        ModelState s = m.init(Prng.key(2)).freeze("dense_0.*");
        Path f = dir.resolve("frozen.safetensors");
        ModelFile.save(f, m, s);
        ModelFile.Loaded l = ModelFile.load(f);
        assertEquals(Set.of("dense_0.kernel", "dense_0.bias"), l.state().frozen());
        assertEquals(List.copyOf(s.trainable().keySet()), List.copyOf(l.state().trainable().keySet()));
        assertEquals(m.summary(s), l.model().summary(l.state()));
    }

    @Test
    void everyCoreLayerAndSeveralOutputsRoundTrip() {
        Model tokens = Model.input("tokens", Shape.of(-1, 6), DType.S32);
        Model e = tokens.embedding(20, 4).flatten().reshape(3, 8).activation(Activation.leakyRelu(0.2)).spatialDropout(0.1).flatten().bias();
        List<Model> halves = e.split(-1, 2);
        Model sum = Model.add(halves.get(0), halves.get(1));
        Model diff = Model.subtract(halves.get(0), halves.get(1)).withName("difference");
        Model prod = Model.multiply(sum, diff).dense(5, Activation.elu(0.5));
        Model m = Model.outputs(prod, sum).named("kitchen_sink");
        ModelState s = m.init(Prng.key(9));
        Path f = dir.resolve("sink.safetensors");
        ModelFile.save(f, m, s);
        ModelFile.Loaded l = ModelFile.load(f);
        assertEquals(m.summary(), l.model().summary());
        assertEquals(m.outputNames(), l.model().outputNames());
        Tensor ids = Tensor.of(new int[][] {{0, 1, 2, 3, 4, 19}, {5, 5, 5, 7, 0, 1}});
        List<Tensor> want = m.predictAll(s, ids), got = l.model().predictAll(l.state(), ids);
        assertEquals(2, got.size());
        for (int i = 0; i < 2; i++) assertArrayEquals(bits(want.get(i)), bits(got.get(i)));
    }

    @Test
    void aLambdaInitializerBecomesAPlaceholderThatFailsOnlyIfUsed() {
        Model m = Model.input("x", Shape.of(-1, 4)).apply(Dense.of(2).withKernelInitializer((k, shape, t) -> Tensor.full(shape, t, 0.5).to(k.engine())));
        ModelState s = m.init(Prng.key(0));
        Path f = dir.resolve("lambda.safetensors");
        ModelFile.save(f, m, s);
        ModelFile.Loaded l = ModelFile.load(f);
        assertArrayEquals(bits(m.predict(s, batch())), bits(l.model().predict(l.state(), batch())));
        JBurnException e = assertThrows(JBurnException.class, () -> l.model().init(Prng.key(0)));
        assertTrue(e.getMessage().contains("not a built-in"), e.getMessage());
        // Saving the loaded model again keeps the initializer's text.
        Path g = dir.resolve("again.safetensors");
        ModelFile.save(g, l.model(), l.state());
        assertEquals(SafeTensors.readMetadata(f).get("topology"), SafeTensors.readMetadata(g).get("topology"));
    }

    @Test
    void aCorruptedDataByteFailsTheChecksum() throws IOException {
        Path f = dir.resolve("corrupt.safetensors");
        ModelFile.save(f, mlp(), mlp().init(Prng.key(1)));
        byte[] b = Files.readAllBytes(f);
        long n = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
        b[(int) (8 + n + 17)] ^= 0x10;
        Files.write(f, b);
        JBurnException e = assertThrows(JBurnException.class, () -> ModelFile.load(f));
        assertEquals("model file", e.op());
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("checksum mismatch"), e.getMessage());
    }

    @Test
    void filesOfAnotherFormatFailClearly() {
        Path pt = dir.resolve("pt.safetensors"), plain = dir.resolve("plain.safetensors"), v2 = dir.resolve("v2.safetensors");
        SafeTensors.write(pt, Map.of("w", Tensor.of(1f)), Map.of("format", "pt"));
        SafeTensors.write(plain, Map.of("w", Tensor.of(1f)));
        SafeTensors.write(v2, Map.of("w", Tensor.of(1f)), Map.of("format", "jburn-model", "version", "3"));
        assertLoadFault(pt, "model file", "its format is 'pt'");
        assertLoadFault(plain, "model file", "no 'format'");
        assertLoadFault(v2, "model file", "version '3'");
        assertLoadFault(dir.resolve("missing.safetensors"), "safetensors", "no such file");
    }

    @Test
    void customLayersCannotBeSaved() {
        Model m = Model.input("x", Shape.of(-1, 4)).apply(Custom.of("double_it", (x, p) -> x.multiply(2.0)));
        Path f = dir.resolve("custom.safetensors");
        JBurnException e = assertThrows(JBurnException.class, () -> ModelFile.save(f, m, m.init(Prng.key(0))));
        assertEquals("model file", e.op());
        assertTrue(e.getMessage().contains("Custom layer") && e.getMessage().contains("double_it_0"), e.getMessage());
        assertFalse(Files.exists(f));
    }

    @Test
    void aStateOfAnotherModelIsRefused() {
        Path f = dir.resolve("other.safetensors");
        JBurnException e = assertThrows(JBurnException.class, () -> ModelFile.save(f, mlp(), mlp().dense(2).init(Prng.key(0))));
        assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
    }

    @Test
    void parametersThatDoNotMatchTheTopologyFail() throws IOException {
        Path f = dir.resolve("mlp.safetensors");
        ModelFile.save(f, mlp(), mlp().init(Prng.key(1)));
        Map<String, String> meta = SafeTensors.readMetadata(f);
        Map<String, Tensor> t = new LinkedHashMap<>(SafeTensors.read(f));
        t.put("params/dense_0.kernel", Tensor.zeros(Shape.of(5, 8), DType.F32));
        Path g = dir.resolve("wrong-shape.safetensors");
        SafeTensors.write(g, t, meta);
        assertLoadFault(g, "model file", "the file's parameters do not match its topology");
        t.remove("params/dense_0.bias");
        SafeTensors.write(g, t, meta);
        assertLoadFault(g, "model file", "lacks");
    }

    @Test
    void onlyLayerRecordsOfTheLayerPackageAreLoaded() throws IOException {
        Path f = dir.resolve("mlp.safetensors");
        ModelFile.save(f, mlp(), mlp().init(Prng.key(1)));
        Map<String, String> meta = SafeTensors.readMetadata(f);
        Map<String, Tensor> t = SafeTensors.read(f);
        for (var c : List.of(List.of("java.lang.ProcessBuilder", "not a layer of dev.jburn.nn.layers"),
                List.of("dev.jburn.nn.Model", "not a layer of dev.jburn.nn.layers"),
                List.of("dev.jburn.nn.layers.Layers", "not a built-in layer record"),
                List.of("dev.jburn.nn.layers.Custom", "not a built-in layer record"),
                List.of("dev.jburn.nn.layers.Dense.Evil", "not a layer of"),
                List.of("dev.jburn.nn.layers.NoSuchLayer", "no layer class"))) {
            Map<String, String> bad = new LinkedHashMap<>(meta);
            bad.put("topology", meta.get("topology").replaceFirst("dev\\.jburn\\.nn\\.layers\\.Dense", c.get(0)));
            Path g = dir.resolve("evil.safetensors");
            SafeTensors.write(g, t, bad);
            assertLoadFault(g, "model file", c.get(1));
        }
        Map<String, String> bad = new LinkedHashMap<>(meta);
        bad.put("topology", meta.get("topology").replaceFirst("\"units\":8", "\"units\":-8"));
        SafeTensors.write(dir.resolve("negative.safetensors"), t, bad);
        assertLoadFault(dir.resolve("negative.safetensors"), "model file", "units must be positive");
    }

    @Test
    void aTamperedFingerprintFails() throws IOException {
        Path f = dir.resolve("mlp.safetensors");
        ModelFile.save(f, mlp(), mlp().init(Prng.key(1)));
        Map<String, String> meta = new LinkedHashMap<>(SafeTensors.readMetadata(f));
        meta.put("fingerprint", "something else");
        Path g = dir.resolve("fingerprint.safetensors");
        SafeTensors.write(g, SafeTensors.read(f), meta);
        assertLoadFault(g, "model file", "fingerprint mismatch");
        meta.put("frozen", "[\"dense_9.kernel\"]");
        SafeTensors.write(g, SafeTensors.read(f), meta);
        assertLoadFault(g, "model file", "dense_9.kernel");
    }

    @Test
    void stateOfChecksNamesShapesAndDtypesAndKeepsTheModelsOrder() {
        Model m = mlp();
        ModelState s = m.init(Prng.key(4));
        Map<String, Tensor> reversed = new LinkedHashMap<>();
        List<String> names = List.copyOf(s.params().keySet());
        for (int i = names.size() - 1; i >= 0; i--) reversed.put(names.get(i), s.params().get(names.get(i)));
        ModelState t = m.stateOf(reversed, Map.of(), Set.of("dense_1.bias"));
        assertEquals(names, List.copyOf(t.params().keySet()));
        assertEquals(Set.of("dense_1.bias"), t.frozen());
        assertEquals(s.modelFingerprint(), t.modelFingerprint());
        assertArrayEquals(bits(m.predict(s, batch())), bits(m.predict(t, batch())));
        Map<String, Tensor> missing = new LinkedHashMap<>(s.params());
        missing.remove("dense_0.bias");
        assertTrue(assertThrows(JBurnException.class, () -> m.stateOf(missing, Map.of(), Set.of())).getMessage().contains("missing parameter 'dense_0.bias'"));
        Map<String, Tensor> extra = new LinkedHashMap<>(s.params());
        extra.put("dense_7.kernel", Tensor.of(1f));
        assertTrue(assertThrows(JBurnException.class, () -> m.stateOf(extra, Map.of(), Set.of())).getMessage().contains("no parameter 'dense_7.kernel'"));
        Map<String, Tensor> wrong = new LinkedHashMap<>(s.params());
        wrong.put("dense_0.bias", Tensor.zeros(Shape.of(8), DType.F64));
        assertTrue(assertThrows(JBurnException.class, () -> m.stateOf(wrong, Map.of(), Set.of())).getMessage().contains("must be f32[8], got f64[8]"));
        assertTrue(assertThrows(JBurnException.class, () -> m.stateOf(s.params(), Map.of(), Set.of("nope"))).getMessage().contains("cannot freeze 'nope'"));
    }

    private static void assertLoadFault(Path f, String op, String fragment) {
        JBurnException e = assertThrows(JBurnException.class, () -> ModelFile.load(f));
        assertEquals(op, e.op(), e.getMessage());
        assertTrue(e.getMessage().contains(f.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
    }
}
