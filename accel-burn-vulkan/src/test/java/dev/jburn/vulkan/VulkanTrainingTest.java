package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.FitResult;
import dev.jburn.train.Fit;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.TrainStep;
import dev.jburn.train.Trainer;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The same {@code Trainer.fit} as on the cpu engine reaches the known solutions on the Vulkan engine (lavapipe in CI). */
class VulkanTrainingTest {
    @Test
    void linearRegressionFindsItsSlope() {
        Engine vk = TestDevice.engine();
        Tensor x = Prng.uniform(Prng.key(3), Shape.of(64, 1), DType.F32, -1, 1).values().to(vk);
        TensorDataset d = TensorDataset.of(x, x.multiply(3.0).add(-0.5));
        Model m = Model.input("x", Shape.of(-1, 1)).dense(1);
        FitResult r = Trainer.of(m, Losses.mse(), Optimizers.sgd(0.5)).fit(m.init(Prng.key(0).to(vk)), d, Fit.epochs(100).batchSize(64).quiet());
        assertSame(vk, r.state().model().get("dense_0.kernel").engine(), "trained on the tensors' engine");
        assertEquals(3.0, r.state().model().get("dense_0.kernel").toDoubleArray()[0], 1e-3);
        assertEquals(-0.5, r.state().model().get("dense_0.bias").toDoubleArray()[0], 1e-3);
    }

    @Test
    void xorReachesFullAccuracy() {
        Engine vk = TestDevice.engine();
        TensorDataset d = TensorDataset.of(Tensor.of(new float[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}}).to(vk), Tensor.of(0, 1, 1, 0).to(vk));
        Model m = Model.input("x", Shape.of(-1, 2)).dense(8, Activation.TANH).dense(2);
        FitResult r = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(0.05)).metrics(Metrics.accuracy())
                .fit(m.init(Prng.key(0).to(vk)), d, Fit.epochs(150).batchSize(4).quiet());
        assertEquals(1.0, r.history().last("accuracy"));
    }

    /** The CLI's MLP (784-256-10 shrunk to 48-32-10): every op of its Adam step runs on the device, with the cpu's losses. */
    @Test
    void mlpAdamStepRunsWhollyOnTheDevice() {
        Model m = Model.input("x", Shape.of(-1, 48)).dense(32, Activation.RELU).dense(10);
        assertStepsOnTheDevice(m, Shape.of(16, 48));
    }

    /** The CLI's CNN (conv, batch norm, ReLU, 2×2 max pool, twice; then dense) shrunk: its Adam step has no fallback either. */
    @Test
    void cnnAdamStepRunsWhollyOnTheDevice() {
        Model m = TestModels.smallCnn();
        assertStepsOnTheDevice(m, Shape.of(8, 12, 12, 1));
    }

    private static final int STEPS = 4;

    /**
     * Runs {@link #STEPS} compiled Adam steps of {@code m} on the cpu and on the device from the same start;
     * asserts that no op of the device's steps fell back to the cpu and that the losses agree.
     */
    private static void assertStepsOnTheDevice(Model m, Shape batch) {
        Engine vk = TestDevice.engine();
        Engine cpu = Engine.select("cpu");
        Tensor x = Prng.uniform(Prng.key(5), batch, DType.F32, -1, 1).values();
        Tensor y = Prng.randint(Prng.key(6), 0, 10, Shape.of(batch.dim(0)), DType.S32).values();
        Map<String, Long> fellBack = new HashMap<>();
        double[] want = losses(m, cpu, x, y, new HashMap<>());
        double[] got = losses(m, vk, x, y, fellBack);
        assertEquals(Map.of(), fellBack, "ops of the compiled step that ran on the cpu instead of the device");
        for (int i = 0; i < STEPS; i++) assertEquals(want[i], got[i], 1e-4 * Math.max(1, Math.abs(want[i])), "loss of step " + i);
    }

    /** The losses of {@link #STEPS} steps on {@code e}; what fell back during the steps (not the set-up) is added to {@code fellBack}. */
    private static double[] losses(Model m, Engine e, Tensor x, Tensor y, Map<String, Long> fellBack) {
        TrainStep step = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-2));
        TrainStep.State s = step.init(m.init(Prng.key(0).to(e)), Prng.key(1).to(e));
        Tensor xe = x.to(e), ye = y.to(e);
        double[] losses = new double[STEPS];
        for (int i = 0; i < STEPS; i++) {
            Map<String, Long> before = e.fallbackCounts();
            TrainStep.Result r = step.apply(s, xe, ye);
            losses[i] = r.loss().toDoubleArray()[0];
            e.fallbackCounts().forEach((op, n) -> {
                long d = n - before.getOrDefault(op, 0L);
                if (d > 0) fellBack.merge(op, d, Long::sum);
            });
            s = r.state();
        }
        return losses;
    }
}
