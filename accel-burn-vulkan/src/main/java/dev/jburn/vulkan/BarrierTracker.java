package dev.jburn.vulkan;

/**
 * Decides whether a command needs a pipeline barrier before it: only when it touches a buffer that a command
 * recorded since the last barrier touched. Every buffer a command binds counts as read and written (the recorder
 * does not know which bindings a kernel writes), so this is conservative: it keeps every read-after-write,
 * write-after-write and write-after-read order, and lets independent kernels (an optimizer's updates of different
 * parameters, the gradients of different layers) run without draining the device between them. Before it, every
 * command began with a barrier on everything before it.
 *
 * <p>The window spans submissions, as a barrier's scope does (everything earlier in submission order on the queue).
 * A buffer freed within the window is recycled only after the submissions that used it have finished
 * ({@link DeviceMemory}), and its handle stays in the window, so a reuse of the handle conflicts too. Kernel
 * parameters are not tracked: the device only reads them, from a region no later command of the frame writes.
 * Not thread-safe: used under the queue's lock.
 */
final class BarrierTracker {
    /** The most buffers the window holds; a command that would exceed it gets a barrier instead. */
    static final int CAPACITY = 256;

    private final boolean enabled;
    private final long[] touched = new long[CAPACITY];
    private int count;

    /** {@code enabled} false: every command conflicts (a barrier before each, the behaviour before this class). */
    BarrierTracker(boolean enabled) { this.enabled = enabled; }

    /** Whether a command touching {@code handles[0..n)} must be ordered after the window's commands. */
    boolean conflicts(long[] handles, int n) {
        if (!enabled || count + n > CAPACITY) return true;
        for (int i = 0; i < n; i++) {
            long h = handles[i];
            for (int j = 0; j < count; j++) if (touched[j] == h) return true;
        }
        return false;
    }

    /** A barrier was recorded: the window is empty. */
    void barrier() { count = 0; }

    /** Adds a recorded command's buffers to the window. */
    void touch(long[] handles, int n) {
        for (int i = 0; i < n && count < CAPACITY; i++) touched[count++] = handles[i];
    }
}
