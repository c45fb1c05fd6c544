package dev.jburn.reference;

import dev.jburn.JBurnException;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference-counted block of native host memory.
 *
 * <p>Two ways to free it: the last {@link #release()} (an explicit {@code close()}) frees at
 * once; when a tensor is merely forgotten, its reference is dropped by
 * {@link #releaseUnreachable()} and the memory is freed only when the segment itself becomes
 * unreachable — the segment lives in an automatic arena, so a kernel still reading it keeps it
 * alive (the tensor that owned it may already be garbage while its kernel runs).
 */
final class HostBuffer implements Buffer {
    /** Live native bytes across all host buffers; tests use it to find leaks. */
    static long liveBytes() { return HostMemory.live(); }

    private final MemorySegment segment;
    private final AtomicInteger refs = new AtomicInteger(1);
    private final AtomicBoolean freed;
    private final MemorySegment raw;

    private HostBuffer(MemorySegment raw) {
        long bytes = raw.byteSize();
        AtomicBoolean flag = new AtomicBoolean();
        this.raw = raw;
        this.freed = flag;
        // The cleanup must not capture this object, or the arena would keep it reachable forever.
        this.segment = raw.reinterpret(bytes, Arena.ofAuto(), s -> freeOnce(flag, raw));
    }

    static HostBuffer zeroed(long bytes) {
        HostMemory.reserve(bytes);
        return new HostBuffer(NativeMemory.calloc(bytes));
    }

    static HostBuffer uninitialized(long bytes) {
        HostMemory.reserve(bytes);
        return new HostBuffer(NativeMemory.malloc(bytes));
    }

    private static void freeOnce(AtomicBoolean flag, MemorySegment raw) {
        if (flag.compareAndSet(false, true)) {
            HostMemory.release(raw.byteSize());
            NativeMemory.free(raw);
        }
    }

    /** The memory; valid while the buffer is alive. */
    MemorySegment segment() {
        if (freed.get()) throw new JBurnException("buffer", "use of a freed buffer");
        return segment;
    }

    @Override public long byteSize() { return segment.byteSize(); }

    /** Whether exactly one holder references this buffer (no view or other tensor shares it): it may be overwritten in place. */
    boolean soleReference() { return refs.get() == 1 && !freed.get(); }

    @Override
    public Buffer retain() {
        int r;
        do {
            r = refs.get();
            if (r <= 0 || freed.get()) throw new JBurnException("buffer", "retain of a freed buffer");
        } while (!refs.compareAndSet(r, r + 1));
        return this;
    }

    @Override
    public void release() {
        int r = refs.decrementAndGet();
        if (r == 0) freeOnce(freed, raw);
        else if (r < 0) throw new JBurnException("buffer", "buffer released more often than retained");
    }

    @Override
    public void releaseUnreachable() {
        // The automatic arena frees the memory once no kernel holds the segment.
        refs.decrementAndGet();
    }

    /** The automatic arena frees the memory once the segment is unreachable. */
    @Override public boolean freedWhenUnreachable() { return true; }

    @Override public boolean isAlive() { return refs.get() > 0 && !freed.get(); }

    /** The host segment of a buffer made by this engine. */
    static MemorySegment of(Buffer b) {
        if (b instanceof HostBuffer h) return h.segment();
        throw new JBurnException("cpu", "buffer " + b.getClass().getName() + " belongs to another engine; move the tensor with to(engine)");
    }
}
