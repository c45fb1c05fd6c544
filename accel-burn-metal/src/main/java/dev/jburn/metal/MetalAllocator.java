package dev.jburn.metal;

import dev.jburn.JBurnException;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Shared-storage buffers in size classes, kept for reuse when released: {@code newBufferWithLength:}
 * costs far more than a small kernel. A {@link Lease} goes back to the cache when closed, or, if its
 * owner forgets it, when the garbage collector finds it unreachable (a {@link Cleaner}); cleaner
 * threads make no Objective-C calls, they queue the buffer for the next allocation to pick up.
 * {@link #trim()} gives cached buffers back to Metal; the device's {@code close()} releases the rest.
 * Dispatches are synchronous ({@link MetalDevice#submit}), so a returned buffer is never still in
 * use by the GPU.
 *
 * <pre>{@code
 * MetalAllocator pool = new MetalAllocator(gpu);
 * try (MetalAllocator.Lease x = pool.allocate(4096)) {
 *     x.contents().set(ValueLayout.JAVA_FLOAT, 0, 1f);
 * } // back in the cache: the next allocate(4096) reuses it
 * }</pre>
 */
final class MetalAllocator {
    /** Smallest class; classes are powers of two up to 1 MiB, then whole MiB. */
    static final long MIN_CLASS = 256;
    private static final long MIB = 1L << 20;
    private static final Cleaner CLEANER = Cleaner.create();

    private final MetalDevice device;
    private final Map<Long, ArrayDeque<MetalDevice.SharedBuffer>> free = new HashMap<>();
    private final ConcurrentLinkedQueue<MetalDevice.SharedBuffer> returned = new ConcurrentLinkedQueue<>();
    private long cachedBytes;

    MetalAllocator(MetalDevice device) { this.device = device; }

    /** The size reserved for a request of {@code bytes}. */
    static long sizeClass(long bytes) {
        if (bytes < 0) throw new JBurnException("metal.allocate", "negative size " + bytes);
        if (bytes <= MIN_CLASS) return MIN_CLASS;
        if (bytes <= MIB) return Long.highestOneBit(bytes - 1) << 1;
        return (bytes + MIB - 1) / MIB * MIB;
    }

    /** A buffer of at least {@code bytes}, whose {@link Lease#contents()} is exactly {@code bytes} long. */
    synchronized Lease allocate(long bytes) {
        drainReturned();
        long size = sizeClass(bytes);
        ArrayDeque<MetalDevice.SharedBuffer> list = free.get(size);
        MetalDevice.SharedBuffer b = list == null ? null : list.poll();
        if (b != null) {
            cachedBytes -= size;
        } else {
            try {
                b = device.buffer(size);
            } catch (JBurnException e) {
                trim(); // memory held by the cache may be what is missing
                b = device.buffer(size);
            }
        }
        return new Lease(this, b, bytes);
    }

    /** Bytes held in the cache (not leased). */
    synchronized long cachedBytes() {
        drainReturned();
        return cachedBytes;
    }

    /** Releases every cached buffer to Metal. */
    synchronized void trim() {
        drainReturned();
        for (ArrayDeque<MetalDevice.SharedBuffer> list : free.values()) {
            for (MetalDevice.SharedBuffer b : list) device.free(b);
        }
        free.clear();
        cachedBytes = 0;
    }

    private void drainReturned() {
        for (MetalDevice.SharedBuffer b; (b = returned.poll()) != null; ) {
            free.computeIfAbsent(b.bytes(), k -> new ArrayDeque<>()).push(b);
            cachedBytes += b.bytes();
        }
    }

    /** Returns {@code b} to the cache; safe from any thread (cleaners included). */
    private void recycle(MetalDevice.SharedBuffer b) { returned.add(b); }

    /** A leased buffer; close it to return it to the cache (the cleaner does it for a forgotten lease). */
    static final class Lease implements AutoCloseable {
        private final MetalDevice.SharedBuffer buffer;
        private final MemorySegment contents;
        private final AtomicBoolean open;
        private final Cleaner.Cleanable cleanable;

        private Lease(MetalAllocator owner, MetalDevice.SharedBuffer buffer, long bytes) {
            this.buffer = buffer;
            this.contents = buffer.contents().asSlice(0, bytes);
            AtomicBoolean flag = new AtomicBoolean(true);
            this.open = flag;
            // The action must not reach this Lease, or it would never become unreachable.
            this.cleanable = CLEANER.register(this, () -> {
                if (flag.compareAndSet(true, false)) owner.recycle(buffer);
            });
        }

        /** The buffer, for binding to a kernel. */
        MetalDevice.SharedBuffer buffer() {
            if (!open.get()) throw new JBurnException("metal", "use of a buffer already returned to the allocator");
            return buffer;
        }

        /** The requested bytes, as the CPU sees them. */
        MemorySegment contents() {
            if (!open.get()) throw new JBurnException("metal", "use of a buffer already returned to the allocator");
            return contents;
        }

        @Override
        public void close() { cleanable.clean(); }
    }
}
