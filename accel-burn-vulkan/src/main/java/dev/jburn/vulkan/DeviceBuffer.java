package dev.jburn.vulkan;

import dev.jburn.spi.Buffer;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tensor's device memory: one {@code VkBuffer} bound to a VMA allocation, reference counted.
 *
 * <p><b>When memory is freed.</b> Kernels are queued, not waited for ({@link CommandQueue}), so
 * freeing goes through {@link DeviceMemory#free}, which holds a released buffer back until every
 * submission made before the release has finished, then caches or destroys it. Releasing the last
 * reference ({@link #release()}) hands it over at once. A forgotten tensor is different: a kernel
 * may have taken this buffer from the tensor just before the tensor became unreachable. So this
 * buffer frees itself ({@link #freedWhenUnreachable()}): a {@link Cleaner} on this Java object
 * hands the memory over once the object itself is unreachable, and every submission keeps the
 * buffers it binds strongly reachable until its fence has signalled.
 */
final class DeviceBuffer implements Buffer {
    private static final Cleaner CLEANER = Cleaner.create();

    /** The native part, freed exactly once by whoever comes first (release or cleaner). */
    static final class Allocation implements Runnable {
        final DeviceMemory memory;
        final long buffer;
        final long allocation;
        final long byteSize;
        final long allocatedSize;
        final boolean hostVisible;
        /** Host reads through a mapping are fast (cached memory, or an integrated/CPU device). */
        final boolean hostReadable;
        private final AtomicBoolean freed = new AtomicBoolean();
        /** The neighbours in {@link DeviceMemory}'s list of live allocations, and whether this one is on it (under its lock). */
        Allocation prev, next;
        boolean linked;
        /** The recorded graph's pool this buffer belongs to ({@link DeviceMemory.GraphPool}), or null. */
        DeviceMemory.GraphPool pool;

        Allocation(DeviceMemory memory, long buffer, long allocation, long byteSize, long allocatedSize, boolean hostVisible,
                   boolean hostReadable) {
            this.memory = memory;
            this.buffer = buffer;
            this.allocation = allocation;
            this.byteSize = byteSize;
            this.allocatedSize = allocatedSize;
            this.hostVisible = hostVisible;
            this.hostReadable = hostReadable;
        }

        boolean isFreed() { return freed.get(); }

        @Override
        public void run() {
            if (freed.compareAndSet(false, true)) memory.free(this);
        }
    }

    final Allocation alloc;
    private final Cleaner.Cleanable cleanable;
    private final AtomicInteger refs = new AtomicInteger(1);
    /**
     * The bytes a small upload wrote ({@link DeviceMemory#upload}), so that reading them back needs no wait for the
     * queue (a training step folds its random key on the host every step: a download of 8 bytes that used to wait
     * for the whole step to finish on the device). Null for every other buffer. Right for the buffer's whole life:
     * a kernel only ever writes the buffer it allocated for its output, never one that already holds a tensor.
     */
    private volatile byte[] hostCopy;

    DeviceBuffer(Allocation alloc) {
        this.alloc = alloc;
        this.cleanable = CLEANER.register(this, alloc);
    }

    /** The bytes the upload that filled this buffer wrote, or null (see {@link #hostCopy}). */
    byte[] hostCopy() { return hostCopy; }

    /** Keeps {@code bytes}, what the upload that made this buffer wrote; before the buffer is handed out. */
    void keepHostCopy(byte[] bytes) { this.hostCopy = bytes; }

    /** The {@code VkBuffer} handle; valid while this object is reachable and not released. */
    long handle() { return alloc.buffer; }

    @Override public long byteSize() { return alloc.byteSize; }

    @Override
    public Buffer retain() {
        int r;
        do {
            r = refs.get();
            if (r <= 0) throw new IllegalStateException("vulkan buffer already freed");
        } while (!refs.compareAndSet(r, r + 1));
        return this;
    }

    @Override
    public void release() {
        if (refs.decrementAndGet() == 0) cleanable.clean();
    }

    /** The last reference of an unreachable holder: the cleaner frees the memory once this object is unreachable too. */
    @Override
    public void releaseUnreachable() {
        refs.decrementAndGet();
    }

    @Override public boolean freedWhenUnreachable() { return true; }

    @Override public boolean isAlive() { return refs.get() > 0 && !alloc.isFreed() && !alloc.memory.isClosed(); }
}
