package dev.jburn.train;

import dev.jburn.JBurnException;
import dev.jburn.data.TensorDataset;

import java.io.PrintStream;

/**
 * Options of {@link Trainer#fit}. Immutable; start from {@link #epochs(int)}:
 *
 * <pre>{@code
 * Fit.epochs(5).batchSize(128).shuffle(42).validation(test)
 * Fit.epochs(10).batchSize(64).validationSplit(0.1).initialEpoch(2)   // resume after epoch 2
 * }</pre>
 *
 * @param epochs          the epoch to stop before (epochs run are {@code initialEpoch..epochs-1})
 * @param batchSize       examples per step (default 32)
 * @param shuffleSeed     seed of the per-epoch shuffle ({@code Prng.foldIn(key(seed), epoch)}), or -1 for none (default 0)
 * @param validation      data evaluated after each epoch (null: none)
 * @param validationSplit a fraction of the training data held out for validation instead (0: none)
 * @param stepsPerEpoch   at most this many steps an epoch (0: the whole data)
 * @param initialEpoch    the first epoch to run (to resume from a checkpoint)
 * @param dropLast        drop the last short batch instead of padding it (default false: padded rows weigh 0, so
 *                        every example counts and the step never recompiles)
 * @param progress        how progress is shown (default: a bar on a terminal, lines otherwise)
 * @param out             where progress and logs go (default System.out)
 * @param precision       the precision policy (default {@link Precision#full()}; {@link Precision#mixedBf16()} and
 *                        {@link Precision#mixedF16()} compute in 16-bit floats with f32 parameters)
 * @param dataParallel    how training is spread over replicas (null: one replica, the default); {@code batchSize}
 *                        is then the global batch, split evenly across the replicas
 */
public record Fit(int epochs, int batchSize, long shuffleSeed, TensorDataset validation, double validationSplit,
                  int stepsPerEpoch, int initialEpoch, boolean dropLast, ProgressMode progress, PrintStream out,
                  Precision precision, DataParallel dataParallel) {
    /** How progress is shown: AUTO is a bar on a terminal and log lines otherwise. */
    public enum ProgressMode { AUTO, BAR, LINES, NONE }

    public Fit {
        if (epochs < 1) throw new JBurnException("fit", "epochs must be >= 1, got " + epochs);
        if (batchSize < 1) throw new JBurnException("fit", "the batch size must be >= 1, got " + batchSize);
        if (!(validationSplit >= 0 && validationSplit < 1)) throw new JBurnException("fit", "the validation split must be in [0, 1), got " + validationSplit);
        if (validation != null && validationSplit > 0) throw new JBurnException("fit", "give validation data or a validation split, not both");
        if (stepsPerEpoch < 0) throw new JBurnException("fit", "stepsPerEpoch must be >= 0, got " + stepsPerEpoch);
        if (initialEpoch < 0 || initialEpoch >= epochs) throw new JBurnException("fit", "initialEpoch must be in [0, epochs), got " + initialEpoch);
        if (progress == null || out == null) throw new JBurnException("fit", "progress mode and output are required");
        if (precision == null) throw new JBurnException("fit", "the precision must not be null (Precision.full() for none)");
    }

    /** {@code n} epochs, batch 32, shuffled with seed 0, no validation. */
    public static Fit epochs(int n) { return new Fit(n, 32, 0, null, 0, 0, 0, false, ProgressMode.AUTO, System.out, Precision.full(), null); }

    public Fit batchSize(int b) { return new Fit(epochs, b, shuffleSeed, validation, validationSplit, stepsPerEpoch, initialEpoch, dropLast, progress, out, precision, dataParallel); }

    public Fit shuffle(long seed) { return new Fit(epochs, batchSize, seed, validation, validationSplit, stepsPerEpoch, initialEpoch, dropLast, progress, out, precision, dataParallel); }

    public Fit noShuffle() { return shuffle(-1); }

    public Fit validation(TensorDataset v) { return new Fit(epochs, batchSize, shuffleSeed, v, validationSplit, stepsPerEpoch, initialEpoch, dropLast, progress, out, precision, dataParallel); }

    public Fit validationSplit(double f) { return new Fit(epochs, batchSize, shuffleSeed, validation, f, stepsPerEpoch, initialEpoch, dropLast, progress, out, precision, dataParallel); }

    public Fit stepsPerEpoch(int n) { return new Fit(epochs, batchSize, shuffleSeed, validation, validationSplit, n, initialEpoch, dropLast, progress, out, precision, dataParallel); }

    public Fit initialEpoch(int e) { return new Fit(epochs, batchSize, shuffleSeed, validation, validationSplit, stepsPerEpoch, e, dropLast, progress, out, precision, dataParallel); }

    public Fit dropLast(boolean d) { return new Fit(epochs, batchSize, shuffleSeed, validation, validationSplit, stepsPerEpoch, initialEpoch, d, progress, out, precision, dataParallel); }

    /** Trains under precision policy {@code p} (e.g. {@link Precision#mixedBf16()}); validation runs in its compute type too. */
    public Fit precision(Precision p) { return new Fit(epochs, batchSize, shuffleSeed, validation, validationSplit, stepsPerEpoch, initialEpoch, dropLast, progress, out, p, dataParallel); }

    /**
     * Trains data-parallel as {@code dp} says ({@link DataParallel#threads(int)}, {@link DataParallel#of}); null
     * for one replica. The batch size is the global batch.
     */
    public Fit dataParallel(DataParallel dp) { return new Fit(epochs, batchSize, shuffleSeed, validation, validationSplit, stepsPerEpoch, initialEpoch, dropLast, progress, out, precision, dp); }

    /** A progress bar whatever the output. */
    public Fit progressBar() { return withProgress(ProgressMode.BAR); }

    /** Plain log lines whatever the output. */
    public Fit progressLines() { return withProgress(ProgressMode.LINES); }

    /** No progress output (callbacks still run). */
    public Fit quiet() { return withProgress(ProgressMode.NONE); }

    public Fit output(PrintStream o) { return new Fit(epochs, batchSize, shuffleSeed, validation, validationSplit, stepsPerEpoch, initialEpoch, dropLast, progress, o, precision, dataParallel); }

    private Fit withProgress(ProgressMode m) { return new Fit(epochs, batchSize, shuffleSeed, validation, validationSplit, stepsPerEpoch, initialEpoch, dropLast, m, out, precision, dataParallel); }
}
