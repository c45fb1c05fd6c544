package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizer;
import dev.jburn.optim.Optimizers;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Data-parallel fits on ThreadCommunicator give one replica's parameters on the combined batch (within f32
 * rounding) over 20 steps, with uneven shards, a replica of padding only, frozen parameters, Adam, and merged metrics.
 */
class DataParallelTest {
    private static final Model MLP = Model.input("x", Shape.of(-1, 6)).dense(16, Activation.TANH).dense(3).named("mlp");

    /** {@code n} examples of 6 features, labels from a fixed rule (learnable, so the loss moves). */
    static TensorDataset data(int n) {
        Tensor x = Prng.normal(Prng.key(7), Shape.of(n, 6), DType.F32, 0, 1).values();
        Tensor y = x.slice(new int[] {0, 0}, new int[] {n, 3}).argmax(1).asType(DType.S32);
        return TensorDataset.of(x, y);
    }

    private static FitResult fit(Optimizer opt, ModelState init, TensorDataset d, int batch, DataParallel dp, Callback... cbs) {
        Trainer t = Trainer.of(MLP, Losses.softmaxCrossEntropy(), opt).metrics(Metrics.accuracy()).callbacks(cbs);
        Fit f = Fit.epochs(1).batchSize(batch).shuffle(3).quiet();
        return t.fit(init, d, dp == null ? f : f.dataParallel(dp));
    }

    private static void assertSameParams(ModelState want, ModelState got, double tol, String what) {
        for (Map.Entry<String, Tensor> e : want.params().entrySet()) {
            float[] a = e.getValue().toFloatArray(), b = got.params().get(e.getKey()).toFloatArray();
            for (int i = 0; i < a.length; i++) {
                assertEquals(a[i], b[i], tol * Math.max(1, Math.abs(a[i])), what + ": " + e.getKey() + "[" + i + "]");
            }
        }
    }

    @Test
    void twoAndFourReplicasMatchOneReplicaOnTheCombinedBatchOver20Steps() {
        TensorDataset d = data(600); // 20 steps of 30: 4 replicas get 8, 8, 8 and 6 real rows
        Optimizer sgd = Optimizers.sgd(0.3, 0.9, false);
        FitResult one = fit(sgd, MLP.init(Prng.key(1)), d, 30, null);
        for (int n : new int[] {2, 4}) {
            FitResult dp = fit(sgd, MLP.init(Prng.key(1)), d, 30, DataParallel.threads(n));
            assertSameParams(one.state().model(), dp.state().model(), 2e-5, n + " replicas");
            assertEquals(one.history().last("loss"), dp.history().last("loss"), 1e-5, n + " replicas: the epoch loss");
            assertEquals(one.history().last("accuracy"), dp.history().last("accuracy"), 1e-6, n + " replicas: merged accuracy");
        }
        // the parameters moved: the check above is not comparing two initial states
        assertNotEquals(MLP.init(Prng.key(1)).get("dense_0.kernel").toFloatArray()[0], one.state().model().get("dense_0.kernel").toFloatArray()[0]);
    }

    /**
     * One replica per engine (as one per GPU: {@code threads(List.of(cuda:0, cuda:1))}), here two distinct cpu engine
     * instances: the state and the batches move to each replica's engine and rank 0's result comes back on its own.
     */
    @Test
    void oneReplicaPerEngineInstanceMatchesOneReplica() {
        dev.jburn.Engine home = dev.jburn.Engine.select("cpu");
        dev.jburn.Engine other = dev.jburn.Engine.create(new dev.jburn.reference.ReferenceProvider(), dev.jburn.spi.EngineConfig.defaults());
        try {
            TensorDataset d = data(600);
            Optimizer adam = Optimizers.adam(0.01);
            FitResult one = fit(adam, MLP.init(Prng.key(6)), d, 30, null);
            FitResult two = fit(adam, MLP.init(Prng.key(6)), d, 30, DataParallel.threads(List.of(home, other)));
            assertSameParams(one.state().model(), two.state().model(), 2e-5, "replicas on two engines");
            assertSame(home, two.state().model().get("dense_0.kernel").engine(), "rank 0's state stays on its engine");
            assertEquals(one.history().last("accuracy"), two.history().last("accuracy"), 1e-6, "merged accuracy");
            // the other way round: rank 0 on the second engine, the state given on the first
            FitResult swapped = fit(adam, MLP.init(Prng.key(6)), d, 30, DataParallel.threads(List.of(other, home)));
            assertSameParams(one.state().model(), swapped.state().model(), 2e-5, "rank 0 on the other engine");
        } finally {
            other.backend().close();
        }
    }

    @Test
    void aShortLastBatchLeavesAReplicaOnlyPaddingAndStillMatches() {
        TensorDataset d = data(590); // the 20th batch has 20 real rows: shards of 8, 8, 4 and 0
        Optimizer adam = Optimizers.adam(1e-2);
        FitResult one = fit(adam, MLP.init(Prng.key(2)), d, 30, null);
        FitResult four = fit(adam, MLP.init(Prng.key(2)), d, 30, DataParallel.threads(4).bucketBytes(256));
        assertSameParams(one.state().model(), four.state().model(), 1e-4, "adam, 4 replicas, small buckets");
        assertEquals(one.history().last("accuracy"), four.history().last("accuracy"), 1e-6);
    }

