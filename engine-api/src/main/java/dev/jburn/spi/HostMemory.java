package dev.jburn.spi;

import dev.jburn.JBurnException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The host memory budget. Native allocations are lazily backed by the OS, so an absurd request
 * (a user's {@code Shape.of(100000, 100000)}) would not fail at {@code malloc} but get the
 * process killed later; every host allocation reserves from this budget first and fails with
 * a {@link JBurnException} instead.
 *
 * <p>The limit is {@code -Djburn.maxHostBytes=N}, or three quarters of the machine's physical
 * memory.
 */
public final class HostMemory {
    private HostMemory() {}

    private static final long LIMIT = computeLimit();
    private static final AtomicLong LIVE = new AtomicLong();

    /** The budget in bytes. */
    public static long limit() { return LIMIT; }

    /** Bytes currently reserved by live host buffers. */
    public static long live() { return LIVE.get(); }

    /** Reserves {@code bytes} for a long-lived buffer, or throws naming {@code op}. Pair with {@link #release}. */
    public static void reserve(String op, long bytes) {
        if (!tryReserve(bytes)) throw refusal(op, bytes);
    }

    /**
     * As {@link #reserve(String, long)} for a caller that does not know the op (a backend's
     * allocator): a refusal names the op the user called ({@link UserOp}).
     */
    public static void reserve(long bytes) {
        if (!tryReserve(bytes)) throw refusal(UserOp.name("allocate"), bytes);
    }

    /** Compares against what is left rather than adding first: {@code live + bytes} could overflow a long and pass. */
    private static boolean tryReserve(long bytes) {
        if (bytes < 0) return false;
        while (true) {
            long live = LIVE.get();
            if (bytes > LIMIT - live) return false;
            if (LIVE.compareAndSet(live, live + bytes)) return true;
        }
    }

    /** As {@link #check(String, long)}, naming the op the user called ({@link UserOp}). */
    public static void check(long bytes) {
        if (bytes < 0 || bytes > LIMIT - LIVE.get()) throw refusal(UserOp.name("allocate"), bytes);
    }

    /** Returns bytes reserved with {@link #reserve}. */
    public static void release(long bytes) { LIVE.addAndGet(-bytes); }

    /** Checks that a short-lived staging allocation of {@code bytes} fits the budget now. */
    public static void check(String op, long bytes) {
        if (bytes < 0 || bytes > LIMIT - LIVE.get()) throw refusal(op, bytes);
    }

    private static JBurnException refusal(String op, long bytes) {
        String asked = bytes < 0 ? "more than 2^63 bytes" : mib(bytes); // an overflowed size
        return new JBurnException(op, "out of host memory: " + asked + " requested, " + mib(LIVE.get())
                + " in use, budget " + mib(LIMIT) + " (set -Djburn.maxHostBytes to change it)");
    }

    private static String mib(long bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : bytes + " bytes";
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
