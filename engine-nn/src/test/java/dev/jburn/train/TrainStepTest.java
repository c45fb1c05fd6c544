package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizers;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The compiled step reaches known solutions and compiles once. */
class TrainStepTest {
    @Test
    void linearRegressionFindsItsSlopeAndIntercept() {
        Model m = Model.input("x", Shape.of(-1, 1)).dense(1);
        Tensor x = Prng.uniform(Prng.key(3), Shape.of(64, 1), DType.F32, -1, 1).values();
        Tensor y = x.multiply(3.0).add(-0.5);
        TrainStep step = TrainStep.of(m, Losses.mse(), Optimizers.sgd(0.5));
        TrainStep.State s = step.init(m.init(Prng.key(0)), Prng.key(1));
        for (int i = 0; i < 200; i++) s = step.apply(s, x, y).state();
        assertEquals(3.0, s.model().get("dense_0.kernel").toDoubleArray()[0], 1e-3);
        assertEquals(-0.5, s.model().get("dense_0.bias").toDoubleArray()[0], 1e-3);
        assertEquals(1, step.compiled().traceCount(), "one trace for every step");
    }

    @Test
    void xorReachesFullAccuracyWithAdamAndFrozenLayersStayPut() {
        Model m = Model.input("x", Shape.of(-1, 2)).dense(8, Activation.TANH).dense(2);
        Tensor x = Tensor.of(new float[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}});
        Tensor y = Tensor.of(0, 1, 1, 0);
        TrainStep step = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(0.05));
        TrainStep.State s = step.init(m.init(Prng.key(0)), Prng.key(1));
        TrainStep.Result r0 = step.apply(s, x, y);
        double first = r0.loss().toDoubleArray()[0], last = first;
        s = r0.state();
        for (int i = 0; i < 300; i++) {
            TrainStep.Result r = step.apply(s, x, y);
            s = r.state();
            last = r.loss().toDoubleArray()[0];
        }
        assertTrue(last < 0.05 && last < first, "loss " + first + " -> " + last);
        assertArrayEquals(new int[] {0, 1, 1, 0}, m.predict(s.model(), x).argmax(1).toIntArray());

        ModelState frozen = m.init(Prng.key(0)).freeze("dense_0.*");
        TrainStep.State f = step.init(frozen, Prng.key(1));
        float[] before = frozen.get("dense_0.kernel").toFloatArray(), head = frozen.get("dense_1.kernel").toFloatArray();
        for (int i = 0; i < 5; i++) f = step.apply(f, x, y).state();
        assertArrayEquals(before, f.model().get("dense_0.kernel").toFloatArray());
        assertFalse(java.util.Arrays.equals(head, f.model().get("dense_1.kernel").toFloatArray()));
    }
}
