package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Forward;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizers;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Mixed precision: 16-bit compute inside the graph, f32 parameters and outputs, loss scaling that skips overflowed steps. */
class MixedPrecisionTest {
    private static Tensor inputs(int n, int features, int seed) {
        return Prng.uniform(Prng.key(seed), Shape.of(n, features), DType.F32, -1, 1).values();
    }

    private static Tensor sumOfSquares(Tensor t) { return t.multiply(t).sum(); }

    @Test
    void aMixedCallComputesEachLayerInTheComputeTypeAndReturnsTheDeclaredType() {
        Model m = Model.input("x", Shape.of(-1, 5)).dense(3, Activation.RELU);
        ModelState s = m.init(Prng.key(0));
        Tensor x = inputs(4, 5, 1);
        Forward f = m.call(s.params(), s.state(), List.of(x), false, null, DType.BF16);
        assertEquals(DType.F32, f.output().dtype(), "outputs come back in the declared type");
        // The oracle: the same layer written by hand in bf16.
        Tensor k = s.get("dense_0.kernel").asType(DType.BF16), b = s.get("dense_0.bias").asType(DType.BF16);
        Tensor want = x.asType(DType.BF16).dot(k).add(b).maximum(0.0).asType(DType.F32);
        assertArrayEquals(want.toFloatArray(), f.output().toFloatArray());
        assertFalse(java.util.Arrays.equals(m.predict(s, x).toFloatArray(), f.output().toFloatArray()),
                "bf16 rounding shows: the mixed call is not the f32 one");
        assertThrows(JBurnException.class, () -> m.call(s.params(), s.state(), List.of(x), false, null, DType.S32));
    }

    @Test
    void normalizationLayersKeepTheirDeclaredTypeAndTheirStateStaysF32() {
        Model m = Model.input("x", Shape.of(-1, 4)).dense(4).batchNorm();
        ModelState s = m.init(Prng.key(0));
        Tensor x = inputs(8, 4, 2);
        Forward f = m.call(s.params(), s.state(), List.of(x), true, Prng.key(5), DType.BF16);
        Tensor dense = x.asType(DType.BF16).dot(s.get("dense_0.kernel").asType(DType.BF16)).add(s.get("dense_0.bias").asType(DType.BF16));
        // batch norm sees the bf16 activations converted to f32, and computes in f32 as in a full-precision model
        Model bnOnly = Model.input("h", Shape.of(-1, 4)).batchNorm();
        ModelState bs = bnOnly.init(Prng.key(0));
        Forward ref = bnOnly.call(Map.of("batch_norm_0.gamma", s.get("batch_norm_0.gamma"), "batch_norm_0.beta", s.get("batch_norm_0.beta")),
                Map.of("batch_norm_0.mean", s.state().get("batch_norm_0.mean"), "batch_norm_0.var", s.state().get("batch_norm_0.var")),
                List.of(dense.asType(DType.F32)), true, Prng.key(5));
        assertArrayEquals(ref.output().toFloatArray(), f.output().toFloatArray());
        for (var e : f.state().entrySet()) assertEquals(DType.F32, e.getValue().dtype(), e.getKey());
        assertArrayEquals(ref.state().get("batch_norm_0.mean").toFloatArray(), f.state().get("batch_norm_0.mean").toFloatArray());
        assertNotNull(bs);
    }

    @Test
    void gradientsThroughAMixedCallArriveInTheParametersType() {
        Model m = Model.input("x", Shape.of(-1, 3)).dense(2);
        ModelState s = m.init(Prng.key(0));
        Tensor x = inputs(6, 3, 3);
        Map<String, Tensor> g = Autodiff.gradMap((Map<String, Tensor> p) ->
                sumOfSquares(m.call(p, Map.of(), List.of(x), false, null, DType.F16).output())).apply(s.params());
        Map<String, Tensor> oracle = Autodiff.gradMap((Map<String, Tensor> p) -> sumOfSquares(x.asType(DType.F16).dot(p.get("dense_0.kernel").asType(DType.F16))
                .add(p.get("dense_0.bias").asType(DType.F16)).asType(DType.F32))).apply(s.params());
        for (String n : s.params().keySet()) {
            assertEquals(DType.F32, g.get(n).dtype(), n);
            assertArrayEquals(oracle.get(n).toFloatArray(), g.get(n).toFloatArray(), n);
        }
    }