    @Test
    void frozenParametersStayAndRank0sStopDecisionReachesEveryReplica() {
        TensorDataset d = data(300);
        ModelState init = MLP.init(Prng.key(3)).freeze("dense_0.*");
        float[] frozen = init.get("dense_0.kernel").toFloatArray();
        int[] batches = new int[1];
        Callback stopAfter5 = new Callback() {
            @Override public Action onBatchEnd(TrainingContext ctx, long step, double loss) {
                return ++batches[0] >= 5 ? Action.STOP_TRAINING : Action.CONTINUE;
            }

            // Acts on a given batch: without this the trainer reads losses in groups and the stop lands after the group.
            @Override public boolean needsBatchLoss() { return true; }
        };
        FitResult one = fit(Optimizers.sgd(0.1), init, d, 30, null);
        FitResult two = fit(Optimizers.sgd(0.1), MLP.init(Prng.key(3)).freeze("dense_0.*"), d, 30, DataParallel.threads(2));
        assertSameParams(one.state().model(), two.state().model(), 2e-5, "frozen first layer");
        assertArrayEquals(frozen, two.state().model().get("dense_0.kernel").toFloatArray());
        FitResult stopped = fit(Optimizers.sgd(0.1), MLP.init(Prng.key(3)), d, 30, DataParallel.threads(3), stopAfter5);
        assertEquals(5, batches[0], "callbacks run on rank 0 only, and every replica stopped with it (else the group would hang)");
        assertNotNull(stopped.state());
    }

    @Test
    void validationRunsOnRank0AndBatchNormStatisticsAreAveraged() {
        TensorDataset d = data(240), val = data(60);
        Trainer t = Trainer.of(MLP, Losses.softmaxCrossEntropy(), Optimizers.sgd(0.1)).metrics(Metrics.accuracy());
        FitResult one = t.fit(MLP.init(Prng.key(4)), d, Fit.epochs(2).batchSize(24).quiet().validation(val));
        FitResult two = t.fit(MLP.init(Prng.key(4)), d, Fit.epochs(2).batchSize(24).quiet().validation(val).dataParallel(DataParallel.threads(2)));
        assertEquals(one.history().last("val_loss"), two.history().last("val_loss"), 1e-5);
        assertEquals(one.history().last("val_accuracy"), two.history().last("val_accuracy"), 1e-6);

        Model bn = Model.input("x", Shape.of(-1, 6)).dense(8).batchNorm().activation(Activation.RELU).dense(3).named("bn");
        Trainer tb = Trainer.of(bn, Losses.softmaxCrossEntropy(), Optimizers.sgd(0.1));
        FitResult b = tb.fit(bn.init(Prng.key(5)), d, Fit.epochs(1).batchSize(24).quiet().dataParallel(DataParallel.threads(2)));
        for (Tensor s : b.state().model().state().values()) {
            for (float v : s.toFloatArray()) assertTrue(Float.isFinite(v), "running statistics stay finite");
        }
        ModelState init = bn.init(Prng.key(5));
        boolean moved = false;
        for (var e : init.state().entrySet()) {
            moved |= !java.util.Arrays.equals(e.getValue().toFloatArray(), b.state().model().state().get(e.getKey()).toFloatArray());
        }
        assertTrue(moved, "the running statistics were updated");
    }

    @Test
    void bucketsFollowReverseParameterOrderAndTheCap() {
        ModelState s = MLP.init(Prng.key(0)); // kernel 6x16 (384 B), bias 16 (64 B), kernel 16x3 (192 B), bias 3 (12 B)
        List<String> names = List.copyOf(s.params().keySet());
        GradientBuckets one = GradientBuckets.plan(names, s.params(), GradientBuckets.DEFAULT_CAP_BYTES);
        assertEquals(1, one.buckets().size());
        assertEquals(List.of("dense_1.bias", "dense_1.kernel", "dense_0.bias", "dense_0.kernel"), one.buckets().getFirst().names());
        GradientBuckets small = GradientBuckets.plan(names, s.params(), 256);
        assertEquals(List.of(List.of("dense_1.bias", "dense_1.kernel"), List.of("dense_0.bias"), List.of("dense_0.kernel")),
                small.buckets().stream().map(GradientBuckets.Bucket::names).toList());
        JBurnException e = assertThrows(JBurnException.class, () -> DataParallel.threads(0));
        assertTrue(e.getMessage().contains("dataParallel"), e.getMessage());
    }

    @Test
    void aFailingReplicaFailsTheFitInsteadOfHangingIt() {
        TensorDataset d = data(120);
        Callback failing = new Callback() {
            @Override public Action onBatchEnd(TrainingContext ctx, long step, double loss) {
                if (step == 2) throw new JBurnException("test callback", "failed on purpose at step 2");
                return Action.CONTINUE;
            }
        };
        long start = System.nanoTime();
        JBurnException e = assertThrows(JBurnException.class, () -> fit(Optimizers.sgd(0.1), MLP.init(Prng.key(0)), d, 30, DataParallel.threads(3), failing));
        assertTrue(e.getMessage().contains("failed on purpose"), "the first failure, not the others' aborts: " + e.getMessage());
        assertTrue(System.nanoTime() - start < 60e9, "the other replicas did not wait for their timeout");
    }
}
