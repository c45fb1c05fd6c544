package dev.jburn.bench.peer;

/**
 * How each workload is timed, in every runtime alike: warm-up calls first (at least {@code warmups} of them, and
 * more until they have taken {@link #warmupSeconds()}, so that a JIT has compiled the hot code), the last one's
 * time picking {@code inner}, the calls per sample, so that a sample lasts at least {@code minSampleSeconds}; then
 * {@code rounds} rounds in which every runtime in turn takes a burst of {@code reps} samples, after a pause of
 * {@code pauseSeconds} (other runtimes' threads may still spin from their last call). A round's figure is the median
 * of its burst; a ratio between runtimes is taken per round, so that a noisy phase of the machine moves one round's
 * ratio, not the whole figure.
 */
public record Plan(int rounds, int reps, int warmups, double minSampleSeconds, double pauseSeconds) {
    public Plan {
        if (rounds < 1 || reps < 1 || warmups < 1 || !(minSampleSeconds >= 0) || !(pauseSeconds >= 0)) {
            throw new IllegalArgumentException("need rounds >= 1, reps >= 1, warm-ups >= 1, min sample >= 0, pause >= 0;"
                    + " got " + rounds + ", " + reps + ", " + warmups + ", " + minSampleSeconds + ", " + pauseSeconds);
        }
    }

    /** One burst of {@code reps} samples, no pause: for timing a single runtime. */
    public static Plan single(int reps, int warmups, double minSampleSeconds) {
        return new Plan(1, reps, warmups, minSampleSeconds, 0);
    }

    /** The least total time of the warm-up calls: twice a sample. */
    public double warmupSeconds() { return 2 * minSampleSeconds; }

    /** Calls per sample after a warm-up call that took {@code lastSeconds}. */
    public int inner(double lastSeconds) {
        return (int) Math.max(1, Math.min(100_000, Math.ceil(minSampleSeconds / Math.max(lastSeconds, 1e-9))));
    }
}
