package dev.jburn.optim;

/**
 * A learning rate as a function of the step (from 0). Evaluated on the host before each step; the
 * value goes into the optimizer state's {@code "learning_rate"} scalar, so a compiled step never
 * recompiles for it. {@link Schedules} has the usual ones.
 *
 * <pre>{@code
 * Schedule s = Schedules.warmupCosine(1e-3, 500, 10_000, 0);
 * double lr = s.at(250);   // half way through the warm-up: 5e-4
 * }</pre>
 */
@FunctionalInterface
public interface Schedule {
    /** The learning rate at {@code step}. */
    double at(long step);
}
