package dev.jburn.reference;

import dev.jburn.JBurnException;
import dev.jburn.spi.Buffer;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/** A reference-counted block of native host memory. */
final class HostBuffer implements Buffer {
    /** Live native bytes across all host buffers; tests use it to find leaks. */
    static final java.util.concurrent.atomic.AtomicLong LIVE_BYTES = new java.util.concurrent.atomic.AtomicLong();

    private final MemorySegment segment;
    private final AtomicInteger refs = new AtomicInteger(1);

    private HostBuffer(MemorySegment segment) {
        this.segment = segment;
        LIVE_BYTES.addAndGet(segment.byteSize());
    }

    static HostBuffer zeroed(long bytes) { return new HostBuffer(NativeMemory.calloc(bytes)); }

    static HostBuffer uninitialized(long bytes) { return new HostBuffer(NativeMemory.malloc(bytes)); }

    /** The memory; valid while the buffer is alive. */
    MemorySegment segment() {
        if (refs.get() <= 0) throw new JBurnException("buffer", "use of a freed buffer");
        return segment;
    }

    @Override public long byteSize() { return segment.byteSize(); }

    @Override
    public Buffer retain() {
        int r;
        do {
            r = refs.get();
            if (r <= 0) throw new JBurnException("buffer", "retain of a freed buffer");
        } while (!refs.compareAndSet(r, r + 1));
        return this;
    }

    @Override
    public void release() {
        int r = refs.decrementAndGet();
        if (r == 0) {
            LIVE_BYTES.addAndGet(-segment.byteSize());
            NativeMemory.free(segment);
        } else if (r < 0) {
            throw new JBurnException("buffer", "buffer released more often than retained");
        }
    }

    @Override public boolean isAlive() { return refs.get() > 0; }

    /** The host segment of a buffer made by this engine. */
    static MemorySegment of(Buffer b) {
        if (b instanceof HostBuffer h) return h.segment();
        throw new JBurnException("cpu", "buffer " + b.getClass().getName() + " belongs to another engine; move the tensor with to(engine)");
    }
}
