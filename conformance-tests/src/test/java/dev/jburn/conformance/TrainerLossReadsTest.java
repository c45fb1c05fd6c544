package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.Losses;
import dev.jburn.train.Trainer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code Trainer.fit} reads its steps' losses in groups, each with one transfer from the engine: on a GPU engine a read
 * is a copy and a wait for the device, and reading every step's loss on its own made the Vulkan engine wait once a
 * step. An engine that counts its downloads trains 64 steps; the losses must still be each step's own (the epoch's
 * mean loss equals the cpu engine's), and nothing else may be read back per step.
 */
class TrainerLossReadsTest {
    private static final AtomicLong DOWNLOADS = CountingEngine.DOWNLOADS;
    private static final Engine COUNTING = CountingEngine.ENGINE;

    private static FitResult fit(Engine e) {
        Tensor x = Prng.uniform(Prng.key(3), Shape.of(256, 2), DType.F32, -1, 1).values();
        TensorDataset d = TensorDataset.of(x.to(e), x.multiply(3.0).sum(new int[] {1}, true).to(e));
        Model m = Model.input("x", Shape.of(-1, 2)).dense(4, Activation.TANH).dense(1);
        return Trainer.of(m, Losses.mse(), Optimizers.sgd(0.05)).fit(m.init(Prng.key(0).to(e)), d, Fit.epochs(1).batchSize(4).noShuffle().quiet());
    }

    @Test
    void sixtyFourStepsReadTheirLossesInAFewTransfers() {
        FitResult want = fit(Engine.select("cpu"));
        long before = DOWNLOADS.get();
        FitResult got = fit(COUNTING);
        long downloads = DOWNLOADS.get() - before;
        // The losses take one read per group of 32, not one per step (that was 3 reads a step). The step key's words
        // (for its fold) and the learning rate (compared with the schedule's) are values the host made, read from the
        // host (HostBytesTest): they were two more downloads a step, each a wait for the device on a GPU engine.
        System.out.println("TrainerLossReadsTest: " + downloads + " downloads for 64 steps");
        assertTrue(downloads <= 8, downloads + " downloads for 64 steps");
        assertEquals(want.history().get("loss").getFirst(), got.history().get("loss").getFirst(), "the epoch's mean loss");
    }
}
