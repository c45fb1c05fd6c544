package dev.jburn.train;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

/** The usual {@link Callback}s. */
public final class Callbacks {
    private Callbacks() {}

    /** One line per epoch on {@code out}: {@code epoch 3/5: loss 0.41 accuracy 0.85 val_loss 0.44 ...}. */
    public static Callback logging(PrintStream out) {
        if (out == null) throw new JBurnException("logging", "the stream must not be null");
        return new Callback() {
            @Override public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) {
                out.println(epochLine(epoch, c.epochs(), logs));
                return Action.CONTINUE;
            }
        };
    }

    static String epochLine(int epoch, int epochs, Map<String, Double> logs) {
        StringBuilder sb = new StringBuilder("epoch " + (epoch + 1) + "/" + epochs + ":");
        logs.forEach((k, v) -> sb.append(' ').append(k).append(' ').append(String.format(Locale.ROOT,
                k.equals("lr") ? "%.3g" : k.equals("samples_per_s") ? "%.0f" : "%.4f", v)));
        return sb.toString();
    }

    /** Stops when {@code monitor} has not improved for {@code patience} epochs; see {@link EarlyStopping} for options. */
    public static EarlyStopping earlyStopping(String monitor, int patience) {
        return new EarlyStopping(monitor, patience, null, 0, false);
    }

    /**
     * Early stopping (Keras's {@code EarlyStopping}): an epoch improves when its {@code monitor} value beats the
     * best by more than {@code minDelta} (lower is better for names containing "loss" unless a mode is given);
     * after {@code patience} epochs without improvement training stops, and with {@link #restoreBest()} the
     * parameters of the best epoch are put back.
     */
    public static final class EarlyStopping implements Callback {
        private final String monitor;
        private final int patience;
        private final Boolean higherIsBetter;
        private final double minDelta;
        private final boolean restore;
        private double best = Double.NaN;
        private int wait;
        private int bestEpoch = -1;
        private int stoppedEpoch = -1;
        private Map<String, Tensor> bestParams;

        EarlyStopping(String monitor, int patience, Boolean higherIsBetter, double minDelta, boolean restore) {
            if (monitor == null || monitor.isBlank()) throw new JBurnException("earlyStopping", "the monitored name is required");
            if (patience < 0 || !(minDelta >= 0)) throw new JBurnException("earlyStopping", "patience and minDelta must be >= 0, got " + patience + ", " + minDelta);
            this.monitor = monitor;
            this.patience = patience;
            this.higherIsBetter = higherIsBetter;
            this.minDelta = minDelta;
            this.restore = restore;
        }

        /** Higher values are better ({@code "max"} mode, for accuracies). */
        public EarlyStopping max() { return new EarlyStopping(monitor, patience, true, minDelta, restore); }

        /** Lower values are better ({@code "min"} mode, for losses). */
        public EarlyStopping min() { return new EarlyStopping(monitor, patience, false, minDelta, restore); }

        /** The least change that counts as an improvement. */
        public EarlyStopping minDelta(double d) { return new EarlyStopping(monitor, patience, higherIsBetter, d, restore); }

        /** Put back the parameters of the best epoch when training stops or ends. */
        public EarlyStopping restoreBest() { return new EarlyStopping(monitor, patience, higherIsBetter, minDelta, true); }

        /** The epoch (0-based) whose value was best, or -1. */
        public int bestEpoch() { return bestEpoch; }

        /** The epoch (0-based) after which it stopped training, or -1. */
        public int stoppedEpoch() { return stoppedEpoch; }

        private boolean higher() { return higherIsBetter != null ? higherIsBetter : !monitor.contains("loss"); }

        @Override public void onTrainBegin(TrainingContext c) {
            best = Double.NaN;
            wait = 0;
            bestEpoch = stoppedEpoch = -1;
            bestParams = null;
        }

        @Override public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) {
            Double v = logs.get(monitor);
            if (v == null) throw new JBurnException("earlyStopping", "'" + monitor + "' is not logged; logged: " + logs.keySet());
            boolean better = !Double.isNaN(v) && (Double.isNaN(best) || (higher() ? v > best + minDelta : v < best - minDelta));
            if (better) {
                best = v;
                bestEpoch = epoch;
                wait = 0;
                if (restore) bestParams = copy(c.state().model().params());
                return Action.CONTINUE;
            }
            if (++wait >= patience) {
                stoppedEpoch = epoch;
                return Action.STOP_TRAINING;
            }
            return Action.CONTINUE;
        }

        @Override public void onTrainEnd(TrainingContext c) {
            if (restore && bestParams != null && bestEpoch != c.epoch()) {
                TrainStep.State s = c.state();
                c.setState(new TrainStep.State(s.model().withParams(bestParams), s.optimizer(), s.key()));
            }
        }
    }

    /**
     * Multiplies the learning rate by {@code factor} when {@code monitor} has not improved for {@code patience}
     * epochs (Keras's {@code ReduceLROnPlateau}), then waits {@code cooldown} epochs, never going below {@code minLr}.
     * The rate is a scalar in the optimizer state, so this never recompiles the step.
     */
    public static Callback reduceLrOnPlateau(String monitor, double factor, int patience, int cooldown, double minLr) {
        if (!(factor > 0 && factor < 1)) throw new JBurnException("reduceLrOnPlateau", "factor must be in (0, 1), got " + factor);
        if (patience < 0 || cooldown < 0 || !(minLr >= 0)) throw new JBurnException("reduceLrOnPlateau", "patience, cooldown and minLr must be >= 0");
        boolean higher = !monitor.contains("loss");
        return new Callback() {
            double best = Double.NaN;
            int wait, cool;

            @Override public void onTrainBegin(TrainingContext c) {
                best = Double.NaN;
                wait = cool = 0;
            }

            @Override public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) {
                Double v = logs.get(monitor);
                if (v == null) throw new JBurnException("reduceLrOnPlateau", "'" + monitor + "' is not logged; logged: " + logs.keySet());
                if (cool > 0) cool--;
                if (!Double.isNaN(v) && (Double.isNaN(best) || (higher ? v > best : v < best))) {
                    best = v;
                    wait = 0;
                } else if (cool == 0 && ++wait >= patience) {
                    c.setLearningRate(Math.max(minLr, c.learningRate() * factor));
                    cool = cooldown;
                    wait = 0;
                }
                return Action.CONTINUE;
            }
        };
    }

    /** Sets the learning rate at the start of each epoch to {@code lr(epoch)} (Keras's {@code LearningRateScheduler}). */
    public static Callback lrScheduler(IntToDoubleFunction lr) {
        if (lr == null) throw new JBurnException("lrScheduler", "the function must not be null");
        return new Callback() {
            @Override public void onEpochBegin(TrainingContext c, int epoch) { c.setLearningRate(lr.applyAsDouble(epoch)); }
        };
    }

    /** {@link dev.jburn.io.Checkpoint}s of the whole training state in {@code dir}: every epoch, the last 3 kept; see {@link CheckpointCallback}. */
    public static CheckpointCallback checkpoint(Path dir) { return new CheckpointCallback(dir, 1, null, 3); }

    /** Rewrites {@code path} with the history as CSV after every epoch (atomically). */
    public static Callback csvLogger(Path path) {
        if (path == null) throw new JBurnException("csvLogger", "the path must not be null");
        return new Callback() {
            @Override public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) {
                c.history().writeCsv(path);
                return Action.CONTINUE;
            }
        };
    }

    /** Stops training at the first batch whose loss is NaN or infinite. */
    public static Callback terminateOnNaN() {
        return new Callback() {
            @Override public Action onBatchEnd(TrainingContext c, long step, double loss) {
                return Double.isFinite(loss) ? Action.CONTINUE : Action.STOP_TRAINING;
            }

            @Override public boolean needsBatchLoss() { return true; }
        };
    }

    /** A callback from a function of the epoch's logs. */
    public static Callback onEpochEnd(EpochHook hook) {
        if (hook == null) throw new JBurnException("callback", "the function must not be null");
        return new Callback() {
            @Override public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) { return hook.apply(c, epoch, logs); }
        };
    }

    /** The function behind {@link #onEpochEnd(EpochHook)}. */
    @FunctionalInterface
    public interface EpochHook {
        Callback.Action apply(TrainingContext context, int epoch, Map<String, Double> logs);
    }

    /** Independent copies of {@code params} (their buffers are donated to the next step). */
    static Map<String, Tensor> copy(Map<String, Tensor> params) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        params.forEach((k, v) -> m.put(k, v.multiply(1).asType(v.dtype())));
        return m;
    }
}
