package dev.jburn.cuda;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One GPU as the engine uses it: its primary context (shared with cuBLAS and any other library in
 * the process), one stream on which all the engine's work runs in order, and the lock that makes
 * the engine safe from several threads.
 *
 * <p>A CUDA context is current per OS thread. {@link #enter()} takes the lock and makes the
 * context current on the calling thread unless this device was the last the thread entered (a thread-local check, no
 * driver call while one thread keeps to one device; a thread that alternates between the engines of two GPUs,
 * {@code cuda:0} and {@code cuda:1}, switches the context at each change). A virtual thread may move between carrier threads, so for
 * virtual threads the context is set on every entry; the calls inside an entry do not block, so the
 * thread stays on its carrier until it leaves. Keeping CUDA work on platform threads is cheaper.
 */
final class CudaDevice implements AutoCloseable {
    final CudaDriver driver;
    final int device;
    final int ccMajor, ccMinor;
    /** Streaming multiprocessors (for {@link SplitK}). */
    final int multiprocessors;
    final String name;
    private final MemorySegment context;
    final MemorySegment stream;
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * The device whose context this thread made current last. Per device instance, not per context handle: a later
     * engine on a re-retained primary context (same handle, perhaps) sets it again.
     */
    private static final ThreadLocal<CudaDevice> CURRENT = new ThreadLocal<>();
    private boolean closed;

    CudaDevice(CudaDriver driver, int ordinal) {
        this.driver = driver;
        this.device = driver.device(ordinal);
        this.ccMajor = driver.attribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MAJOR, device);
        this.ccMinor = driver.attribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MINOR, device);
        this.multiprocessors = driver.attribute(CudaDriver.ATTR_MULTIPROCESSOR_COUNT, device);
        this.name = driver.deviceName(device);
        this.context = driver.primaryContextRetain(device);
        driver.setCurrent(context);
        CURRENT.set(this);
        this.stream = driver.streamCreate();
    }

    /** Held while CUDA calls run: the lock, with this device's context current on the thread. */
    final class Entry implements AutoCloseable {
        private Entry() {}

        @Override public void close() { lock.unlock(); }
    }

    /** Takes the lock and makes the context current; close the entry to unlock. */
    Entry enter() {
        lock.lock();
        try {
            if (closed) throw new dev.jburn.JBurnException("cuda", "the cuda engine is closed");
            Thread t = Thread.currentThread();
            if (t.isVirtual() || CURRENT.get() != this) {
                driver.setCurrent(context);
                if (!t.isVirtual()) CURRENT.set(this);
            }
            return new Entry();
        } catch (RuntimeException e) {
            lock.unlock();
            throw e;
        }
    }

    /** Waits for every queued kernel and copy. */
    void synchronize(String op) { driver.streamSynchronize(stream, op); }

    /** {@code sm_XY}. */
    String arch() { return "sm_" + ccMajor + ccMinor; }

    /** Destroys the stream and releases the primary context; call inside an entry, last. */
    @Override
    public void close() {
        if (closed) return;
        driver.streamSynchronize(stream, "close");
        driver.streamDestroy(stream);
        driver.primaryContextRelease(device);
        if (CURRENT.get() == this) CURRENT.remove();
        closed = true;
    }
}
