package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.io.Checkpoint;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.optim.Schedule;
import dev.jburn.optim.Schedules;
import dev.jburn.train.Callback;
import dev.jburn.train.Callbacks;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.History;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Trainer;
import dev.jburn.train.TrainingContext;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Training callbacks, runnable: {@code ./jburn example callbacks}. Three runs on a synthetic 3-class problem, each
 * checking what its callbacks did:
 * <ol>
 *   <li>{@link Callbacks#logging} (one line per epoch), {@link Callbacks#checkpoint} every epoch keeping the last 2
 *       (only {@code epoch-0004.ckpt} and {@code epoch-0005.ckpt} remain of 5; the last loads back as epoch 5), and
 *       {@link Callbacks#lrScheduler} driven by {@link Schedules#stepDecay} (halve every 2 epochs: the logged
 *       {@code lr} values are checked); then the same decay per optimizer step through {@link Optimizers#scheduled}.</li>
 *   <li>{@link Callbacks#earlyStopping} on {@code val_loss} (patience 4, best weights restored) with
 *       {@link Callbacks#reduceLrOnPlateau} (patience 1, factor 0.5) on a small, noisy training set that overfits: it
 *       stops 4 epochs after the best one, the restored weights give the best validation loss again, and every halving
 *       of the logged {@code lr} follows an epoch without improvement.</li>
 *   <li>A callback of one's own that stops training when the validation accuracy reaches a target: it stops at the
 *       first epoch that reaches it.</li>
 * </ol>
 * Checkpoints go to a temporary directory, deleted at the end.
 */
public final class CallbacksExample {
    private CallbacksExample() {}

    /** What the example found. */
    public record Result(List<String> checkpointsLeft, List<Double> scheduledLrs, int bestEpoch, int stoppedEpoch,
                         List<Double> plateauLrs, int reductions, int targetEpoch, double target) {}

    public static void main(String[] args) throws IOException { run(System.out, args.length > 0 && args[0].equals("--small")); }

    /** Runs the example, printing to {@code out}; {@code small} changes nothing (it is quick). */
    public static Result run(PrintStream out, boolean small) throws IOException {
        String ex = "callbacks";
        TensorDataset train = blobs(600, 1), validation = blobs(300, 2);
        Model model = Model.input("x", Shape.of(-1, 2)).dense(32, Activation.RELU).dense(3).named("mlp");
        Path dir = Files.createTempDirectory("jburn-callbacks");
        try {
            // 1. Logging, checkpoints (keep the last 2) and a step decay of the learning rate, epoch by epoch.
            out.println("1. logging, checkpoint every epoch keeping the last 2, lrScheduler(stepDecay(0.01, every 2 epochs, 0.5)):");
            Schedule perEpoch = Schedules.stepDecay(0.01, 2, 0.5);
            var checkpoints = Callbacks.checkpoint(dir).keepLast(2);
            Trainer t1 = Trainer.of(model, Losses.softmaxCrossEntropy(), Optimizers.adam(0.01)).metrics(Metrics.accuracy())
                    .callbacks(Callbacks.lrScheduler(perEpoch::at), checkpoints, Callbacks.logging(out));
            FitResult r1 = t1.fit(model.init(Prng.key(0)), train, Fit.epochs(5).batchSize(50).validation(validation).quiet());
            List<String> left = list(dir);
            out.println("   checkpoints left: " + left);
            ExampleFailure.check(left.equals(List.of("epoch-0004.ckpt", "epoch-0005.ckpt")), ex,
                    "expected only epoch-0004.ckpt and epoch-0005.ckpt to remain, found %s", left);
            Checkpoint.Loaded last = Checkpoint.load(checkpoints.fileOf(4), model);
            out.println("   " + checkpoints.fileOf(4).getFileName() + " loads back: epoch " + (last.epoch() + 1) + ", "
                    + last.history().epochs().size() + " epochs of history, optimizer state " + last.state().optimizer().tensors().keySet());
            ExampleFailure.check(last.epoch() == 4 && last.history().epochs().size() == 5, ex, "the last checkpoint is of epoch %d with %d epochs of history",
                    last.epoch() + 1, last.history().epochs().size());
            List<Double> lrs = r1.history().get("lr");
            List<Double> wantLrs = List.of(0.01, 0.01, 0.005, 0.005, 0.0025);
            out.println("   logged lr per epoch: " + fmt(lrs));
            ExampleFailure.check(close(lrs, wantLrs), ex, "the logged learning rates are %s, expected %s", lrs, wantLrs);

            // The same decay per optimizer step: the schedule lives in the optimizer, the rate is the next step's.
            int steps = 600 / 50;
            Schedule perStep = Schedules.stepDecay(0.01, 2L * steps, 0.5);
            Trainer t1b = Trainer.of(model, Losses.softmaxCrossEntropy(), Optimizers.scheduled(Optimizers.adam(0.01), perStep));
            List<Double> stepLrs = t1b.fit(model.init(Prng.key(0)), train, Fit.epochs(4).batchSize(50).quiet()).history().get("lr");
            List<Double> wantStep = new ArrayList<>();
            for (int e = 0; e < 4; e++) wantStep.add(perStep.at((long) (e + 1) * steps));   // after epoch e, the rate of step (e+1)*12
            out.println("   Optimizers.scheduled(adam, stepDecay(0.01, every " + 2 * steps + " steps, 0.5)): logged lr " + fmt(stepLrs)
                    + " (the rate of the next step)");
            ExampleFailure.check(close(stepLrs, wantStep), ex, "the scheduled optimizer logged %s, expected %s", stepLrs, wantStep);

            // 2. Early stopping with the best weights restored, and reduce-on-plateau, on a small training set that overfits.
            out.println("2. earlyStopping(val_loss, patience 4).restoreBest() + reduceLrOnPlateau(val_loss, 0.5, patience 1):");
            TensorDataset few = blobs(60, 3);
            Model big = Model.input("x", Shape.of(-1, 2)).dense(128, Activation.RELU).dense(128, Activation.RELU).dense(3).named("big");
            Callbacks.EarlyStopping stop = Callbacks.earlyStopping("val_loss", 4).restoreBest();
            int maxEpochs = 200;
            Trainer t2 = Trainer.of(big, Losses.softmaxCrossEntropy(), Optimizers.adam(0.02)).metrics(Metrics.accuracy())
                    .callbacks(stop, Callbacks.reduceLrOnPlateau("val_loss", 0.5, 1, 0, 1e-5), Callbacks.logging(out));
            FitResult r2 = t2.fit(big.init(Prng.key(0)), few, Fit.epochs(maxEpochs).batchSize(20).validation(validation).quiet());
            History h = r2.history();
            int ran = h.epochs().size();
            double restored = t2.evaluate(r2.state().model(), validation, 300).get("loss");
            out.printf(Locale.ROOT, "   best epoch %d (val_loss %.4f), stopped after epoch %d of at most %d; restored weights give val_loss %.4f%n",
                    stop.bestEpoch() + 1, h.get("val_loss").get(stop.bestEpoch()), stop.stoppedEpoch() + 1, maxEpochs, restored);
            ExampleFailure.check(stop.stoppedEpoch() >= 0 && stop.stoppedEpoch() == stop.bestEpoch() + 4 && ran == stop.stoppedEpoch() + 1, ex,
                    "early stopping: best epoch %d, stopped after %d, %d epochs run; expected a stop 4 epochs after the best",
                    stop.bestEpoch() + 1, stop.stoppedEpoch() + 1, ran);
            ExampleFailure.check(Math.abs(restored - h.get("val_loss").get(stop.bestEpoch())) < 1e-5, ex,
                    "the restored weights give val_loss %.6f, the best epoch had %.6f", restored, h.get("val_loss").get(stop.bestEpoch()));
            List<Double> plateauLrs = h.get("lr");
            int reductions = checkPlateau(ex, h.get("val_loss"), plateauLrs);
            out.println("   logged lr: " + fmt(plateauLrs) + " (" + reductions + " halvings, each after an epoch without improvement)");
            ExampleFailure.check(reductions >= 1, ex, "the learning rate was never reduced; val_loss %s", h.get("val_loss"));

            // 3. A callback of one's own: stop when the validation accuracy reaches a target.
            double target = 0.8;
            out.printf(Locale.ROOT, "3. a custom callback: stop when val_accuracy >= %.2f (plain SGD, lr 0.02):%n", target);
            int[] stoppedAt = {-1};
            Callback stopAtTarget = new Callback() {
                @Override public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) {
                    if (logs.get("val_accuracy") < target) return Action.CONTINUE;
                    stoppedAt[0] = epoch;
                    out.printf(Locale.ROOT, "   target reached after epoch %d: val_accuracy %.4f, stopping%n", epoch + 1, logs.get("val_accuracy"));
                    return Action.STOP_TRAINING;
                }
            };
            Trainer t3 = Trainer.of(model, Losses.softmaxCrossEntropy(), Optimizers.sgd(0.02)).metrics(Metrics.accuracy())
                    .callbacks(Callbacks.logging(out), stopAtTarget);
            FitResult r3 = t3.fit(model.init(Prng.key(1)), train, Fit.epochs(100).batchSize(50).validation(validation).quiet());
            List<Double> acc = r3.history().get("val_accuracy");
            int first = -1;
            for (int e = 0; e < acc.size() && first < 0; e++) if (acc.get(e) >= target) first = e;
            ExampleFailure.check(stoppedAt[0] >= 0, ex, "val_accuracy never reached %.2f in 100 epochs (best %.4f)", target, r3.history().best("val_accuracy", true));
            ExampleFailure.check(stoppedAt[0] == first && acc.size() == first + 1, ex,
                    "the custom callback stopped after epoch %d, but the target was first reached after epoch %d (%d epochs run)",
                    stoppedAt[0] + 1, first + 1, acc.size());
            out.println("ok: 2 checkpoints kept, logged learning rates as scheduled, early stopping and plateau as specified, "
                    + "custom stop at epoch " + (first + 1));
            return new Result(left, lrs, stop.bestEpoch(), stop.stoppedEpoch(), plateauLrs, reductions, first, target);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Replays reduce-on-plateau (patience 1, factor 0.5, no cooldown) over the logged values: the rate logged after
     * epoch {@code e + 1} must be half the one after epoch {@code e} exactly when epoch {@code e} did not improve on the
     * best {@code val_loss}. Returns the number of halvings.
     */
    static int checkPlateau(String ex, List<Double> monitored, List<Double> lrs) {
        double best = Double.NaN;
        int reductions = 0;
        for (int e = 0; e + 1 < lrs.size(); e++) {
            double v = monitored.get(e);
            boolean improved = Double.isNaN(best) || v < best;
            if (improved) best = v;
            double want = improved ? lrs.get(e) : Math.max(1e-5, lrs.get(e) * 0.5);
            ExampleFailure.check(Math.abs(lrs.get(e + 1) - want) <= 1e-9 * want, ex,
                    "after epoch %d (val_loss %.5f, best %.5f) the rate went from %s to %s, expected %s", e + 1, v, best, lrs.get(e), lrs.get(e + 1), want);
            if (!improved) reductions++;
        }
        return reductions;
    }

    /** 3 overlapping Gaussian blobs in 2 dimensions (centers on a triangle, standard deviation 0.9). */
    static TensorDataset blobs(int n, long seed) {
        Tensor centers = Tensor.of(new float[][] {{0, 0}, {2, 0}, {1, 1.7f}});
        Tensor labels = Prng.randint(Prng.key(seed), 0, 3, Shape.of(n), DType.S32).values();
        Tensor noise = Prng.normal(Prng.key(seed + 100), Shape.of(n, 2), DType.F32, 0, 0.9).values();
        return TensorDataset.of(centers.take(labels, 0).add(noise), labels);
    }

    private static String fmt(List<Double> v) {
        return v.stream().map(d -> String.format(Locale.ROOT, "%.4g", d)).toList().toString();
    }

    private static boolean close(List<Double> got, List<Double> want) {
        if (got.size() != want.size()) return false;
        for (int i = 0; i < got.size(); i++) if (Math.abs(got.get(i) - want.get(i)) > 1e-12 * want.get(i)) return false;
        return true;
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
