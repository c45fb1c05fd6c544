package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class TrainerTest {
    static TensorDataset xor() {
        return TensorDataset.of(Tensor.of(new float[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}}), Tensor.of(0, 1, 1, 0));
    }

    static TensorDataset line(int n, long seed) {
        Tensor x = Prng.uniform(Prng.key(seed), Shape.of(n, 1), DType.F32, -1, 1).values();
        return TensorDataset.of(x, x.multiply(2.0).add(1.0));
    }

    @Test
    void xorReachesFullAccuracyAndTheLastShortBatchDoesNotRecompile(@TempDir Path dir) throws Exception {
        Model m = Model.input("x", Shape.of(-1, 2)).dense(8, Activation.TANH).dense(2);
        var out = new ByteArrayOutputStream();
        Trainer t = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(0.05)).metrics(Metrics.accuracy())
                .callbacks(Callbacks.csvLogger(dir.resolve("h.csv")));
        FitResult r = t.fit(m.init(Prng.key(0)), xor(), Fit.epochs(150).batchSize(3).progressLines()
                .output(new PrintStream(out, true, StandardCharsets.UTF_8)));
        assertEquals(1.0, r.history().last("accuracy"), "4 of 4, counted once each although batches are 3 + 1 padded");
        assertEquals(1, t.step().compiled().traceCount(), "the padded last batch reuses the compiled step");
        Map<String, Double> ev = t.evaluate(r.state().model(), xor(), 3);
        assertEquals(1.0, ev.get("accuracy"));
        assertEquals(r.history().get("loss").size(), 150);
        String log = out.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("epoch 150/150: loss") && log.contains("samples/s"), log);
        assertTrue(Files.readString(dir.resolve("h.csv")).startsWith("epoch,loss,accuracy,lr,samples_per_s\n1,"));
        r.history().writePng(dir.resolve("curves.png"));
        byte[] png = Files.readAllBytes(dir.resolve("curves.png"));
        assertEquals((byte) 0x89, png[0]);
        assertEquals('P', png[1]);
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith(".")).count(), "no temp files left");
        }
    }

    @Test
    void sameSeedSameParametersAndResumeContinues() {
        Model m = Model.input("x", Shape.of(-1, 1)).dense(4, Activation.RELU).dropout(0.25).dense(1);
        Trainer t = Trainer.of(m, Losses.mse(), Optimizers.sgd(0.1));
        TensorDataset d = line(37, 1);
        float[] a = t.fit(m.init(Prng.key(0)), d, Fit.epochs(3).batchSize(8).quiet()).state().model().get("dense_1.kernel").toFloatArray();
        float[] b = t.fit(m.init(Prng.key(0)), d, Fit.epochs(3).batchSize(8).quiet()).state().model().get("dense_1.kernel").toFloatArray();
        assertArrayEquals(a, b);
        // 2 epochs, then epoch 3 from that state, equals 3 epochs in one go (same shuffles, same keys, same optimizer count)
        FitResult two = t.fit(m.init(Prng.key(0)), d, Fit.epochs(2).batchSize(8).quiet());
        FitResult third = t.fit(two.state(), d, Fit.epochs(3).initialEpoch(2).batchSize(8).quiet());
        assertArrayEquals(a, third.state().model().get("dense_1.kernel").toFloatArray());
    }

    @Test
    void earlyStoppingStopsAtTheRightEpochAndRestoresTheBestWeights() {
        Model m = Model.input("x", Shape.of(-1, 1)).dense(1);
        TensorDataset d = line(32, 2), v = line(16, 3);
        Callbacks.EarlyStopping es = Callbacks.earlyStopping("val_loss", 2).restoreBest();
        // learn for 3 epochs, then a huge learning rate makes every later epoch worse
        Trainer t = Trainer.of(m, Losses.mse(), Optimizers.sgd(0.1))
                .callbacks(Callbacks.lrScheduler(e -> e < 3 ? 0.1 : 3.0), es);
        FitResult r = t.fit(m.init(Prng.key(0)), d, Fit.epochs(20).batchSize(32).noShuffle().validation(v).quiet());
        int best = es.bestEpoch();
        assertEquals(best + 2, es.stoppedEpoch(), "stops after patience epochs without improvement");
        assertEquals(es.stoppedEpoch() + 1, r.history().epochs().size());
        double restored = t.evaluate(r.state().model(), v, 16).get("loss");
        assertEquals(r.history().get("val_loss").get(best), restored, 1e-6, "the restored weights are the best epoch's");
        assertEquals(r.history().best("val_loss", false), restored, 1e-6);
    }

    @Test
    void plateauLowersTheLearningRateWithoutRecompilingAndNaNStops() {
        Model m = Model.input("x", Shape.of(-1, 1)).dense(1);
        TensorDataset d = line(16, 4);
        // a rate so small that the loss cannot improve in float: every epoch is a plateau
        Trainer t2 = Trainer.of(m, Losses.mse(), Optimizers.sgd(1e-9)).callbacks(Callbacks.reduceLrOnPlateau("loss", 0.5, 1, 0, 0.0));
        FitResult r = t2.fit(m.init(Prng.key(0)), d, Fit.epochs(4).batchSize(16).noShuffle().quiet());
        assertTrue(r.history().get("lr").getLast() < r.history().get("lr").getFirst(), r.history().get("lr").toString());
        assertEquals(1, t2.step().compiled().traceCount(), "a new learning rate is a new scalar input, not a recompile");
        Trainer nan = Trainer.of(m, Losses.mse(), Optimizers.sgd(1e30)).callbacks(Callbacks.terminateOnNaN());
        FitResult rn = nan.fit(m.init(Prng.key(0)), line(64, 5), Fit.epochs(50).batchSize(4).quiet());
        assertTrue(rn.history().epochs().size() < 50);
    }

    @Test
    void badInputFailsBeforeTraining() {
        Model m = Model.input("x", Shape.of(-1, 2)).dense(3);
        Trainer t = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3));
        var s = m.init(Prng.key(0));
        JBurnException e = assertThrows(JBurnException.class, () -> t.fit(s, TensorDataset.of(Tensor.of(new float[][] {{1, 2}}), Tensor.of(3)), Fit.epochs(1)));
        assertTrue(e.getMessage().contains("labels must be in [0, 3)"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> t.fit(s, TensorDataset.of(Tensor.of(new float[][] {{1, 2, 3}}), Tensor.of(1)), Fit.epochs(1)));
        assertTrue(e.getMessage().contains("expects [-1, 2]"), e.getMessage());
        assertThrows(JBurnException.class, () -> Fit.epochs(0));
        assertThrows(JBurnException.class, () -> Fit.epochs(1).batchSize(0));
        assertThrows(JBurnException.class, () -> Optimizers.adam(-1));
    }
}
