package dev.jburn.cuda;

import dev.jburn.spi.Buffer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference-counted block of device memory. The last release hands the block back to the
 * {@link CachingAllocator}; both release paths may do so at once, because the allocator reuses
 * blocks only in stream order (see its class comment), so a kernel already queued on this memory
 * still runs before any later writer.
 */
final class CudaBuffer implements Buffer {
    private final CachingAllocator allocator;
    private final CachingAllocator.Block block;
    private final long byteSize;
    private final AtomicInteger refs = new AtomicInteger(1);

    CudaBuffer(CachingAllocator allocator, CachingAllocator.Block block, long byteSize) {
        this.allocator = allocator;
        this.block = block;
        this.byteSize = byteSize;
    }

    /** The device address (0 for an empty buffer). */
    long pointer() {
        if (refs.get() <= 0) throw new IllegalStateException("cuda buffer already freed");
        return block.pointer();
    }

    @Override public long byteSize() { return byteSize; }

    @Override
    public Buffer retain() {
        while (true) {
            int r = refs.get();
            if (r <= 0) throw new IllegalStateException("cuda buffer already freed");
            if (refs.compareAndSet(r, r + 1)) return this;
        }
    }

    @Override
    public void release() {
        int r = refs.decrementAndGet();
        if (r == 0) allocator.recycle(block);
        else if (r < 0) refs.incrementAndGet();
    }

    @Override
    public void releaseUnreachable() { release(); }

    @Override public boolean isAlive() { return refs.get() > 0; }

    @Override public String toString() { return "CudaBuffer[" + byteSize + " bytes @0x" + Long.toHexString(block.pointer()) + "]"; }
}
