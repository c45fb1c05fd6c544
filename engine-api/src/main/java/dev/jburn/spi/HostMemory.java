package dev.jburn.spi;

import dev.jburn.JBurnException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The host memory budget, and the collections that keep forgotten tensors from exhausting it.
 *
 * <p><b>Budget.</b> Native allocations are lazily backed by the OS, so an absurd request (a
 * user's {@code Shape.of(100000, 100000)}) would not fail at {@code malloc} but get the process
 * killed later; every host allocation reserves from this budget first and fails with a
 * {@link JBurnException} instead. The limit is {@code -Djburn.maxHostBytes=N}, or three quarters
 * of the machine's physical memory.
 *
 * <p><b>Forgotten tensors.</b> A tensor that is neither closed nor in a {@code Tensor.scope()} is
 * freed by a cleaner once the garbage collector finds it unreachable, but the Java heap only sees
 * small {@code Tensor} objects, so nothing prompts a collection while native memory fills up. As
 * the JDK does for direct buffers, the budget prompts it: when live bytes pass a soft threshold,
 * the allocating thread runs {@code System.gc()} and waits for the cleaners (the next threshold is
 * twice what survived, at least the soft one); and a request that would pass the limit first
 * collects and waits, and fails only if it still does not fit. So "out of host memory" means live
 * memory, never garbage, and between collections garbage stays below about the live bytes or the
 * soft threshold, whichever is larger. The soft threshold is {@code -Djburn.softHostBytes=N}, by default a
 * quarter of the limit and at most 1 GiB. After every collection the engines' reclaimers run
 * ({@link #addReclaimer}): they give cached and freed blocks back to the OS, so resident memory
 * follows live memory. ({@code -XX:+DisableExplicitGC} turns the collections off; then forgotten
 * tensors count until the JVM collects on its own.)
 */
public final class HostMemory {
    private HostMemory() {}

    private static final long LIMIT = computeLimit();
    private static final long SOFT = computeSoft(LIMIT);
    private static final AtomicLong LIVE = new AtomicLong();
    private static final AtomicLong COLLECTIONS = new AtomicLong();
    private static final ReentrantLock COLLECTING = new ReentrantLock();
    private static final List<Runnable> RECLAIMERS = new CopyOnWriteArrayList<>();
    /** Live bytes above which the next allocation prompts a collection. */
    private static volatile long trigger = SOFT;

    /** The budget in bytes. */
    public static long limit() { return LIMIT; }

    /** The soft threshold: live bytes at which the first collection is prompted. */
    public static long softLimit() { return SOFT; }

    /** Bytes currently reserved by live host buffers (and forgotten ones not yet collected). */
    public static long live() { return LIVE.get(); }

    /** How many collections the budget has run so far (prompted by thresholds, by the limit, or by {@link #collect()}). */
    public static long collections() { return COLLECTIONS.get(); }

    /**
     * Registers an action that gives freed memory back to the OS (a pool's cached blocks, the C
     * allocator's free lists); it runs after every collection, on the collecting thread, and must
     * not allocate from this budget.
     */
    public static void addReclaimer(Runnable reclaimer) {
        if (reclaimer == null) throw new JBurnException("hostMemory", "the reclaimer must not be null");
        RECLAIMERS.add(reclaimer);
    }

    /**
     * Reserves {@code bytes} for a long-lived buffer, or throws naming {@code op}. Pair with
     * {@link #release}. May run a collection first (see the class comment).
     */
    public static void reserve(String op, long bytes) {
        reserveNamed(op, bytes);
    }

    /**
     * {@link #reserve(String, long)} with {@code op} null for "the op the user called", looked up
     * only when the request is refused: {@link UserOp#name} walks the stack, which would cost an
     * eager 4K-element op several times its arithmetic if every allocation paid it.
     */
    private static void reserveNamed(String op, long bytes) {
        // refused before adding: live + bytes near 2^63 would overflow and pass
        if (bytes < 0 || bytes > LIMIT) throw refusal(op, bytes);
        long now = LIVE.addAndGet(bytes);
        if (now <= trigger) return;
        if (now <= LIMIT) {
            pace();
            return;
        }
        LIVE.addAndGet(-bytes);
        if (bytes > LIMIT || !collectUntil(() -> tryReserve(bytes))) throw refusal(op, bytes);
    }

    /**
     * As {@link #reserve(String, long)} for a caller that does not know the op (a backend's
     * allocator): a refusal names the op the user called ({@link UserOp}).
     */
    public static void reserve(long bytes) { reserveNamed(null, bytes); }

    /**
     * Returns bytes reserved with {@link #reserve}. The next collection's threshold follows live bytes
     * down (twice what is live, at least the soft threshold), also when the cleaners finish freeing a
     * collection's garbage after the collecting thread stopped waiting.
     */
    public static void release(long bytes) {
        long now = LIVE.addAndGet(-bytes);
        long t = trigger;
        if (t > SOFT && 2 * now < t) trigger = Math.max(SOFT, 2 * now);
    }

    /** Checks that a short-lived staging allocation of {@code bytes} fits the budget now (collecting first if it does not). */
    public static void check(String op, long bytes) {
        checkNamed(op, bytes);
    }

    /** {@link #check(String, long)}; a null {@code op} is named on refusal only (see {@link #reserveNamed}). */
    private static void checkNamed(String op, long bytes) {
        if (bytes < 0 || bytes > LIMIT) throw refusal(op, bytes);
        if (bytes <= LIMIT - LIVE.get()) return;
        if (!collectUntil(() -> bytes <= LIMIT - LIVE.get())) throw refusal(op, bytes);
    }

    /** As {@link #check(String, long)}, naming the op the user called ({@link UserOp}). */
    public static void check(long bytes) { checkNamed(null, bytes); }

    /**
     * Frees what forgotten tensors hold now: runs a garbage collection, waits until their cleaners
     * have run, and gives freed memory back to the OS through the engines' reclaimers.
     */
    public static void collect() {
        COLLECTING.lock();
        try {
            // more rounds while one frees memory: a busy machine may leave the cleaners quiet for a moment
            for (int round = 0; round < 3; round++) {
                long before = LIVE.get();
                collectLocked(null, round == 0 ? 250 : 50, 20);
                if (LIVE.get() >= before) break;
            }
        } finally {
            COLLECTING.unlock();
        }
    }

    /**
     * What the budget does before it refuses a request, for engines with budgets of their own (device
     * memory freed by tensors' cleaners): collects and waits for the cleaners until {@code done} holds,
     * up to a few rounds while they keep freeing memory. Returns {@code done}'s last value.
     */
    public static boolean collectUntil(BooleanSupplier done) {
        if (done.getAsBoolean()) return true;
        COLLECTING.lock();
        try {
            for (int round = 0; round < 4; round++) {
                if (done.getAsBoolean()) return true;
                long before = LIVE.get();
                if (collectLocked(done, 250, 10)) return true;
                // another round only while a round frees host memory (a cleaner may drop the last reference to more)
                if (round > 0 && LIVE.get() >= before) break;
            }
            return done.getAsBoolean();
        } finally {
            COLLECTING.unlock();
        }
    }

    private static boolean tryReserve(long bytes) {
        while (true) {
            long cur = LIVE.get();
            if (bytes > LIMIT - cur) return false; // compared against what is left: cur + bytes could overflow
            if (LIVE.compareAndSet(cur, cur + bytes)) return true;
        }
    }

    /** Past the soft threshold: one thread collects, the others go on allocating. */
    private static void pace() {
        if (!COLLECTING.tryLock()) return;
        try {
            if (LIVE.get() > trigger) collectLocked(null, 50, 5);
        } finally {
            COLLECTING.unlock();
        }
    }

    /**
     * {@code System.gc()}, then a wait for the cleaners: until live bytes start falling (bounded), and
     * then until they stop falling for {@code quietMs} or {@code done} holds; then the reclaimers, and
     * the next threshold. Returns whether {@code done} held.
     */
    private static boolean collectLocked(BooleanSupplier done, long firstWaitMs, long quietMs) {
        COLLECTIONS.incrementAndGet();
        long start = LIVE.get();
        System.gc();
        long t0 = System.nanoTime();
        // The reference handler and the cleaner threads run after the collection: wait for the first
        // release (longer when a refusal depends on it), then until releases stop for a while.
        long firstWait = TimeUnit.MILLISECONDS.toNanos(firstWaitMs);
        long quietFor = TimeUnit.MILLISECONDS.toNanos(quietMs);
        long deadline = t0 + TimeUnit.SECONDS.toNanos(2);
        boolean met = false;
        long last = start;
        long lastFall = -1;
        while (true) {
            if (done != null && done.getAsBoolean()) {
                met = true;
                break;
            }
            long now = System.nanoTime();
            if (now > deadline) break;
            if (lastFall < 0 ? now - t0 > firstWait : now - lastFall > quietFor) break;
            if (Thread.currentThread().isInterrupted()) break; // keep the interrupt, stop waiting
            LockSupport.parkNanos(200_000);
            long cur = LIVE.get();
            if (cur < last) lastFall = System.nanoTime();
            last = Math.min(last, cur);
        }
        for (Runnable r : RECLAIMERS) {
            try {
                r.run();
            } catch (RuntimeException e) {
                // giving memory back is best effort
            }
        }
        trigger = Math.min(LIMIT, Math.max(SOFT, 2 * LIVE.get()));
        return met || (done != null && done.getAsBoolean());
    }

    private static JBurnException refusal(String op, long bytes) {
        if (op == null) op = UserOp.name("allocate");
        String asked = bytes < 0 ? "more than 2^63 bytes" : mib(bytes); // an overflowed size
        return new JBurnException(op, "out of host memory: " + asked + " requested, " + mib(LIVE.get())
                + " in use by live tensors, budget " + mib(LIMIT) + " (set -Djburn.maxHostBytes to change it)");
    }

    private static String mib(long bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }

    private static long computeSoft(long limit) {
        String prop = System.getProperty("jburn.softHostBytes");
        if (prop != null) {
            try {
                return Math.min(limit, Math.max(0, Long.parseLong(prop.trim())));
            } catch (NumberFormatException e) {
                throw new JBurnException("config", "jburn.softHostBytes must be a number of bytes, got '" + prop + "'");
            }
        }
        return Math.min(limit / 4, 1L << 30);
    }

    private static long computeLimit() {
        String prop = System.getProperty("jburn.maxHostBytes");
        if (prop != null) {
            try {
                return Long.parseLong(prop.trim());
            } catch (NumberFormatException e) {
                throw new JBurnException("config", "jburn.maxHostBytes must be a number of bytes, got '" + prop + "'");
            }
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return kib * 1024 / 4 * 3;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or unreadable: fall through to a budget from the JVM's view.
        }
        return Math.max(Runtime.getRuntime().maxMemory() * 4, 1L << 32);
    }
}
