package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.spi.HostMemory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Native memory stays flat over a training run without any GC: each step frees what the previous one held. */
class TrainingMemoryTest {
    @Test
    void liveHostBytesStayFlatAcrossEpochs() {
        Model m = Model.input("x", Shape.of(-1, 32)).dense(64, Activation.RELU).batchNorm().dropout(0.1).dense(4);
        Tensor x = Prng.uniform(Prng.key(1), Shape.of(300, 32), DType.F32, -1, 1).values();
        Tensor y = Prng.randint(Prng.key(2), 0, 4, Shape.of(300), DType.S32).values();
        TensorDataset d = TensorDataset.of(x, y);
        Trainer t = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3)).metrics(Metrics.accuracy());
        var fit = Fit.epochs(1).batchSize(32).quiet();
        TrainStep.State s = t.step().init(m.init(Prng.key(0)), Prng.key(3));
        s = t.fit(s, d, fit).state();                       // warm: compiles, caches
        long after1 = HostMemory.live();
        for (int e = 0; e < 20; e++) s = t.fit(s, d, fit).state();   // 200 more steps
        long after21 = HostMemory.live();
        assertTrue(after21 - after1 < 64 * 1024, "live host bytes grew by " + (after21 - after1) + " over 200 steps (from " + after1 + ")");
    }

    @Test
    void dataParallelReplicasFreeWhatTheyHeld() {
        Model m = Model.input("x", Shape.of(-1, 32)).dense(64, Activation.RELU).batchNorm().dense(4);
        Tensor x = Prng.uniform(Prng.key(1), Shape.of(240, 32), DType.F32, -1, 1).values();
        Tensor y = Prng.randint(Prng.key(2), 0, 4, Shape.of(240), DType.S32).values();
        TensorDataset d = TensorDataset.of(x, y);
        Trainer t = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3)).metrics(Metrics.accuracy());
        var fit = Fit.epochs(1).batchSize(32).quiet().dataParallel(DataParallel.threads(2));
        TrainStep.State s = t.step().init(m.init(Prng.key(0)), Prng.key(3));
        s = t.fit(s, d, fit).state();                       // warm: compiles, caches
        long after1 = HostMemory.live();
        for (int e = 0; e < 10; e++) s = t.fit(s, d, fit).state();   // 80 more steps on each of 2 replicas
        long after11 = HostMemory.live();
        assertTrue(after11 - after1 < 64 * 1024, "live host bytes grew by " + (after11 - after1) + " over 10 data-parallel fits (from " + after1 + ")");
    }
}
