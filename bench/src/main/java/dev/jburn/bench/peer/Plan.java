package dev.jburn.bench.peer;

/**
 * How each workload is timed, in every runtime alike: warm-up calls first (at least {@code warmups} of them, and
 * more until they have taken {@link #warmupSeconds()}, so that a JIT has compiled the hot code), the last one's
 * time picking {@code inner}, the calls per sample, so that a sample lasts at least {@code minSampleSeconds}; then
 * {@code reps} samples. The figure is the median of the samples' seconds per call.
 */
public record Plan(int reps, int warmups, double minSampleSeconds) {
    public Plan {
        if (reps < 1 || warmups < 1 || !(minSampleSeconds >= 0)) {
            throw new IllegalArgumentException("need reps >= 1, warm-ups >= 1, min sample >= 0; got " + reps + ", "
                    + warmups + ", " + minSampleSeconds);
        }
    }

    /** The least total time of the warm-up calls: twice a sample. */
    public double warmupSeconds() { return 2 * minSampleSeconds; }

    /** Calls per sample after a warm-up call that took {@code lastSeconds}. */
    public int inner(double lastSeconds) {
        return (int) Math.max(1, Math.min(100_000, Math.ceil(minSampleSeconds / Math.max(lastSeconds, 1e-9))));
    }
}
