package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Graph;
import dev.jburn.graph.JitOptions;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.optim.Optimizer;
import dev.jburn.optim.Optimizers;
import dev.jburn.optim.Schedules;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    // ---- the compiled Adam step of jburn train, with and without copied scalars ----------------

    /** {@code jburn train}'s MLP and CNN (the cli's Architectures, which engine-nn cannot see). */
    private static Model trainModel(String name) {
        return name.equals("mlp") ? Model.input("image", Shape.of(-1, 784)).dense(256, Activation.RELU).dense(10).named("mlp")
                : Model.input("image", Shape.of(-1, 28, 28, 1))
                .conv2d(32, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .conv2d(64, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .flatten().dense(128, Activation.RELU).dense(10).named("cnn");
    }

    /** Top-level nodes of the step's graph, those of rank 0, and those of rank 0 that are no constant. */
    private static List<Long> counts(Graph g) {
        long rank0 = g.nodes().stream().filter(n -> n.outputs().getFirst().shape().rank() == 0).count();
        long constants = g.nodes().stream().filter(n -> n.outputs().getFirst().shape().rank() == 0 && n.prim().name().equals("constant")).count();
        return List.of((long) g.nodes().size(), rank0, rank0 - constants);
    }

    /** Three steps from the same start; the values of every tensor of each step's result, in order (read at once: the next step donates them). */
    private static List<double[]> threeSteps(TrainStep step, Model m, Shape batch) {
        TrainStep.State s = step.init(m.init(Prng.key(0)), Prng.key(1));
        List<double[]> seen = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Tensor x = Prng.uniform(Prng.key(10 + i), batch, DType.F32, 0, 1).values();
            Tensor y = Prng.randint(Prng.key(20 + i), 0, 10, Shape.of(batch.dim(0)), DType.S32).values();
            TrainStep.Result r = step.apply(s, x, y, Tensor.ones(Shape.of(batch.dim(0)), DType.F32), step.freshMetrics(x));
            s = r.state();
            List<Tensor> all = new ArrayList<>(List.of(r.loss()));
            all.addAll(s.model().params().values());
            all.addAll(s.model().state().values());
            all.addAll(s.optimizer().tensors().values());
            for (Map<String, Tensor> metric : r.metrics()) all.addAll(metric.values());
            for (Tensor t : all) seen.add(t.toDoubleArray());
        }
        return seen;
    }

    @Test
    void copiedScalarsLeaveTheAdamStepsOfJburnTrainBitForBitAndCutTheirNodes() {
        // per model: nodes per step, rank-0 nodes, rank-0 nodes that compute; without copies (constants are still
        // copied), then with. The 7 rank-0 nodes that compute and remain are 3 reductions (the loss's sum, Σw, the
        // correct count) and 4 outputs (loss, Adam's count, the metric's sums); the 4 that go are Adam's 1 - β1^t and
        // 1 - β2^t (2 groups), their shared 0·t, and the loss gradient's 1 / Σw, now inside the groups that read them.
        // (The CNN's batch norms: each centred-square sum and each Σ g·(x - mean) fuses with its chain; each ReLU is one max
        // that fuses with its producer, its gradient read from the result. With copies, each batch norm's x - mean is
        // recomputed in those two sums' groups instead of stored: 2 nodes fewer. A dense layer's weight gradient is one
        // dot xᵀ·g, no transpose of g·x.)
        Map<String, List<List<Long>>> expected = Map.of(
                "mlp", List.of(List.of(60L, 13L, 11L), List.of(56L, 9L, 7L)),
                "cnn", List.of(List.of(172L, 15L, 11L), List.of(166L, 11L, 7L)));
        for (String name : List.of("mlp", "cnn")) {
            Model m = trainModel(name);
            Shape batch = name.equals("mlp") ? Shape.of(16, 784) : Shape.of(8, 28, 28, 1);
            Optimizer adam = name.equals("mlp") ? Optimizers.adam(1e-3) : Optimizers.adam(Schedules.cosineDecay(1e-3, 100, 0));
            TrainStep copies = TrainStep.of(m, Losses.softmaxCrossEntropy(), adam, List.of(Metrics.accuracy()));
            TrainStep none = copies.withJitOptions(JitOptions.defaults().withRematerializedScalars(false));
            List<double[]> with = threeSteps(copies, m, batch), without = threeSteps(none, m, batch);
            assertEquals(without.size(), with.size());
            for (int i = 0; i < with.size(); i++) assertArrayEquals(without.get(i), with.get(i), 0.0, name + " tensor " + i);
            assertEquals(expected.get(name), List.of(counts(none.compiled().graph()), counts(copies.compiled().graph())),
                    name + " with copies:\n" + copies.compiled().graph());
        }
    }
}
