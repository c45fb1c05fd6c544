package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.FashionMnist;
import dev.jburn.data.Normalizer;
import dev.jburn.data.Split;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Trainer;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The whole image-classification pipeline, runnable: {@code ./jburn example classifier}. Loads Fashion-MNIST
 * ({@link FashionMnist#load} from the Debian package's {@code /usr/share/datasets/fashion-mnist}; when it is not
 * installed, a synthetic stand-in of 10 Gaussian blobs in 784 dimensions, and it says so), splits the training images
 * into training and validation parts with a stratified {@link Split}, scales the pixels ({@link FashionMnist#normalized};
 * the blobs get a {@link Normalizer} fitted on the training part), trains an MLP 784-128-10 with Adam through a
 * {@link Trainer} tracking accuracy, evaluates it on the test images and prints a few predictions with their class
 * names. Small settings: 3000 training images and 1 epoch; it checks that the test accuracy is above 0.7 (Fashion-MNIST)
 * or 0.95 (blobs); the full settings (all 60000 images, 5 epochs) check 0.85.
 */
public final class ClassifierExample {
    private ClassifierExample() {}

    /** Where the Debian package {@code dataset-fashion-mnist} puts the data. */
    public static final Path DEBIAN_DATA = Path.of("/usr/share/datasets/fashion-mnist");

    /** What the example found. */
    public record Result(boolean fashionMnist, int trainSize, int validationSize, int testSize, double testAccuracy,
                         double threshold, List<String> predictions) {}

    public static void main(String[] args) { run(System.out, args.length > 0 && args[0].equals("--small")); }

    /** Runs the example on the Debian data when it is there, else on blobs. */
    public static Result run(PrintStream out, boolean small) { return run(out, small, DEBIAN_DATA); }

    /** Runs the example on the Fashion-MNIST files in {@code dataDir}, or on blobs when they are not there. */
    public static Result run(PrintStream out, boolean small, Path dataDir) {
        // 1. Data: Fashion-MNIST when installed, else 10 Gaussian blobs of the same shape.
        boolean real = Files.isRegularFile(dataDir.resolve("train-images-idx3-ubyte.gz")) || Files.isRegularFile(dataDir.resolve("train-images-idx3-ubyte"));
        TensorDataset all, test;
        List<String> classes;
        if (real) {
            FashionMnist fm = FashionMnist.load(dataDir);                       // u8[n, 28, 28], s32[n]
            int loaded = fm.train().size();
            if (small) fm = new FashionMnist(fm.train().take(3000), fm.test());  // the first 3000 training images
            fm = fm.normalized().flattened();                                   // f32[n, 784] in [0, 1]
            all = fm.train();
            test = fm.test();
            classes = FashionMnist.CLASSES;
            out.println("data: Fashion-MNIST from " + dataDir + ": " + loaded + " training images (" + all.size() + " used), "
                    + test.size() + " test images");
        } else {
            TensorDataset[] blobs = blobs(small ? 3000 : 12000, small ? 1000 : 2000);
            all = blobs[0];
            test = blobs[1];
            classes = new ArrayList<>();
            for (int c = 0; c < 10; c++) classes.add("blob " + c);
            out.println("data: no Fashion-MNIST in " + dataDir + " (apt-get install dataset-fashion-mnist); using a synthetic stand-in: "
                    + "10 Gaussian blobs in 784 dimensions, " + all.size() + " training, " + test.size() + " test examples");
        }

        // 2. Split the training images into training and validation parts, keeping each class's share.
        Split split = Split.stratified(all, Prng.key(7), 0.9, 0.1);
        TensorDataset train = split.train(), validation = split.validation();
        out.println("split: " + train.size() + " training, " + validation.size() + " validation (stratified), " + test.size() + " test");

        // 3. Normalize: pixels are already in [0, 1]; the blobs are standardized with the training part's statistics.
        if (!real) {
            Normalizer norm = Normalizer.standard(train);
            train = norm.apply(train);
            validation = norm.apply(validation);
            test = norm.apply(test);
            out.println("normalized with the training part's mean and standard deviation per feature");
        }

        // 4. The model and the trainer.
        Model mlp = Model.input("image", Shape.of(-1, 784))
                .dense(128, Activation.RELU)
                .dense(10)
                .named("classifier");
        out.println(mlp.summary());
        int epochs = small ? 1 : 5;
        Trainer trainer = Trainer.of(mlp, Losses.softmaxCrossEntropy(), Optimizers.adam(small ? 3e-3 : 1e-3)).metrics(Metrics.accuracy());
        FitResult fit = trainer.fit(mlp.init(Prng.key(0)), train,
                Fit.epochs(epochs).batchSize(small ? 64 : 128).validation(validation).progressLines().output(out));

        // 5. Test accuracy and a few predictions.
        ModelState state = fit.state().model();
        Map<String, Double> t = trainer.evaluate(state, test, 512);
        out.printf(Locale.ROOT, "test: loss %.4f, accuracy %.4f (%d examples)%n", t.get("loss"), t.get("accuracy"), test.size());
        int shown = 8;
        TensorDataset few = test.take(shown);
        Tensor probs = softmax(mlp.predict(state, few.x()));
        int[] predicted = probs.argmax(1).toIntArray(), truth = few.y().toIntArray();
        float[] p = probs.toFloatArray();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < shown; i++) {
            String line = String.format(Locale.ROOT, "  #%d: predicted %-12s (p %.2f), true %-12s %s", i, classes.get(predicted[i]),
                    p[i * 10 + predicted[i]], classes.get(truth[i]), predicted[i] == truth[i] ? "ok" : "wrong");
            lines.add(line);
        }
        out.println("first " + shown + " test predictions:");
        lines.forEach(out::println);

        double threshold = small ? (real ? 0.7 : 0.95) : (real ? 0.85 : 0.95);
        ExampleFailure.check(t.get("accuracy") > threshold, "classifier", "the test accuracy is %.4f, expected > %.2f", t.get("accuracy"), threshold);
        out.printf(Locale.ROOT, "ok: test accuracy %.4f > %.2f%n", t.get("accuracy"), threshold);
        return new Result(real, train.size(), validation.size(), test.size(), t.get("accuracy"), threshold, lines);
    }

    /** Row-wise softmax of logits {@code [n, k]}. */
    static Tensor softmax(Tensor logits) {
        Tensor e = logits.subtract(logits.max(new int[] {1}, true)).exp();
        return e.divide(e.sum(new int[] {1}, true));
    }

    /**
     * A stand-in for Fashion-MNIST: 10 classes, each a Gaussian blob around its own random center in 784 dimensions
     * (centers with standard deviation 0.3 per pixel around 0.5, noise with standard deviation 1), pixels not clipped.
     * Returns the training and test parts.
     */
    static TensorDataset[] blobs(int trainSize, int testSize) {
        Tensor centers = Prng.normal(Prng.key(100), Shape.of(10, 784), DType.F32, 0.5, 0.3).values();
        return new TensorDataset[] {blobPart(centers, trainSize, 101), blobPart(centers, testSize, 102)};
    }

    private static TensorDataset blobPart(Tensor centers, int n, long seed) {
        Tensor labels = Prng.randint(Prng.key(seed), 0, 10, Shape.of(n), DType.S32).values();
        Tensor noise = Prng.normal(Prng.key(seed + 1000), Shape.of(n, 784), DType.F32, 0, 1).values();
        return TensorDataset.of(centers.take(labels, 0).add(noise), labels);
    }
}
