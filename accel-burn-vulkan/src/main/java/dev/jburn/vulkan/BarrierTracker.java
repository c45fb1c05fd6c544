package dev.jburn.vulkan;

/**
 * Decides whether a command needs a pipeline barrier before it: only when it reads or writes a buffer that a
 * command recorded since the last barrier wrote, or writes one that such a command read (read-after-write,
 * write-after-write, write-after-read). Independent kernels, and kernels that only read the same buffers (the
 * weights, a batch), then run without draining the device between them; before this class every command began
 * with a barrier on everything before it. Callers say which buffers a command writes; a command whose writes are
 * not given counts every buffer it binds as written, which is always safe.
 *
 * <p>The window spans submissions, as a barrier's scope does (everything earlier in submission order on the queue).
 * A buffer freed within the window is recycled only after the submissions that used it have finished
 * ({@link DeviceMemory}), and its handle stays in the window, so a reuse of the handle conflicts too. Kernel
 * parameters are not tracked: the device only reads them, from a region no later command of the frame writes.
 * Not thread-safe: used under the queue's lock.
 */
final class BarrierTracker {
    /**
     * The most buffers each window (written, read) holds; a command that would overflow one gets a barrier instead.
     * Bounds the linear scan per command; at least {@link CommandQueue#MAX_BINDINGS}, so any command fits an empty window.
     */
    static final int CAPACITY = 128;

    private final boolean enabled;
    private final long[] written = new long[CAPACITY];
    private final long[] read = new long[CAPACITY];
    private int writes, reads;

    /** {@code enabled} false: every command conflicts (a barrier before each, the behaviour before this class). */
    BarrierTracker(boolean enabled) { this.enabled = enabled; }

    /**
     * Whether a command touching {@code handles[0..n)}, writing those whose bit is set in {@code writeMask}, must be
     * ordered after the window's commands.
     */
    boolean conflicts(long[] handles, int n, long writeMask) {
        if (!enabled || writes + n > CAPACITY || reads + n > CAPACITY) return true;
        for (int i = 0; i < n; i++) {
            long h = handles[i];
            if (contains(written, writes, h)) return true;
            if ((writeMask >>> i & 1) != 0 && contains(read, reads, h)) return true;
        }
        return false;
    }

    private static boolean contains(long[] window, int count, long h) {
        for (int j = 0; j < count; j++) if (window[j] == h) return true;
        return false;
    }

    /** A barrier was recorded: the window is empty. */
    void barrier() {
        writes = 0;
        reads = 0;
    }

    /** Adds a recorded command's buffers to the window (after {@link #conflicts}, which leaves room for them). */
    void touch(long[] handles, int n, long writeMask) {
        for (int i = 0; i < n; i++) {
            if ((writeMask >>> i & 1) != 0) written[writes++] = handles[i];
            else if (!contains(read, reads, handles[i])) read[reads++] = handles[i]; // a loop reading one operand keeps one entry
        }
    }
}
