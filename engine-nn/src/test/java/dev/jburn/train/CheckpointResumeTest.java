package dev.jburn.train;

import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.data.TensorDataset;
import dev.jburn.io.Checkpoint;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** Stop after epoch 2 from a checkpoint, resume, and epochs 3-5 equal an uninterrupted run bit for bit. */
class CheckpointResumeTest {
    static Model model() {
        return Model.input("x", Shape.of(-1, 1)).dense(8, Activation.RELU).batchNorm().dropout(0.2).dense(1);
    }

    @Test
    void resumeIsExact(@TempDir Path dir) {
        Model m = model();
        TensorDataset d = TrainerTest.line(50, 7);
        Trainer t = Trainer.of(m, Losses.mse(), Optimizers.adam(1e-2)).metrics(Metrics.binaryAccuracy(0));
        Fit fit = Fit.epochs(5).batchSize(16).quiet();
        FitResult full = t.fit(m.init(Prng.key(0)), d, fit);

        CheckpointCallback ck = Callbacks.checkpoint(dir).keepLast(2);
        Trainer t2 = Trainer.of(m, Losses.mse(), Optimizers.adam(1e-2)).metrics(Metrics.binaryAccuracy(0)).callbacks(ck);
        t2.fit(m.init(Prng.key(0)), d, Fit.epochs(2).batchSize(16).quiet());
        assertTrue(Files.exists(ck.fileOf(1)));

        Checkpoint.Loaded c = Checkpoint.load(ck.fileOf(1), m);
        assertEquals(1, c.epoch());
        FitResult rest = Trainer.of(m, Losses.mse(), Optimizers.adam(1e-2)).metrics(Metrics.binaryAccuracy(0)).resume(c, d, fit);
        for (String p : full.state().model().params().keySet()) {
            assertArrayEquals(full.state().model().get(p).toFloatArray(), rest.state().model().get(p).toFloatArray(), p);
        }
        for (String s : full.state().model().state().keySet()) {
            assertArrayEquals(full.state().model().get(s).toFloatArray(), rest.state().model().get(s).toFloatArray(), s);
        }
        assertEquals(full.history().get("loss"), rest.history().get("loss"), "the resumed history continues the checkpoint's");
    }

    @Test
    void aCheckpointOfAnotherModelIsRefused(@TempDir Path dir) {
        Model m = model();
        Trainer t = Trainer.of(m, Losses.mse(), Optimizers.sgd(0.1)).callbacks(Callbacks.checkpoint(dir));
        t.fit(m.init(Prng.key(0)), TrainerTest.line(8, 1), Fit.epochs(1).batchSize(8).quiet());
        Model other = Model.input("x", Shape.of(-1, 1)).dense(3).dense(1);
        JBurnException e = assertThrows(JBurnException.class, () -> Checkpoint.load(dir.resolve("epoch-0001.ckpt"), other));
        assertTrue(e.getMessage().contains("structure differs"), e.getMessage());
    }
}
