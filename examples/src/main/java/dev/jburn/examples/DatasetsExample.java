package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.BatchLoader;
import dev.jburn.data.Csv;
import dev.jburn.data.CsvOptions;
import dev.jburn.data.Normalizer;
import dev.jburn.data.Split;
import dev.jburn.data.TensorDataset;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The dataset utilities of {@code dev.jburn.data}, runnable: {@code ./jburn example datasets}. On a synthetic
 * dataset of three imbalanced classes (60% / 30% / 10%) and three features of very different scales it shows and
 * checks: a random and a stratified {@link Split} (70% / 15% / 15%; sizes and class proportions printed; the stratified
 * parts keep each class's share exactly, the random parts cover every example once), {@link Normalizer}s fitted on the
 * training part and applied to the test part (standardization: the training part gets mean 0 and standard deviation 1,
 * the test part comes close; min-max: the training part spans [0, 1]), one-hot labels, a {@link BatchLoader} epoch
 * shuffled with a key (the same key gives the same order, another epoch another order, every example once), and
 * {@link Csv#read} of a small CSV file written to a temporary file.
 */
public final class DatasetsExample {
    private DatasetsExample() {}

    /** What the example found. */
    public record Result(int[] stratifiedSizes, double[] trainMean, double[] trainStd, double[] testMean, double[] testStd,
                         int[] loaderOrder, int batches, TensorDataset csv) {}

    public static void main(String[] args) throws IOException { run(System.out, args.length > 0 && args[0].equals("--small")); }

    /** Runs the example, printing to {@code out}; {@code small}: 600 instead of 3000 examples. */
    public static Result run(PrintStream out, boolean small) throws IOException {
        int n = small ? 600 : 3000;
        String ex = "datasets";

        // A dataset: labels 0/1/2 with probabilities 0.6/0.3/0.1, features on scales 50±10, 0.001±0.0005 and [-5, 5).
        Tensor u = Prng.uniform(Prng.key(1), Shape.of(n), DType.F32, 0, 1).values();
        Tensor labels = u.greaterEqual(0.6).asType(DType.S32).add(u.greaterEqual(0.9).asType(DType.S32));
        Tensor f0 = Prng.normal(Prng.key(2), Shape.of(n, 1), DType.F32, 50, 10).values().add(labels.asType(DType.F32).newAxis(1).multiply(5));
        Tensor f1 = Prng.normal(Prng.key(3), Shape.of(n, 1), DType.F32, 0.001, 0.0005).values();
        Tensor f2 = Prng.uniform(Prng.key(4), Shape.of(n, 1), DType.F32, -5, 5).values();
        TensorDataset data = TensorDataset.of(Tensor.concatenate(List.of(f0, f1, f2), 1), labels);
        // The same examples by row number, to follow where each one goes.
        TensorDataset ids = TensorDataset.of(Tensor.iota(Shape.of(n), DType.S32), labels);
        out.println("data: " + n + " examples, x " + data.x().dtype().shortName() + data.x().shape() + ", y "
                + data.y().dtype().shortName() + data.y().shape() + ", classes " + proportions(labels));

        // 1. Splits: 70% training, 15% validation, the remaining 15% test.
        Split random = Split.random(data, Prng.key(7), 0.7, 0.15);
        out.println("random split:     " + describe(random));
        Split randomIds = Split.random(ids, Prng.key(7), 0.7, 0.15);    // same key, same n: the same rows
        int[] seen = new int[n];
        for (TensorDataset part : List.of(randomIds.train(), randomIds.validation(), randomIds.test())) {
            for (int id : part.x().toIntArray()) seen[id]++;
        }
        ExampleFailure.check(Arrays.stream(seen).allMatch(c -> c == 1), ex, "the random split does not hold every example exactly once");
        ExampleFailure.check(random.train().size() == Math.round(n * 0.7) && random.validation().size() == Math.round(n * 0.15), ex,
                "random split sizes %d / %d, expected %d / %d", random.train().size(), random.validation().size(), Math.round(n * 0.7), Math.round(n * 0.15));

        Split strat = Split.stratified(data, Prng.key(7), 0.7, 0.15);
        out.println("stratified split: " + describe(strat));
        int[] total = counts(labels);
        TensorDataset[] parts = {strat.train(), strat.validation(), strat.test()};
        for (int c = 0; c < 3; c++) {
            int nTrain = (int) Math.round(total[c] * 0.7), nVal = Math.min(total[c] - nTrain, (int) Math.round(total[c] * 0.15));
            int[] want = {nTrain, nVal, total[c] - nTrain - nVal};
            for (int p = 0; p < 3; p++) {
                int got = counts(parts[p].y())[c];
                ExampleFailure.check(got == want[p], ex, "stratified part %d holds %d examples of class %d, expected %d", p, got, c, want[p]);
            }
        }
        out.println("ok: the stratified parts keep each class's share (up to rounding per class); the random parts cover every example once");

        // 2. Normalization: statistics fitted on the training part only, applied to training and test.
        TensorDataset train = strat.train(), test = strat.test();
        Normalizer standard = Normalizer.standard(train);
        out.println("standard normalizer fitted on the training part: mean " + fmt(standard.shift().toDoubleArray())
                + ", std " + fmt(standard.scale().toDoubleArray()));
        TensorDataset trainZ = standard.apply(train), testZ = standard.apply(test);
        double[] trainMean = mean(trainZ.x()), trainStd = std(trainZ.x()), testMean = mean(testZ.x()), testStd = std(testZ.x());
        out.println("  training part after: mean " + fmt(trainMean) + ", std " + fmt(trainStd));
        out.println("  test part after:     mean " + fmt(testMean) + ", std " + fmt(testStd) + " (the training statistics: close, not exact)");
        for (int f = 0; f < 3; f++) {
            ExampleFailure.check(Math.abs(trainMean[f]) < 1e-4 && Math.abs(trainStd[f] - 1) < 1e-3, ex,
                    "feature %d of the standardized training part has mean %.6f and std %.6f", f, trainMean[f], trainStd[f]);
            ExampleFailure.check(Math.abs(testMean[f]) < 0.35 && Math.abs(testStd[f] - 1) < 0.35, ex,
                    "feature %d of the standardized test part has mean %.4f and std %.4f, far from 0 and 1", f, testMean[f], testStd[f]);
        }
        Normalizer minMax = Normalizer.minMax(train);
        Tensor trainM = minMax.apply(train.x()), testM = minMax.apply(test.x());
        double[] lo = trainM.min(new int[] {0}).toDoubleArray(), hi = trainM.max(new int[] {0}).toDoubleArray();
        out.println("min-max normalizer: training part spans " + fmt(lo) + " .. " + fmt(hi) + "; test part "
                + fmt(testM.min(new int[] {0}).toDoubleArray()) + " .. " + fmt(testM.max(new int[] {0}).toDoubleArray()));
        for (int f = 0; f < 3; f++) {
            ExampleFailure.check(Math.abs(lo[f]) < 1e-6 && Math.abs(hi[f] - 1) < 1e-6, ex, "min-max feature %d spans %.6f .. %.6f, not 0 .. 1", f, lo[f], hi[f]);
        }
        double[] back = minMax.invert(trainM).subtract(train.x()).abs().max().toDoubleArray();
        ExampleFailure.check(back[0] < 1e-3, ex, "min-max invert is off by %.6f", back[0]);
        out.println("ok: training part standardized to mean 0 / std 1 and min-max scaled to [0, 1]; invert gives the data back");

        // 3. One-hot labels.
        TensorDataset oneHot = train.oneHot(3);
        Tensor rowSums = oneHot.y().sum(new int[] {1});
        boolean rowsOk = Arrays.stream(rowSums.toDoubleArray()).allMatch(s -> s == 1.0);
        boolean argmaxOk = Arrays.equals(oneHot.y().argmax(1).toIntArray(), train.y().toIntArray());
        out.println("one-hot: y " + oneHot.y().dtype().shortName() + oneHot.y().shape() + ", first rows " + Arrays.toString(
                Arrays.copyOf(oneHot.y().toFloatArray(), 9)) + " for labels " + Arrays.toString(Arrays.copyOf(train.y().toIntArray(), 3)));
        ExampleFailure.check(rowsOk && argmaxOk && oneHot.y().shape().equals(Shape.of(train.size(), 3)), ex,
                "one-hot rows must sum to 1 and put the 1 at the label");
        out.println("ok: one-hot rows sum to 1, with the 1 at the label");

        // 4. A BatchLoader epoch, shuffled with a key: the same key, the same batches.
        TensorDataset trainIds = Split.stratified(ids, Prng.key(7), 0.7, 0.15).train();
        int batchSize = 64;
        int[] first, again, nextEpoch;
        int batches, lastSize;
        try (BatchLoader loader = BatchLoader.of(trainIds, batchSize).shuffle(Prng.key(5))) {
            batches = loader.batchCount();
            List<Integer> sizes = new ArrayList<>();
            first = order(loader, 0, sizes);
            lastSize = sizes.getLast();
            nextEpoch = order(loader, 1, new ArrayList<>());
        }
        try (BatchLoader loader = BatchLoader.of(trainIds, batchSize).shuffle(Prng.key(5))) {
            again = order(loader, 0, new ArrayList<>());
        }
        int dropLastCount;
        try (BatchLoader loader = BatchLoader.of(trainIds, batchSize).dropLast(true)) { dropLastCount = loader.batchCount(); }
        out.printf(Locale.ROOT, "batch loader: %d examples in %d batches of %d (the last holds %d; dropLast(true) gives %d batches)%n",
                trainIds.size(), batches, batchSize, lastSize, dropLastCount);
        out.println("  epoch 0 with key 5 starts " + head(first) + "; again with a new loader " + head(again) + "; epoch 1 " + head(nextEpoch));
        ExampleFailure.check(Arrays.equals(first, again), ex, "the same key and epoch gave two different orders");
        ExampleFailure.check(!Arrays.equals(first, nextEpoch), ex, "epochs 0 and 1 came in the same order");
        int[] sorted = first.clone();
        Arrays.sort(sorted);
        int[] expected = trainIds.x().toIntArray().clone();
        Arrays.sort(expected);
        ExampleFailure.check(Arrays.equals(sorted, expected), ex, "an epoch did not hand out every example exactly once");
        ExampleFailure.check(batches == (trainIds.size() + batchSize - 1) / batchSize && dropLastCount == trainIds.size() / batchSize, ex,
                "batch counts %d and %d are wrong", batches, dropLastCount);
        out.println("ok: same key, same order; each epoch a new permutation of every example");

        // 5. CSV: a small file with a header, one quoted field and the label in a named column.
        Path file = Files.createTempFile("jburn-datasets-example", ".csv");
        TensorDataset csv;
        try {
            Files.writeString(file, """
                    sepal_length,sepal_width,"petal length",species
                    5.1,3.5,1.4,0
                    4.9,3.0,1.4,0
                    6.4,3.2,4.5,1
                    6.9,3.1,4.9,1
                    6.3,3.3,6.0,2
                    5.8,2.7,5.1,2
                    """);
            csv = Csv.read(file, CsvOptions.defaults().label("species"));
        } finally {
            Files.deleteIfExists(file);
        }
        out.println("csv: x " + csv.x().dtype().shortName() + csv.x().shape() + ", y " + csv.y().dtype().shortName() + csv.y().shape()
                + " " + Arrays.toString(csv.y().toIntArray()) + ", first row " + Arrays.toString(Arrays.copyOf(csv.x().toFloatArray(), 3)));
        ExampleFailure.check(csv.x().shape().equals(Shape.of(6, 3)) && csv.y().dtype() == DType.S32
                        && Arrays.equals(csv.y().toIntArray(), new int[] {0, 0, 1, 1, 2, 2})
                        && Arrays.equals(Arrays.copyOf(csv.x().toFloatArray(), 3), new float[] {5.1f, 3.5f, 1.4f}), ex,
                "the CSV did not read back as written: x %s, y %s", csv.x().shape(), Arrays.toString(csv.y().toIntArray()));
        out.println("ok: the CSV reads back as written");
        return new Result(new int[] {strat.train().size(), strat.validation().size(), strat.test().size()}, trainMean, trainStd, testMean, testStd,
                first, batches, csv);
    }

    private static int[] order(BatchLoader loader, int epoch, List<Integer> sizes) {
        List<Integer> ids = new ArrayList<>();
        for (TensorDataset batch : loader.epoch(epoch)) {
            for (int id : batch.x().toIntArray()) ids.add(id);
            sizes.add(batch.size());
            batch.x().close();      // batches are made on the loader's thread: close them (or let the cleaner free them)
            batch.y().close();
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String head(int[] a) { return Arrays.toString(Arrays.copyOf(a, 6)).replace("]", ", ...]"); }

    private static int[] counts(Tensor labels) {
        int[] c = new int[3];
        for (int l : labels.toIntArray()) c[l]++;
        return c;
    }

    private static String proportions(Tensor labels) {
        int[] c = counts(labels);
        int n = Math.max(1, labels.shape().dim(0));
        return String.format(Locale.ROOT, "%d/%d/%d (%.1f%% / %.1f%% / %.1f%%)", c[0], c[1], c[2], 100.0 * c[0] / n, 100.0 * c[1] / n, 100.0 * c[2] / n);
    }

    private static String describe(Split s) {
        return String.format(Locale.ROOT, "train %d %s, validation %d %s, test %d %s", s.train().size(), proportions(s.train().y()),
                s.validation().size(), proportions(s.validation().y()), s.test().size(), proportions(s.test().y()));
    }

    private static double[] mean(Tensor x) { return x.asType(DType.F64).mean(new int[] {0}).toDoubleArray(); }

    private static double[] std(Tensor x) {
        Tensor d = x.asType(DType.F64);
        Tensor c = d.subtract(d.mean(new int[] {0}, true));
        return c.multiply(c).mean(new int[] {0}).sqrt().toDoubleArray();
    }

    private static String fmt(double[] v) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4g", v[i]));
        return sb.append(']').toString();
    }
}
