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
import dev.jburn.train.Trainer;
import org.junit.jupiter.api.Test;

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
}
