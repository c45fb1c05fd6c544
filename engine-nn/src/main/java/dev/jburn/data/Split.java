package dev.jburn.data;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A dataset cut into training, validation and test parts by fractions, in a random order drawn
 * with a key (the same key, the same parts). {@link #stratified} keeps each label's share in
 * every part (up to rounding per label).
 *
 * <pre>{@code
 * Split s = Split.stratified(data, Prng.key(7), 0.8, 0.1);   // 80% / 10% / the remaining 10%
 * trainer.fit(state, s.train(), Fit.epochs(5).validation(s.validation()));
 * }</pre>
 *
 * Each part is itself in random order. The validation and test parts may be empty (a fraction
 * of 0, or too few examples); the training part may not.
 *
 * @param train      the training part
 * @param validation the validation part
 * @param test       the test part: what train and validation leave
 */
public record Split(TensorDataset train, TensorDataset validation, TensorDataset test) {

    /** Parts of {@code trainFraction}, {@code validationFraction} and the rest of {@code data}, shuffled with {@code key}. */
    public static Split random(TensorDataset data, Tensor key, double trainFraction, double validationFraction) {
        check(trainFraction, validationFraction);
        int n = data.size();
        int[] order = TensorDataset.permutation(key, n);
        int nTrain = (int) Math.round(n * trainFraction);
        int nVal = Math.min(n - nTrain, (int) Math.round(n * validationFraction));
        return parts(data, order, nTrain, nVal, trainFraction);
    }

    /**
     * As {@link #random}, with the fractions applied to each label's examples separately, so that
     * every part keeps the label proportions. Labels must be integers of rank 1.
     */
    public static Split stratified(TensorDataset data, Tensor key, double trainFraction, double validationFraction) {
        check(trainFraction, validationFraction);
        Tensor y = data.y();
        if (y.rank() != 1 || !y.dtype().isInteger()) {
            throw new JBurnException("split", "a stratified split needs integer labels [n], got " + y.dtype().shortName() + y.shape()
                    + " (split before oneHot)");
        }
        long[] labels = y.toLongArray();
        Map<Long, int[]> perLabel = new HashMap<>(); // label -> {count, seen}
        for (long l : labels) perLabel.computeIfAbsent(l, k -> new int[2])[0]++;
        int[] order = TensorDataset.permutation(key, data.size());
        int[][] parts = new int[3][data.size()];
        int[] sizes = new int[3];
        for (int row : order) {
            int[] c = perLabel.get(labels[row]);
            int nTrain = (int) Math.round(c[0] * trainFraction);
            int nVal = Math.min(c[0] - nTrain, (int) Math.round(c[0] * validationFraction));
            int part = c[1] < nTrain ? 0 : c[1] < nTrain + nVal ? 1 : 2;
            c[1]++;
            parts[part][sizes[part]++] = row;
        }
        if (sizes[0] == 0) throw new JBurnException("split", "a training fraction of " + trainFraction + " of " + data.size() + " examples leaves the training part empty");
        return new Split(data.rows(Arrays.copyOf(parts[0], sizes[0])), data.rows(Arrays.copyOf(parts[1], sizes[1])),
                data.rows(Arrays.copyOf(parts[2], sizes[2])));
    }

    private static Split parts(TensorDataset data, int[] order, int nTrain, int nVal, double trainFraction) {
        if (nTrain == 0) throw new JBurnException("split", "a training fraction of " + trainFraction + " of " + data.size() + " examples leaves the training part empty");
        return new Split(data.rows(Arrays.copyOfRange(order, 0, nTrain)), data.rows(Arrays.copyOfRange(order, nTrain, nTrain + nVal)),
                data.rows(Arrays.copyOfRange(order, nTrain + nVal, order.length)));
    }

    private static void check(double train, double validation) {
        if (!(train > 0 && train <= 1) || !(validation >= 0 && validation < 1) || train + validation > 1 + 1e-9) {
            throw new JBurnException("split", "fractions must have train in (0, 1], validation in [0, 1) and train + validation <= 1, got "
                    + train + " and " + validation);
        }
    }
}
