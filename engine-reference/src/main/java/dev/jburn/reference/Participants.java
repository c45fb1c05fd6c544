package dev.jburn.reference;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The helper threads of cooperative kernels (GEMM, see {@link GemmPhases}): up to
 * {@code threads - 1} daemon threads that join the caller's work, with a hand-off cheap enough
 * for a 256² GEMM (about 100 µs of work on two cores).
 *
 * <p>Why not the fork-join pool: on this 2-core machine a submitted participant often started
 * tens of µs late (a parked worker's wake-up), and {@code join} then waited for it even when the
 * caller had already done all the work. Here:
 * <ul>
 *   <li>a helper spins for {@link #SPIN_NANOS} after each job before it parks, so back-to-back
 *       GEMMs (a training step's layers, a benchmark's calls) hand over with a volatile write;</li>
 *   <li>the caller never waits for a helper that has not started: when its own part returns,
 *       every item is done (participants claim work from shared counters), so it closes the job
 *       and waits only for helpers already inside it;</li>
 *   <li>one job at a time: a caller that finds the helpers busy runs its kernel alone, which the
 *       participants' design allows.</li>
 * </ul>
 * Helpers start with the first job and end after {@link #IDLE_NANOS} without one, so an engine
 * that is never closed keeps no threads.
 */
final class Participants {
    /**
     * How long an idle helper spins before it parks: back-to-back jobs then cost no wake-up. Short, because a spinning
     * helper takes a core from everything else in the process and on the host: with 200 µs the Vulkan conformance kit on
     * lavapipe (whose workers share the cores with the cpu engine's oracle GEMMs) took 316 s, with 20 µs 106 s and with
     * none 145 s, while the MLP and CNN training steps showed no difference between 200 µs and none.
     */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("jburn.spinMicros", 20));
    /** How long a parked helper waits for a job before its thread ends (the next job starts a new one). */
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private static final AtomicLong GENERATIONS = new AtomicLong();

    /** One kernel call: its participant, the helpers inside it, and the first failure. */
    private static final class Job {
        /** Added to {@link #state} once the caller's part is done: no helper may enter after it. */
        static final int CLOSED = 1 << 30;
        final long generation = GENERATIONS.incrementAndGet();
        final Runnable participant;
        final Thread caller = Thread.currentThread();
        /** Helpers inside the job, plus {@link #CLOSED}. */
        final AtomicInteger state = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Job(Runnable participant) { this.participant = participant; }

        /** A helper's visit: runs the participant unless the job is closed. */
        void visit() {
            int s;
            do {
                s = state.get();
                if ((s & CLOSED) != 0) return;
            } while (!state.compareAndSet(s, s + 1));
            try {
                participant.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                if (state.decrementAndGet() == CLOSED) LockSupport.unpark(caller);
            }
        }

        /** The caller's part is done: lets no more helpers in and waits for those inside (who are finishing their last items). */
        void closeAndWait() {
            int spins = 0;
            for (int s = state.addAndGet(CLOSED); s != CLOSED; s = state.get()) {
                if (spins++ < 1 << 10) Thread.onSpinWait();
                else LockSupport.parkNanos(this, 20_000);
            }
        }
    }

    /** One helper's slot: its thread while it runs, and whether it is parked (so a caller knows to unpark it). */
    private final class Helper implements Runnable {
        final int index;
        volatile Thread thread;
        final AtomicInteger parked = new AtomicInteger();

        Helper(int index) { this.index = index; }

        /** Starts this helper's thread if it has none (it ended after being idle, or never started). */
        void ensureStarted() {
            if (thread != null || shutdown) return;
            synchronized (this) {
                if (thread != null) return;
                Thread t = new Thread(this, "jburn-cpu-helper-" + index);
                t.setDaemon(true);
                thread = t;
                t.start();
            }
        }

        void wake() {
            Thread t = thread;
            if (t != null && parked.get() != 0) LockSupport.unpark(t);
        }

        @Override
        public void run() {
            long seen = 0;
            long idleSince = System.nanoTime();
            while (!shutdown) {
                Job job = current.get();
                if (job != null && job.generation != seen) {
                    seen = job.generation;
                    job.visit();
                    idleSince = System.nanoTime();
                    continue;
                }
                if (spinFor(seen)) continue;
                parked.set(1);
                Job j = current.get(); // re-read after announcing the park: a caller publishing meanwhile sees the flag
                if ((j == null || j.generation == seen) && !shutdown) LockSupport.parkNanos(this, IDLE_NANOS);
                parked.set(0);
                if (System.nanoTime() - idleSince > IDLE_NANOS && current.get() == null) {
                    synchronized (this) {
                        thread = null; // the next job starts a fresh thread; one arriving meanwhile runs without this helper
                    }
                    return;
                }
            }
        }

        /** Spins up to {@link #SPIN_NANOS} for a job newer than {@code seen}; whether one came. */
        private boolean spinFor(long seen) {
            long until = System.nanoTime() + SPIN_NANOS;
            while (System.nanoTime() < until && !shutdown) {
                Job j = current.get();
                if (j != null && j.generation != seen) return true;
                Thread.onSpinWait();
            }
            return false;
        }
    }

    private final Helper[] helpers;
    private final AtomicReference<Job> current = new AtomicReference<>();
    private volatile boolean shutdown;

    Participants(int helpers) {
        this.helpers = new Helper[helpers];
        for (int i = 0; i < helpers; i++) this.helpers[i] = new Helper(i);
    }

    /**
     * Runs {@code participant} on the caller and on the helpers that arrive before the caller's
     * part is done; rethrows the first failure. The participant must be a cooperative kernel's:
     * any one run of it alone finishes all the work.
     */
    void run(Runnable participant) {
        Job job = new Job(participant);
        if (shutdown || !current.compareAndSet(null, job)) {
            participant.run(); // the helpers are busy with another caller's job: alone is correct
            return;
        }
        for (Helper h : helpers) {
            h.ensureStarted();
            h.wake();
        }
        Throwable failure = null;
        try {
            participant.run();
        } catch (Throwable t) {
            failure = t;
        } finally {
            job.closeAndWait();
            current.set(null);
        }
        if (failure == null) failure = job.failure.get();
        if (failure instanceof RuntimeException r) throw r;
        if (failure instanceof Error e) throw e;
        if (failure != null) throw new IllegalStateException(failure);
    }

    void shutdown() {
        shutdown = true;
        for (Helper h : helpers) {
            Thread t = h.thread;
            if (t != null) LockSupport.unpark(t);
        }
    }
}
