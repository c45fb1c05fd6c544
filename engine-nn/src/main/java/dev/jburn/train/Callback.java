package dev.jburn.train;

import java.util.Map;

/**
 * Hooks into {@link Trainer#fit}: each returns what training does next. {@link Callbacks} has the
 * usual ones; write your own by overriding the hooks you need.
 *
 * <pre>{@code
 * Callback stopAt90 = new Callback() {
 *     public Action onEpochEnd(TrainingContext c, int epoch, Map<String, Double> logs) {
 *         return logs.get("val_accuracy") >= 0.9 ? Action.STOP_TRAINING : Action.CONTINUE;
 *     }
 * };
 * }</pre>
 */
public interface Callback {
    /** What training does after a hook. */
    enum Action {
        /** Go on. */
        CONTINUE,
        /** End this epoch now (its logs cover the batches run so far); go on with the next. */
        STOP_EPOCH,
        /** End training after this hook. */
        STOP_TRAINING
    }

    /** Before the first epoch. */
    default void onTrainBegin(TrainingContext context) {}

    /** Before each epoch. */
    default void onEpochBegin(TrainingContext context, int epoch) {}

    /**
     * After each batch; {@code loss} is the batch's mean loss. Reading a loss on the host waits for the device, so
     * unless some callback's {@link #needsBatchLoss} is true, {@link Trainer#fit} reads the losses of up to 32 steps at
     * once and calls this for each of them then, in order: an action returned here takes effect after the group.
     */
    default Action onBatchEnd(TrainingContext context, long step, double loss) { return Action.CONTINUE; }

    /** After each epoch, with its logs ({@code loss}, metrics, {@code val_*}, {@code lr}). */
    default Action onEpochEnd(TrainingContext context, int epoch, Map<String, Double> logs) { return Action.CONTINUE; }

    /** After the last epoch (also when a callback stopped training). */
    default void onTrainEnd(TrainingContext context) {}

    /** Whether {@link Trainer#fit} must read every batch's loss on the host for this callback (a device sync per step). */
    default boolean needsBatchLoss() { return false; }
}
