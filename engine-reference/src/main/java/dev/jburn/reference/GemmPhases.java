package dev.jburn.reference;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The phases of one blocked GEMM, shared by its participants (the caller and the pool's
 * threads). Each participant walks the same phases in order; in each it claims items from a
 * shared counter until none are left, then waits until every claimed item is done (spinning
 * briefly, then yielding and sleeping).
 *
 * <p>Only claimed items are waited for, so one participant alone finishes everything: no
 * deadlock when the pool runs the participants one after another, or late. Compared with a
 * {@code forRange} per phase: one pool hand-off per GEMM, work starts on the caller at once,
 * and a participant between phases keeps its core (measured: 256² went from ~115 to ~165
 * GFLOP/s, and a loaded machine no longer serializes the two threads).
 */
final class GemmPhases {
    private final AtomicIntegerArray counters;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    GemmPhases(int phases) { counters = new AtomicIntegerArray(2 * phases); }

    @FunctionalInterface
    interface Item {
        void run(int item);
    }

    /** Thrown in the other participants once one has failed; the caller rethrows the cause. */
    private static final class Aborted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Aborted() { super(null, null, false, false); }
    }

    /** Whether {@code phase} ({@code count} items) has items nobody has claimed yet: a late participant can skip preparing for it. */
    boolean unclaimed(int phase, int count) { return counters.get(2 * phase) < count; }

    /** Claims and runs items of {@code phase} ({@code count} in all), then waits for the rest to finish. */
    void run(int phase, int count, Item body) {
        int next = 2 * phase, done = next + 1;
        for (int i; (i = counters.getAndIncrement(next)) < count; ) {
            if (failure.get() != null) throw new Aborted();
            try {
                body.run(i);
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                throw t;
            }
            counters.incrementAndGet(done);
        }
        // An item takes tens of µs: spin about that long, then the owner of the missing
        // item is probably descheduled (a shared machine), so hand the core over.
        for (int spins = 0; counters.get(done) < count; spins++) {
            if (failure.get() != null) throw new Aborted();
            if (spins < 1 << 9) Thread.onSpinWait();
            else if (spins < 1 << 10) Thread.yield();
            else LockSupport.parkNanos(50_000);
        }
    }

    /**
     * Runs {@code participant} on {@code parallel}'s threads, rethrowing the first failure.
     * {@code work} counts fmas; an fma is worth a fraction of an element-wise element, so
     * GEMMs go parallel from 16× the engine's element threshold (about 30 µs of work).
     */
    void runWith(Parallel parallel, long work, Runnable participant) {
        try {
            parallel.runParticipants(work / 16, participant);
        } catch (RuntimeException | Error e) {
            Throwable cause = failure.get();
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw e;
        }
    }
}
