package dev.jburn.examples;

import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Callback;
import dev.jburn.train.Callbacks;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Trainer;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * XOR, runnable: {@code ./jburn example xor}. The four points of XOR, a 2-8-2 network with a tanh hidden layer (its
 * {@link Model#summary()} printed), softmax cross-entropy and Adam, trained with early stopping on the loss
 * ({@link Callbacks#earlyStopping}: at most 1000 epochs, stop when the loss has not improved by 1e-4 for 20 epochs,
 * then put back the best epoch's weights). Checks that all four points are classified correctly.
 */
public final class XorExample {
    private XorExample() {}

    /** What the example found. */
    public record Result(double accuracy, int epochsRun, int bestEpoch, int stoppedEpoch, int[] predicted) {}

    public static void main(String[] args) { run(System.out, args.length > 0 && args[0].equals("--small")); }

    /** Runs the example, printing to {@code out}; the small settings are the same (XOR is small). */
    public static Result run(PrintStream out, boolean small) {
        Tensor x = Tensor.of(new float[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}});
        Tensor y = Tensor.of(0, 1, 1, 0);
        TensorDataset data = TensorDataset.of(x, y);

        Model model = Model.input("x", Shape.of(-1, 2))
                .dense(8, Activation.TANH)
                .dense(2)
                .named("xor");
        out.println(model.summary());

        int maxEpochs = 1000;
        Callbacks.EarlyStopping stop = Callbacks.earlyStopping("loss", 20).minDelta(1e-4).restoreBest();
        Trainer trainer = Trainer.of(model, Losses.softmaxCrossEntropy(), Optimizers.adam(0.05))
                .metrics(Metrics.accuracy())
                .callbacks(stop, Callbacks.onEpochEnd((c, epoch, logs) -> {
                    if (epoch % 50 == 0) out.printf(Locale.ROOT, "epoch %d: loss %.5f accuracy %.2f%n", epoch + 1, logs.get("loss"), logs.get("accuracy"));
                    return Callback.Action.CONTINUE;
                }));
        FitResult fit = trainer.fit(model.init(Prng.key(0)), data, Fit.epochs(maxEpochs).batchSize(4).quiet());
        int ran = fit.history().epochs().size();
        out.printf(Locale.ROOT, "early stopping: best epoch %d (loss %.5f), stopped after epoch %d of at most %d; best weights restored%n",
                stop.bestEpoch() + 1, fit.history().get("loss").get(Math.max(0, stop.bestEpoch())), stop.stoppedEpoch() + 1, maxEpochs);

        ModelState state = fit.state().model();
        Map<String, Double> ev = trainer.evaluate(state, data, 4);
        Tensor logits = model.predict(state, x);
        int[] predicted = logits.argmax(1).toIntArray();
        float[] p = ClassifierExample.softmax(logits).toFloatArray();
        float[][] pts = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
        for (int i = 0; i < 4; i++) {
            out.printf(Locale.ROOT, "  %.0f xor %.0f = %d (p %.3f)%n", pts[i][0], pts[i][1], predicted[i], p[i * 2 + predicted[i]]);
        }
        out.printf(Locale.ROOT, "accuracy %.2f, loss %.5f%n", ev.get("accuracy"), ev.get("loss"));
        int[] truth = {0, 1, 1, 0};
        ExampleFailure.check(Arrays.equals(predicted, truth) && ev.get("accuracy") == 1.0, "xor",
                "expected 100%% accuracy (predictions [0, 1, 1, 0]), got %s (accuracy %.2f)", Arrays.toString(predicted), ev.get("accuracy"));
        out.println("ok: 100% accuracy");
        return new Result(ev.get("accuracy"), ran, stop.bestEpoch(), stop.stoppedEpoch(), predicted);
    }
}
