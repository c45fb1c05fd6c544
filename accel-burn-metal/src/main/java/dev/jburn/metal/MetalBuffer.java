package dev.jburn.metal;

import dev.jburn.JBurnException;
import dev.jburn.spi.Buffer;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tensor's memory on the metal engine: one {@link MetalAllocator.Lease} (a shared-storage
 * {@code MTLBuffer}), reference counted. The last {@link #release()} returns the lease to the
 * allocator's cache at once; a forgotten buffer goes back through the lease's cleaner once this
 * object is unreachable ({@link #freedWhenUnreachable()}), since a kernel that took the buffer
 * before its tensor became unreachable still holds this object.
 *
 * <pre>{@code
 * MetalBuffer b = (MetalBuffer) backend.allocate(16);
 * b.contents().set(ValueLayout.JAVA_FLOAT, 0, 1f); // shared storage: the CPU writes what the GPU reads
 * b.release();                                      // back in the allocator's cache
 * }</pre>
 */
final class MetalBuffer implements Buffer {
    private final MetalAllocator.Lease lease;
    private final long byteSize;
    private final AtomicInteger refs = new AtomicInteger(1);

    MetalBuffer(MetalAllocator.Lease lease, long byteSize) {
        this.lease = lease;
        this.byteSize = byteSize;
    }

    /** The {@code MTLBuffer} to bind; a JBurnException once freed. */
    MetalDevice.SharedBuffer shared() {
        requireAlive();
        return lease.buffer();
    }

    /** The {@link #byteSize()} bytes as the CPU sees them; a JBurnException once freed. */
    MemorySegment contents() {
        requireAlive();
        return lease.contents();
    }

    @Override public long byteSize() { return byteSize; }

    @Override
    public Buffer retain() {
        int r;
        do {
            r = refs.get();
            if (r <= 0) throw new JBurnException("metal", "retain of a metal buffer already freed");
        } while (!refs.compareAndSet(r, r + 1));
        return this;
    }

    @Override
    public void release() {
        if (refs.decrementAndGet() == 0) lease.close();
    }

    /** The holder is unreachable: the lease's cleaner returns the memory once this object is unreachable too. */
    @Override
    public void releaseUnreachable() { refs.decrementAndGet(); }

    @Override public boolean freedWhenUnreachable() { return true; }

    @Override public boolean isAlive() { return refs.get() > 0; }

    private void requireAlive() {
        if (refs.get() <= 0) throw new JBurnException("metal", "use of a metal buffer already freed");
    }
}