    @Test
    void bf16TrainingKeepsF32MasterWeightsAndLearns() {
        // Two Gaussian blobs: a linearly separable problem a bf16 MLP must solve as well as an f32 one.
        Tensor x = inputs(256, 2, 4);
        Tensor y = x.slice(new int[] {0, 0}, new int[] {256, 1}).reshape(256).add(x.slice(new int[] {0, 1}, new int[] {256, 1}).reshape(256))
                .greater(0.0).asType(DType.S32);
        TensorDataset data = TensorDataset.of(x, y);
        Model m = Model.input("x", Shape.of(-1, 2)).dense(16, Activation.RELU).dense(2);
        Trainer t = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(0.02)).metrics(Metrics.accuracy());
        FitResult r = t.fit(m.init(Prng.key(0)), data, Fit.epochs(10).batchSize(32).quiet().precision(Precision.mixedBf16()));
        for (Tensor p : r.state().model().params().values()) assertEquals(DType.F32, p.dtype(), "master weights stay f32");
        double acc = t.evaluate(r.state().model(), data, 64, Precision.mixedBf16()).get("accuracy");
        assertTrue(acc >= 0.95, "bf16 training accuracy " + acc);
        assertEquals(1, t.step(Precision.mixedBf16()).compiled().traceCount(), "compiled once");
        assertNull(t.step().compiled(), "the full-precision step was never built");
    }

    @Test
    void anF16StepWhoseGradientsOverflowIsSkippedAndHalvesTheScale() {
        Model m = Model.input("x", Shape.of(-1, 2)).dense(1);
        TrainStep step = TrainStep.of(m, Losses.mse(), Optimizers.sgd(0.1), List.of(), Precision.mixedF16());
        TrainStep.State s = step.init(m.init(Prng.key(0)), Prng.key(1));
        assertEquals(32768.0, s.optimizer().get(LossScaling.SCALE).toDoubleArray()[0]);
        float[] kernel = s.model().get("dense_0.kernel").toFloatArray();
        // 70000 is past f16's largest value (65504): the cast gives infinity, the gradients are not finite
        Tensor big = Tensor.of(new float[][] {{70000f, 1f}, {1f, 1f}});
        Tensor y = Tensor.of(new float[][] {{1f}, {1f}});
        TrainStep.Result r = step.apply(s, big, y, Tensor.of(1f, 1f), List.of());
        assertArrayEquals(kernel, r.state().model().get("dense_0.kernel").toFloatArray(), "an overflowed step leaves the parameters");
        assertEquals(16384.0, r.state().optimizer().get(LossScaling.SCALE).toDoubleArray()[0]);
        assertEquals(0.0, r.state().optimizer().get(LossScaling.GOOD).toDoubleArray()[0]);
        assertEquals(0.0, r.state().optimizer().get("count").toDoubleArray()[0], "nor the optimizer's step count");

        TrainStep.Result ok = step.apply(r.state(), Tensor.of(new float[][] {{0.5f, 1f}, {1f, -1f}}), y, Tensor.of(1f, 1f), List.of());
        assertFalse(java.util.Arrays.equals(kernel, ok.state().model().get("dense_0.kernel").toFloatArray()), "a finite step updates");
        assertEquals(1.0, ok.state().optimizer().get(LossScaling.GOOD).toDoubleArray()[0]);
        assertTrue(Double.isFinite(ok.loss().toDoubleArray()[0]), "the loss is reported unscaled");
    }

    @Test
    void theDynamicScaleGrowsAfterItsIntervalAndTheScaledStepEqualsTheUnscaledOne() {
        Model m = Model.input("x", Shape.of(-1, 2)).dense(1);
        Tensor x = Tensor.of(new float[][] {{0.5f, 1f}, {1f, -1f}}), y = Tensor.of(new float[][] {{1f}, {0f}}), w = Tensor.of(1f, 1f);
        Precision scaled = Precision.mixed(DType.F32).withLossScale(LossScale.dynamic(8, 2, 2));
        TrainStep a = TrainStep.of(m, Losses.mse(), Optimizers.sgd(0.1), List.of(), scaled);
        TrainStep b = TrainStep.of(m, Losses.mse(), Optimizers.sgd(0.1));
        TrainStep.State sa = a.init(m.init(Prng.key(0)), Prng.key(1)), sb = b.init(m.init(Prng.key(0)), Prng.key(1));
        double[] scales = new double[3];
        for (int i = 0; i < 3; i++) {
            sa = a.apply(sa, x, y, w, List.of()).state();
            sb = b.apply(sb, x, y, w, List.of()).state();
            scales[i] = sa.optimizer().get(LossScaling.SCALE).toDoubleArray()[0];
        }
        assertArrayEquals(new double[] {8, 16, 16}, scales, "doubles after two finite steps in a row, then counts again");
        // Scaling by a power of two and back is exact in f32: the same parameters as an unscaled run.
        assertArrayEquals(sb.model().get("dense_0.kernel").toFloatArray(), sa.model().get("dense_0.kernel").toFloatArray());
    }

    @Test
    void badPoliciesAreRefusedWithClearErrors() {
        assertThrows(JBurnException.class, () -> Precision.mixed(DType.S32));
        assertThrows(JBurnException.class, () -> Precision.mixed(null));
        assertThrows(JBurnException.class, () -> LossScale.dynamic(0.5, 10, 2));
        assertThrows(JBurnException.class, () -> LossScale.dynamic(8, -1, 2));
        assertThrows(JBurnException.class, () -> LossScale.fixed(Double.NaN));
        assertThrows(JBurnException.class, () -> Fit.epochs(1).precision(null));
        assertEquals("mixed bf16", Precision.mixedBf16().describe());
        assertEquals("mixed f16, dynamic loss scale", Precision.mixedF16().describe());
    }
}
