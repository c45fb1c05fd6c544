package dev.jburn.bench.peer;

/**
 * One runtime that {@link Rounds} drives workload by workload: {@link #prepare} (inputs and warm-up), then bursts of
 * samples alternating with the other runtimes', then {@link #finish()} (the check). JBurn runs in this JVM, the
 * other peers in child processes that stay up for the whole run, so that every burst finds its runtime warm.
 */
public interface PeerSession extends AutoCloseable {
    /** The column's name, e.g. {@code "torch"}. */
    String peer();

    /** What it runs on (versions, BLAS); null when the whole runtime is unavailable. */
    String library();

    /** Why the whole runtime is skipped, or null when it runs. */
    String unavailable();

    /** Makes {@code w}'s inputs and warms it up: null when ready for bursts, else the cell that stands for {@code w}. */
    Cell prepare(PeerWorkload w);

    /** {@code reps} samples of the prepared workload, in seconds per call; throws when the runtime failed. */
    double[] burst(int reps);

    /** Calls per sample of the prepared workload. */
    int inner();

    /** The check of the last result; frees the workload. */
    String finish();

    @Override void close();
}
