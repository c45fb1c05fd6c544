package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.Jit;
import dev.jburn.nn.internal.KeyBits;
import dev.jburn.nn.layers.Custom;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class ModelTest {
    @Test
    void mapLayersReplacesLayersAndKeepsNamesConnectionsAndInputs() {
        Model x = Model.input("x", Shape.of(-1, 4));
        Model m = Model.add(x.dense(4).withName("inner"), x).dense(2).named("residual");
        Model noBias = m.mapLayers(l -> l.layer() instanceof dev.jburn.nn.layers.Dense d ? d.withoutBias() : l.layer());
        assertEquals("residual", noBias.name());
        assertEquals(m.layers().stream().map(Model.LayerInfo::name).toList(), noBias.layers().stream().map(Model.LayerInfo::name).toList());
        assertEquals(m.layers().stream().map(Model.LayerInfo::sources).toList(), noBias.layers().stream().map(Model.LayerInfo::sources).toList());
        assertEquals(List.of("inner.kernel", "dense_0.kernel"), List.copyOf(noBias.parameterSpecs().keySet()));
        Tensor in = Tensor.of(new float[][] {{1, 2, 3, 4}});
        ModelState s = noBias.init(Prng.key(0));
        // x + x·K0, then ·K1: the residual connection survives the rebuild.
        Tensor expected = in.add(in.dot(s.get("inner.kernel"))).dot(s.get("dense_0.kernel"));
        assertArrayEquals(expected.toFloatArray(), noBias.predict(s, in).toFloatArray(), 1e-5f);
        JBurnException e = assertThrows(JBurnException.class, () -> m.mapLayers(l -> null));
        assertTrue(e.getMessage().contains("returned null for layer 'inner'"), e.getMessage());
    }

    static Model mlp() {
        return Model.input("image", Shape.of(-1, 784)).dense(256, Activation.RELU).dropout(0.2).dense(10).named("mlp");
    }

    @Test
    void mlpHasTheKnownParameterCountAndNames() {
        Model m = mlp();
        assertEquals(203_530, m.parameterCount());
        ModelState s = m.init(Prng.key(0));
        assertEquals(List.of("dense_0.kernel", "dense_0.bias", "dense_1.kernel", "dense_1.bias"), List.copyOf(s.params().keySet()));
        assertEquals(203_530, s.parameterCount());
        String summary = m.summary();
        assertTrue(summary.contains("Total params: 203,530"), summary);
        assertTrue(summary.contains("dense_0") && summary.contains("f32[-1, 256]") && summary.contains("200,960"), summary);
        assertTrue(summary.contains("dropout_0"), summary);
    }

    @Test
    void sameKeySameParametersAndAddingALayerKeepsTheOthers() {
        ModelState a = mlp().init(Prng.key(7)), b = mlp().init(Prng.key(7)), c = mlp().init(Prng.key(8));
        assertArrayEquals(a.get("dense_0.kernel").toFloatArray(), b.get("dense_0.kernel").toFloatArray());
        assertFalse(java.util.Arrays.equals(a.get("dense_0.kernel").toFloatArray(), c.get("dense_0.kernel").toFloatArray()));
        ModelState d = mlp().dense(3).init(Prng.key(7));
        assertArrayEquals(a.get("dense_1.kernel").toFloatArray(), d.get("dense_1.kernel").toFloatArray());
        // Glorot uniform bound for [784, 256]
        double limit = Math.sqrt(6.0 / (784 + 256));
        for (float v : a.get("dense_0.kernel").toFloatArray()) assertTrue(Math.abs(v) <= limit);
        for (float v : a.get("dense_0.bias").toFloatArray()) assertEquals(0f, v);
    }

    @Test
    void predictIsTheFormulaAndIsCompiledOncePerSignature() {
        Model m = Model.input("x", Shape.of(-1, 3)).dense(2, Activation.RELU).dropout(0.5).dense(1);
        ModelState s = m.init(Prng.key(1));
        Tensor x = Tensor.of(new float[][] {{1, -2, 3}, {0.5f, 0.25f, -1}});
        Tensor y = m.predict(s, x);
        Tensor w0 = s.get("dense_0.kernel"), b0 = s.get("dense_0.bias"), w1 = s.get("dense_1.kernel"), b1 = s.get("dense_1.bias");
        Tensor expect = x.dot(w0).add(b0).maximum(0.0).dot(w1).add(b1);
        assertArrayEquals(expect.toFloatArray(), y.toFloatArray(), 1e-6f);
        assertEquals(Shape.of(2, 1), y.shape());
        assertArrayEquals(y.toFloatArray(), m.predict(s, x).toFloatArray());
        Tensor x3 = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
        assertEquals(Shape.of(3, 1), m.predict(s, x3).shape());
    }

    @Test
    void dropoutIsOffInInferenceAndDrawsAFreshMaskPerKeyInTraining() {
        Model m = Model.input("x", Shape.of(-1, 1000)).dropout(0.25);
        ModelState s = m.init(Prng.key(0));
        Tensor x = Tensor.ones(Shape.of(4, 1000), DType.F32);
        assertArrayEquals(x.toFloatArray(), m.predict(s, x).toFloatArray());
        float[] a = m.forward(s, Prng.key(1), x).output().toFloatArray();
        float[] b = m.forward(s, Prng.key(2), x).output().toFloatArray();
        int zeros = 0;
        for (float v : a) {
            assertTrue(v == 0f || Math.abs(v - 1 / 0.75f) < 1e-6, "kept values are scaled by 1/(1-rate): " + v);
            if (v == 0f) zeros++;
        }
        assertEquals(1000, zeros, 120, "about a quarter dropped");
        assertFalse(java.util.Arrays.equals(a, b));
        assertArrayEquals(a, m.forward(s, Prng.key(1), x).output().toFloatArray(), "same key, same mask");
        // eager call (no Jit) equals the compiled one
        Forward eager = m.call(s.params(), s.state(), List.of(x), true, Prng.key(1));
        assertArrayEquals(a, eager.output().toFloatArray());
    }

    @Test
    void keyBitsEqualRandomBitsEagerlyAndUnderJit() {
        Tensor key = Prng.key(42);
        for (int n : new int[] {1, 2, 5, 64}) {
            long[] expect = Prng.bits(key, Shape.of(n), DType.U32).toLongArray();
            assertArrayEquals(expect, KeyBits.bits(key, Shape.of(n)).toLongArray());
            final int size = n;
            assertArrayEquals(expect, Jit.compile(k -> KeyBits.bits(k, Shape.of(size))).apply(key).toLongArray());
        }
        assertArrayEquals(Prng.foldIn(key, 123456789012L).toLongArray(), KeyBits.foldIn(key, 123456789012L).toLongArray());
    }

    @Test
    void residualAndTwoInputModels() {
        Model x = Model.input("x", Shape.of(-1, 4));
        Model res = Model.add(x, x.dense(4, Activation.RELU).dense(4));
        assertEquals(2 * (16 + 4), res.parameterCount());
        ModelState s = res.init(Prng.key(0));
        Tensor in = Tensor.of(new float[][] {{1, 2, 3, 4}});
        Tensor h = in.dot(s.get("dense_0.kernel")).add(s.get("dense_0.bias")).maximum(0.0).dot(s.get("dense_1.kernel")).add(s.get("dense_1.bias"));
        assertArrayEquals(in.add(h).toFloatArray(), res.predict(s, in).toFloatArray(), 1e-6f);

        Model a = Model.input("a", Shape.of(-1, 3)), b = Model.input("b", Shape.of(-1, 2));
        Model two = Model.concatenate(-1, a.dense(4), b.dense(4)).dense(1);
        assertEquals(List.of("a", "b"), two.inputNames());
        ModelState t = two.init(Prng.key(3));
        Tensor out = two.predict(t, Tensor.of(new float[][] {{1, 2, 3}}), Tensor.of(new float[][] {{4, 5}}));
        assertEquals(Shape.of(1, 1), out.shape());
        Tensor byName = two.predictAll(t, Map.of("b", Tensor.of(new float[][] {{4, 5}}), "a", Tensor.of(new float[][] {{1, 2, 3}}))).getFirst();
        assertArrayEquals(out.toFloatArray(), byName.toFloatArray());

        List<Model> parts = Model.input("z", Shape.of(-1, 6)).split(-1, 3);
        Model multi = Model.outputs(parts.get(0), parts.get(2));
        List<Tensor> ys = multi.predictAll(multi.init(Prng.key(0)), Tensor.of(new float[][] {{0, 1, 2, 3, 4, 5}}));
        assertArrayEquals(new float[] {0, 1}, ys.get(0).toFloatArray());
        assertArrayEquals(new float[] {4, 5}, ys.get(1).toFloatArray());
    }

    @Test
    void freezingAndGradientsThroughTheModel() {
        Model m = mlp();
        ModelState s = m.init(Prng.key(0)).freeze("dense_0.*");
        assertEquals(List.of("dense_1.kernel", "dense_1.bias"), List.copyOf(s.trainable().keySet()));
        assertEquals(200_960, s.frozenCount());
        assertTrue(m.summary(s).contains("Frozen params: 200,960"), m.summary(s));
        assertEquals(0, s.unfreeze("*").frozen().size());
        assertThrows(JBurnException.class, () -> s.freeze("conv_*"));
        Tensor x = Prng.uniform(Prng.key(5), Shape.of(2, 784), DType.F32, 0, 1).values();
        Map<String, Tensor> g = Autodiff.gradMap((Map<String, Tensor> p) ->
                m.call(p, s.state(), List.of(x), false, null).output().sum()).apply(s.params());
        assertEquals(s.params().keySet(), g.keySet());
        assertArrayEquals(new float[] {2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, g.get("dense_1.bias").toFloatArray());
    }

    @Test
    void customLayerWithDeclaredParameters() {
        Custom scale = Custom.of("scale", (x, p) -> x.multiply(p.get("gamma")))
                .withParam("gamma", in -> Shape.of(in.dim(-1)), Initializers.constant(2));
        Model m = Model.input("x", Shape.of(-1, 3)).apply(scale);
        ModelState s = m.init(Prng.key(0));
        assertEquals(List.of("scale_0.gamma"), List.copyOf(s.params().keySet()));
        assertArrayEquals(new float[] {2, 4, 6}, m.predict(s, Tensor.of(new float[][] {{1, 2, 3}})).toFloatArray());
    }

    @Test
    void badInputIsAClearErrorNamingTheLayer() {
        JBurnException e = assertThrows(JBurnException.class, () -> Model.input("x", Shape.of(-1, 784)).dense(-3));
        assertTrue(e.getMessage().contains("units must be positive"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Model.input("x", Shape.of(-1, 784)).dropout(1.0));
        assertTrue(e.getMessage().contains("[0, 1)"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Model.input("x", Shape.of(-1, 4)).flatten().dense(3).withName("a").dense(2).withName("a").summary());
        assertTrue(e.getMessage().contains("duplicate layer name 'a'"), e.getMessage());
        Model m = mlp();
        ModelState s = m.init(Prng.key(0));
        e = assertThrows(JBurnException.class, () -> m.predict(s, Tensor.zeros(Shape.of(2, 783), DType.F32)));
        assertTrue(e.getMessage().contains("[-1, 784]") && e.getMessage().contains("[2, 783]"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> m.predict(s, Tensor.zeros(Shape.of(784), DType.F32)));
        assertTrue(e.getMessage().contains("image"), e.getMessage());
        ModelState other = Model.input("image", Shape.of(-1, 784)).dense(10).init(Prng.key(0));
        e = assertThrows(JBurnException.class, () -> m.predict(other, Tensor.zeros(Shape.of(2, 784), DType.F32)));
        assertTrue(e.getMessage().contains("structure differs"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Model.add(Model.input("a", Shape.of(-1, 3)), Model.input("b", Shape.of(-1, 4))).summary());
        assertTrue(e.getMessage().startsWith("add_0 (add)") && e.getMessage().contains("[-1, 3]"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Model.input("x", Shape.of(-1, 3, 4)).dense(2).flatten().dense(2)
                .apply(dev.jburn.nn.layers.Reshape.of(5)).summary());
        assertTrue(e.getMessage().startsWith("reshape_0 (reshape)"), e.getMessage());
    }

    @Test
    void activationsAreStableAndReluHasGradientZeroAtZero() {
        Tensor x = Tensor.of(-1000f, -1f, 0f, 1f, 1000f, Float.NaN);
        assertArrayEquals(new float[] {0, 0, 0, 1, 1000, Float.NaN}, Activation.RELU.apply(x).toFloatArray());
        float[] sp = Activation.SOFTPLUS.apply(x).toFloatArray();
        assertEquals(0f, sp[0]);
        assertEquals(1000f, sp[4]);
        assertEquals(Math.log(2), sp[2], 1e-6);
        float[] ls = Activation.LOG_SOFTMAX.apply(Tensor.of(1000f, 0f)).toFloatArray();
        assertEquals(0f, ls[0], 1e-6);
        assertEquals(-1000f, ls[1], 1e-3);
        Tensor g = Autodiff.grad(t -> Activation.RELU.apply(t).sum()).apply(Tensor.of(-1.0, 0.0, 2.0));
        assertArrayEquals(new double[] {0, 0, 1}, g.toDoubleArray());
        Tensor ge = Autodiff.grad(t -> Activation.ELU.apply(t).sum()).apply(Tensor.of(-1000.0, 1000.0));
        assertArrayEquals(new double[] {0, 1}, ge.toDoubleArray());
        assertEquals(Activation.leakyRelu(0.2), Activation.parse("leaky_relu(0.2)"));
        assertEquals(Activation.SILU, Activation.parse("swish"));
    }
}
