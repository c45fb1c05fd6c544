package dev.jburn.train;

import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.Communicators;
import dev.jburn.dist.Launcher;
import dev.jburn.dist.Rendezvous;
import dev.jburn.io.SafeTensors;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One process per replica, as the launcher starts them: each joins through the environment and the TCP store, the
 * cpu engine's tensors go through the store (StoreCommunicator), and rank 0's parameters after 20 steps equal one
 * replica's on the combined batch.
 */
class ProcessDataParallelTest {
    static final Model MLP = Model.input("x", dev.jburn.Shape.of(-1, 6)).dense(16, Activation.TANH).dense(3).named("mlp");

    static Trainer trainer() { return Trainer.of(MLP, Losses.softmaxCrossEntropy(), Optimizers.sgd(0.3, 0.9, false)).metrics(Metrics.accuracy()); }

    static Fit options() { return Fit.epochs(1).batchSize(30).shuffle(3).quiet(); }

    /** A replica process: trains its share and, as rank 0, writes the parameters to {@code DIR/params.safetensors}. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            TensorDataset d = DataParallelTest.data(600);
            try (Rendezvous r = Rendezvous.fromEnvironment(); Communicator c = Communicators.create(Engine.select("cpu"), r)) {
                FitResult f = trainer().fit(MLP.init(Prng.key(1)), d, options().dataParallel(DataParallel.of(c)));
                if (r.rank() == 0) SafeTensors.write(Path.of(args[0], "params.safetensors"), f.state().model().params());
            }
        }
    }

    @Test
    void twoProcessesMatchOneReplicaOnTheCombinedBatch(@TempDir Path dir) throws Exception {
        int exit = Launcher.nproc(2).logsTo(dir).run(Launcher.java(Child.class.getName(), dir.toString()));
        assertEquals(0, exit, () -> {
            try { return java.nio.file.Files.readString(dir.resolve("rank-0.log")) + java.nio.file.Files.readString(dir.resolve("rank-1.log")); }
            catch (java.io.IOException e) { return e.toString(); }
        });
        Map<String, Tensor> got = SafeTensors.read(dir.resolve("params.safetensors"));
        FitResult one = trainer().fit(MLP.init(Prng.key(1)), DataParallelTest.data(600), options());
        for (var e : one.state().model().params().entrySet()) {
            float[] a = e.getValue().toFloatArray(), b = got.get(e.getKey()).toFloatArray();
            for (int i = 0; i < a.length; i++) assertEquals(a[i], b[i], 2e-5 * Math.max(1, Math.abs(a[i])), e.getKey() + "[" + i + "]");
        }
    }
}
