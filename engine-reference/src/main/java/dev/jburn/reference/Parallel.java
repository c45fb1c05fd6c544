package dev.jburn.reference;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * Splits index ranges across the engine's threads. Work below the threshold runs on the
 * caller's thread, so small ops pay no hand-off.
 */
final class Parallel {
    @FunctionalInterface
    interface RangeBody {
        /** Processes indices {@code [from, to)}. */
        void run(long from, long to);
    }

    private final ForkJoinPool pool;
    /** The helper threads of {@link #runParticipants}; null with one thread. */
    private final Participants participants;
    private final int threads;
    private final long threshold;

    Parallel(int threads, long threshold) {
        this.threads = threads;
        this.threshold = threshold;
        this.pool = threads > 1 ? fixedPool(threads) : null;
        this.participants = threads > 1 ? new Participants(threads - 1) : null;
    }

    int threads() { return threads; }

    /**
     * A fork-join pool of exactly {@code threads} workers. The default pool adds a spare worker whenever a join
     * blocks ({@link Chunk} splits with {@code invokeAll}), and in a training step it grew to four workers on two
     * cores: the convolutions' chunks then shared cores, evicting each other's images and packed kernels from L1/L2,
     * and ran 1.5x slower than alone (conv 2's input cotangent 5.3 ms in the step, 3.5 ms in isolation). Here a join
     * that cannot be helped just waits (the saturate predicate), and the pool never exceeds its size.
     */
    private static ForkJoinPool fixedPool(int threads) {
        return new ForkJoinPool(threads, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, false, threads, threads, 1, p -> true,
                60, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Runs {@code body} over {@code [0, n)}, in parallel chunks when {@code n * costPerItem >= threshold}. */
    void forRange(long n, long costPerItem, RangeBody body) {
        if (pool == null || n <= 1 || n * Math.max(1, costPerItem) < threshold) {
            body.run(0, n);
            return;
        }
        int parts = (int) Math.min(n, threads * 4L);
        long chunk = (n + parts - 1) / parts;
        pool.invoke(new Chunk(body, 0, n, chunk));
    }

    /**
     * Runs {@code participant} on the caller and on the engine's other threads at the same time
     * (work starts on the caller without waiting for a helper to wake), and returns when all are
     * done; below the threshold ({@code totalCost}), only on the caller. For cooperative kernels
     * whose participants claim shared work (see {@link GemmPhases}): any one participant alone
     * finishes it, so a helper that comes late (or not at all) is not waited for
     * ({@link Participants}).
     */
    void runParticipants(long totalCost, Runnable participant) {
        if (participants == null || totalCost < threshold) {
            participant.run();
            return;
        }
        participants.run(participant);
    }

    void shutdown() {
        if (pool != null) pool.shutdownNow();
        if (participants != null) participants.shutdown();
    }

    private static final class Chunk extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        private final transient RangeBody body;
        private final long from, to, chunk;

        Chunk(RangeBody body, long from, long to, long chunk) {
            this.body = body;
            this.from = from;
            this.to = to;
            this.chunk = chunk;
        }

        @Override
        protected void compute() {
            if (to - from <= chunk) {
                body.run(from, to);
                return;
            }
            long mid = from + ((to - from) / chunk / 2) * chunk;
            if (mid <= from) mid = from + chunk;
            invokeAll(new Chunk(body, from, mid, chunk), new Chunk(body, mid, to, chunk));
        }
    }
}
