package dev.jburn.train;

import dev.jburn.JBurnException;
import dev.jburn.optim.Schedule;

/**
 * What callbacks see and change during {@link Trainer#fit}: the training state (parameters,
 * optimizer state, key), the history so far, the epoch and step, and the learning rate.
 */
public final class TrainingContext {
    private TrainStep.State state;
    private final History history;
    private final Schedule schedule;
    private final int epochs;
    private double lrScale = 1;
    private double baseLr;
    private long step;
    private int epoch;

    TrainingContext(TrainStep.State state, History history, Schedule schedule, int epochs) {
        this.state = state;
        this.history = history;
        this.schedule = schedule;
        this.epochs = epochs;
        this.baseLr = state.optimizer().learningRate();
    }

    /** The current training state. */
    public TrainStep.State state() { return state; }

    /**
     * Replaces the training state (restoring the best weights, loading a checkpoint). The new state must come
     * from the same model and optimizer.
     */
    public void setState(TrainStep.State s) {
        if (s == null) throw new JBurnException("callback", "the state must not be null");
        state = s;
    }

    /** The history so far. */
    public History history() { return history; }

    /** The number of optimizer steps taken so far. */
    public long step() { return step; }

    /** The current epoch (0-based). */
    public int epoch() { return epoch; }

    /** The total number of epochs of this fit. */
    public int epochs() { return epochs; }

    /** The learning rate of the next step. */
    public double learningRate() { return schedule == null ? baseLr * lrScale : schedule.at(step) * lrScale; }

    /** Sets the learning rate from the next step on; with a schedule, scales the schedule to give {@code lr} now. */
    public void setLearningRate(double lr) {
        if (!(lr >= 0) || Double.isInfinite(lr)) throw new JBurnException("callback", "the learning rate must be finite and >= 0, got " + lr);
        if (schedule == null) {
            baseLr = lr;
            lrScale = 1;
        } else {
            double s = schedule.at(step);
            lrScale = s == 0 ? 0 : lr / s;
        }
    }

    void advance(long steps) { step = steps; }

    void epoch(int e) { epoch = e; }
}
