package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import dev.jburn.spi.HostMemory;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.util.vma.VmaAllocationInfo;
import org.lwjgl.vulkan.VkBufferCreateInfo;

import java.lang.foreign.MemorySegment;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Tensor memory through VMA (sub-allocated from a few large {@code VkDeviceMemory} blocks, not one
 * allocation per tensor), with freed buffers kept for reuse by size class ({@link BufferCache}), and
 * the copies between it and the host. Memory that happens to be host
 * visible (integrated GPUs, lavapipe) is mapped and copied directly; otherwise an upload of at most
 * 64 KiB is carried in the command buffer ({@code vkCmdUpdateBuffer}, no wait), and larger copies go
 * through a temporary host-visible staging buffer and a transfer command.
 */
final class DeviceMemory {
    /** At most this share of the device's free memory (when the engine starts) is kept in the cache, and never more than {@link #CACHE_MAX}. */
    private static final int CACHE_SHARE = 4;
    private static final long CACHE_MAX = 8L << 30;

    /**
     * Uploads of at most this many bytes keep a host copy of what they wrote ({@link DeviceBuffer#hostCopy()}), which
     * downloads read instead of waiting for the queue: keys, scalars, a batch's few labels.
     */
    static final long HOST_COPY_MAX = 256;

    private final VulkanDevice dev;
    private final CommandQueue queue;
    private final boolean forceStaging;
    /** Whether small uploads keep their host copy ({@link VulkanConfig#hostCopies()}: off only to compare). */
    private final boolean keepsHostCopies;
    final AtomicLong liveBuffers = new AtomicLong();
    /** Copies between host and device memory ({@link #upload}, {@link #download}): what a replayed step must not make. */
    final AtomicLong transfers = new AtomicLong();
    /** Reads of device data by the host, those served from a host copy included: a graph that makes any is not replayed. */
    final AtomicLong hostReads = new AtomicLong();
    /**
     * Uploads and host reads made by the current thread ({@link #transfers} and {@link #hostReads} count every
     * thread's): what a graph's probe run made itself, whatever a data loader's thread uploads meanwhile.
     */
    private static final ThreadLocal<long[]> THREAD_TRAFFIC = ThreadLocal.withInitial(() -> new long[1]);

    /** The current thread's uploads and host reads so far (see {@link #THREAD_TRAFFIC}). */
    static long threadTraffic() { return THREAD_TRAFFIC.get()[0]; }
    /** Buffers created through VMA: the allocations the cache of freed buffers did not serve. */
    final AtomicLong buffersCreated = new AtomicLong();
    /**
     * Bytes (as allocated: size classes) of the buffers not yet freed: added when a buffer is handed
     * out (new or from the cache), taken off when it is released or cleaned. Cached and deferred
     * buffers are not live. For tests of what the engine frees, as {@code HostMemory.live()} is for host memory.
     */
    final AtomicLong liveBytes = new AtomicLong();
    /** Bytes of every buffer freed so far (released or cleaned), for waiting on the cleaners. */
    private final AtomicLong freedBytes = new AtomicLong();
    /** Every allocation not yet freed, so {@link #close} can free them before the allocator goes. */
    /**
     * The first of every allocation not yet freed, so {@link #close} can free them before the allocator goes: a list
     * linked through the allocations themselves, under this object's lock (taken for the cache anyway), since one
     * allocation and one free happen per dispatch and a concurrent set's hashing showed in the CNN step's profile.
     */
    private DeviceBuffer.Allocation liveHead;
    private final BufferCache cache;
    /** Released buffers a queued submission may still use, with the serial it must finish first (in release order). */
    private final java.util.ArrayDeque<Deferred> deferred = new java.util.ArrayDeque<>();
    private boolean closed;

    private record Deferred(BufferCache.Entry entry, long serial) {}

    /**
     * The buffers of one graph recorded for replay ({@link ReplayedGraphs}): every buffer its recording allocated,
     * which the replays write again and again, so none may go back to the cache while the recording lives. A buffer
     * released during the recording returns to this pool's free list, for a later allocation of the same recording
     * (its commands run in recorded order, with barriers between). Under the memory's lock.
     */
    static final class GraphPool {
        private final List<BufferCache.Entry> owned = new java.util.ArrayList<>();
        private final java.util.Map<Long, java.util.ArrayDeque<BufferCache.Entry>> free = new java.util.HashMap<>();
        private boolean recording = true;
        private long bytes;

        /** Bytes the pool holds (as allocated). */
        synchronized long bytes() { return bytes; }
    }

    /** The pool the {@link #poolThread} allocates from while it records a graph; null when none. */
    private GraphPool pool;
    private volatile Thread poolThread;

    DeviceMemory(VulkanDevice dev, CommandQueue queue, boolean forceStaging, boolean keepsHostCopies) {
        this.dev = dev;
        this.queue = queue;
        this.forceStaging = forceStaging;
        this.keepsHostCopies = keepsHostCopies;
        this.cache = new BufferCache(Math.min(CACHE_MAX, dev.freeDeviceBytes() / CACHE_SHARE));
        queue.onCompleted(this::reclaim);
    }

    /** A new buffer of {@code byteSize} bytes, contents undefined. */
    DeviceBuffer allocateUninitialized(String op, long byteSize) {
        if (byteSize < 0) throw new JBurnException(op, "negative buffer size " + byteSize);
        // Sizes are rounded up to a cache class (at least 256 bytes), so vkCmdFillBuffer and 4-byte shader access stay in bounds.
        long size = BufferCache.sizeClass(byteSize);
        // Vulkan does not report a too-large buffer as an error (it is invalid usage): refuse it here.
        if (size > dev.features.maxAllocation()) {
            throw new JBurnException(op, "out of device memory: requested " + byteSize + " bytes, more than the largest allocation "
                    + dev.features.maxAllocation() + " bytes the device allows (about " + dev.freeDeviceBytes() + " bytes free)");
        }
        try {
            return new DeviceBuffer(create(op, byteSize, size));
        } catch (JBurnException first) {
            // Buffers released while still queued, and cached ones, go first; then forgotten tensors free
            // their memory through their cleaners: collect (as the host budget does) and wait until
            // about this much has come back, then try once more.
            long mark = freedBytes.get();
            HostMemory.collectUntil(() -> freedBytes.get() - mark >= size);
            queue.waitIdle(op);
            releaseCached();
            return new DeviceBuffer(create(op, byteSize, size));
        }
    }

    private DeviceBuffer.Allocation create(String op, long byteSize, long size) {
        synchronized (this) {
            if (closed) throw new JBurnException(op, "the vulkan engine is closed");
            GraphPool p = recordingHere() ? pool : null;
            BufferCache.Entry e = null;
            if (p != null) {
                java.util.ArrayDeque<BufferCache.Entry> q = p.free.get(size);
                if (q != null) e = q.poll();
            }
            if (e == null) {
                e = cache.take(size);
                if (e != null && p != null) own(p, e);
            }
            if (e != null) {
                DeviceBuffer.Allocation a = new DeviceBuffer.Allocation(this, e.buffer(), e.allocation(), byteSize, size,
                        e.hostVisible(), e.hostReadable());
                a.pool = p;
                link(a);
                liveBuffers.incrementAndGet();
                liveBytes.addAndGet(size);
                return a;
            }
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkBufferCreateInfo bci = VkBufferCreateInfo.calloc(stack).sType$Default().size(size)
                    .usage(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT)
                    .sharingMode(VK_SHARING_MODE_EXCLUSIVE);
            VmaAllocationCreateInfo aci = VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO_PREFER_DEVICE);
            LongBuffer pb = stack.mallocLong(1);
            PointerBuffer pa = stack.mallocPointer(1);
            int r = vmaCreateBuffer(dev.allocator, bci, aci, pb, pa, (VmaAllocationInfo) null);
            if (r == VK_SUCCESS) buffersCreated.incrementAndGet();
            if (r != VK_SUCCESS) {
                throw VulkanErrors.error(r, op, "vmaCreateBuffer", "requested " + byteSize + " bytes, about "
                        + dev.freeDeviceBytes() + " bytes of device memory free");
            }
            IntBuffer flags = stack.mallocInt(1);
            vmaGetAllocationMemoryProperties(dev.allocator, pa.get(0), flags);
            boolean hostVisible = (flags.get(0) & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0;
            // Device-local memory mapped through the PCIe BAR (resizable BAR on discrete GPUs) is
            // write-combined: fine to write, very slow to read. Read it through staging instead.
            boolean hostReadable = hostVisible && ((flags.get(0) & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0
                    || dev.deviceType != VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
            DeviceBuffer.Allocation a = new DeviceBuffer.Allocation(this, pb.get(0), pa.get(0), byteSize, size, hostVisible, hostReadable);
            synchronized (this) {
                if (closed) {
                    vmaDestroyBuffer(dev.allocator, a.buffer, a.allocation);
                    throw new JBurnException(op, "the vulkan engine is closed");
                }
                if (recordingHere() && pool != null) {
                    a.pool = pool;
                    own(pool, new BufferCache.Entry(a.buffer, a.allocation, a.allocatedSize, a.hostVisible, a.hostReadable));
                }
                link(a);
            }
            liveBuffers.incrementAndGet();
            liveBytes.addAndGet(size);
            return a;
        }
    }

    /** A new zero-filled buffer. */
    DeviceBuffer allocate(String op, long byteSize) {
        DeviceBuffer b = allocateUninitialized(op, byteSize);
        if (b.alloc.hostVisible && !forceStaging && !recordingHere()) {
            withMapping(op, b.alloc, m -> m.fill((byte) 0), true);
        } else {
            queue.submit(op, r -> {
                r.keep(b);
                r.zero(b.handle());
            });
        }
        return b;
    }

    /** A new buffer holding {@code host}'s bytes. */
    DeviceBuffer upload(String op, MemorySegment host) {
        DeviceBuffer b = allocateUninitialized(op, host.byteSize());
        if (host.byteSize() == 0) return b;
        if (keepsHostCopies && host.byteSize() <= HOST_COPY_MAX) b.keepHostCopy(host.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        transfers.incrementAndGet();
        THREAD_TRAFFIC.get()[0]++;
        // While a graph is recorded for replay, writes go into its commands (a host write would happen once, now).
        if (b.alloc.hostVisible && !forceStaging && !recordingHere()) {
            withMapping(op, b.alloc, m -> MemorySegment.copy(host, 0, m, 0, host.byteSize()), true);
        } else if (host.byteSize() <= CommandQueue.MAX_INLINE_UPLOAD) {
            // Small data (a batch's labels, a key, a scalar) rides in the command buffer: a staged copy would
            // wait for the whole queue to drain, once per upload.
            queue.submit(op, r -> {
                r.keep(b);
                r.update(b.handle(), host);
            });
        } else {
            try (Staging s = new Staging(op, host.byteSize())) {
                MemorySegment.copy(host, 0, s.mapped, 0, host.byteSize());
                vmaFlushAllocation(dev.allocator, s.allocation, 0, VK_WHOLE_SIZE);
                // Waited for: the staging buffer goes when this block ends.
                queue.submitAndWait(op, r -> {
                    r.keep(b);
                    r.copy(s.buffer, 0, b.handle(), 0, host.byteSize());
                });
            }
        }
        return b;
    }

    /** Copies {@code dst.byteSize()} bytes from {@code offset} of {@code src} into {@code dst}. */
    void download(String op, DeviceBuffer src, long offset, MemorySegment dst) {
        long n = dst.byteSize();
        if (offset < 0 || offset + n > src.byteSize()) {
            throw new JBurnException(op, "download of " + n + " bytes at " + offset + " from a buffer of " + src.byteSize());
        }
        if (n == 0) return;
        if (!src.isAlive()) throw new JBurnException(op, "download from a freed buffer");
        hostReads.incrementAndGet();
        THREAD_TRAFFIC.get()[0]++;
        if (recordingHere()) throw new JBurnException(op, "reads device data while a graph is being recorded for replay");
        byte[] copy = src.hostCopy();
        if (copy != null) {
            // What the upload wrote, and nothing has written since: no wait for the queue, no copy from the device.
            MemorySegment.copy(MemorySegment.ofArray(copy), offset, dst, 0, n);
            return;
        }
        transfers.incrementAndGet();
        if (src.alloc.hostReadable && !forceStaging) {
            queue.waitIdle(op); // a queued kernel may still be writing it
            withMapping(op, src.alloc, m -> MemorySegment.copy(m, offset, dst, 0, n), false);
        } else {
            try (Staging s = new Staging(op, n)) {
                queue.submitAndWait(op, r -> {
                    r.keep(src);
                    r.copy(src.handle(), offset, s.buffer, 0, n);
                });
                vmaInvalidateAllocation(dev.allocator, s.allocation, 0, VK_WHOLE_SIZE);
                MemorySegment.copy(s.mapped, 0, dst, 0, n);
            }
        }
        java.lang.ref.Reference.reachabilityFence(src);
    }

    private void withMapping(String op, DeviceBuffer.Allocation a, java.util.function.Consumer<MemorySegment> body, boolean write) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer p = stack.mallocPointer(1);
            VulkanErrors.check(vmaMapMemory(dev.allocator, a.allocation, p), op, "vmaMapMemory");
            try {
                if (!write) vmaInvalidateAllocation(dev.allocator, a.allocation, 0, VK_WHOLE_SIZE);
                body.accept(MemorySegment.ofAddress(p.get(0)).reinterpret(a.allocatedSize));
                if (write) vmaFlushAllocation(dev.allocator, a.allocation, 0, VK_WHOLE_SIZE);
            } finally {
                vmaUnmapMemory(dev.allocator, a.allocation);
            }
        }
    }

    /**
     * Frees one allocation (called once, by {@link DeviceBuffer.Allocation#run}: an explicit release
     * or the cleaner). After {@link #close} the memory is already gone with the allocator, and a late
     * cleaner must not touch it.
     */
    synchronized void free(DeviceBuffer.Allocation a) {
        if (closed || !unlink(a)) return;
        liveBuffers.decrementAndGet();
        liveBytes.addAndGet(-a.allocatedSize);
        freedBytes.addAndGet(a.allocatedSize);
        BufferCache.Entry e = new BufferCache.Entry(a.buffer, a.allocation, a.allocatedSize, a.hostVisible, a.hostReadable);
        if (a.pool != null) { // the recording's own: reused within it, freed with it (releasePool)
            if (a.pool.recording) a.pool.free.computeIfAbsent(a.allocatedSize, k -> new java.util.ArrayDeque<>()).add(e);
            return;
        }
        // Submissions return before the device is done; one made before this release may still use the buffer.
        long serial = queue.submittedSerial();
        if (serial > queue.completedSerial()) deferred.add(new Deferred(e, serial));
        else recycle(e);
    }

    /** Recycles the released buffers whose submissions have all finished (the queue calls it as they do). */
    synchronized void reclaim(long completed) {
        while (!deferred.isEmpty() && deferred.peek().serial() <= completed) recycle(deferred.poll().entry());
    }

    private void recycle(BufferCache.Entry e) {
        if (closed) return;
        if (!cache.offer(e)) vmaDestroyBuffer(dev.allocator, e.buffer(), e.allocation());
    }

    /** Starts allocating this thread's buffers from {@code p} ({@link GraphPool}), until {@link #endPool}. */
    synchronized void beginPool(GraphPool p) {
        if (pool != null) throw new IllegalStateException("a graph pool is already in use");
        pool = p;
        poolThread = Thread.currentThread();
    }

    /** Ends {@link #beginPool}: the pool's buffers stay its own, none is handed out again. */
    synchronized void endPool() {
        if (pool != null) pool.recording = false;
        pool = null;
        poolThread = null;
    }

    /** Whether this thread is recording a graph for replay (its allocations come from the pool). */
    boolean recordingHere() { return poolThread == Thread.currentThread(); }

    /**
     * Gives back every buffer of {@code p} (after {@link #endPool}; its tensors released): to the cache once the
     * submissions made so far (replays among them) have finished.
     */
    synchronized void releasePool(GraphPool p) {
        if (p == pool) endPool();
        long serial = queue.submittedSerial();
        for (BufferCache.Entry e : p.owned) {
            if (closed) break; // the allocator is gone: release the recordings before closing (VulkanBackend.close does)
            if (serial > queue.completedSerial()) deferred.add(new Deferred(e, serial));
            else recycle(e);
        }
        p.owned.clear();
        p.free.clear();
        synchronized (p) { p.bytes = 0; }
    }

    private static void own(GraphPool p, BufferCache.Entry e) {
        p.owned.add(e);
        synchronized (p) { p.bytes += e.size(); }
    }

    /** Frees every cached buffer (they are not in use: only freed buffers are cached). */
    synchronized void releaseCached() {
        for (BufferCache.Entry e : cache.drain()) vmaDestroyBuffer(dev.allocator, e.buffer(), e.allocation());
    }

    /** Bytes of freed buffers kept for reuse. */
    synchronized long cachedBytes() { return cache.cachedBytes(); }

    /** Allocations served from the cache so far. */
    synchronized long cacheReuses() { return cache.reuses(); }

    synchronized boolean isClosed() { return closed; }

    /** Puts {@code a} at the head of the live list (under this object's lock). */
    private void link(DeviceBuffer.Allocation a) {
        a.next = liveHead;
        if (liveHead != null) liveHead.prev = a;
        liveHead = a;
        a.linked = true;
    }

    /** Takes {@code a} off the live list; false when it was not on it (under this object's lock). */
    private boolean unlink(DeviceBuffer.Allocation a) {
        if (!a.linked) return false;
        if (a.prev != null) a.prev.next = a.next;
        else liveHead = a.next;
        if (a.next != null) a.next.prev = a.prev;
        a.prev = null;
        a.next = null;
        a.linked = false;
        return true;
    }

    /** Frees every live allocation (the device is idle) so the allocator can be destroyed; later frees do nothing. */
    synchronized void close() {
        if (closed) return;
        for (DeviceBuffer.Allocation a = liveHead; a != null; a = a.next) {
            vmaDestroyBuffer(dev.allocator, a.buffer, a.allocation);
            liveBytes.addAndGet(-a.allocatedSize);
            liveBuffers.decrementAndGet();
        }
        liveHead = null;
        for (Deferred d : deferred) vmaDestroyBuffer(dev.allocator, d.entry().buffer(), d.entry().allocation());
        deferred.clear();
        releaseCached();
        closed = true;
    }

    /** A host-visible, persistently mapped transfer buffer for one copy. */
    private final class Staging implements AutoCloseable {
        final long buffer;
        final long allocation;
        final MemorySegment mapped;

        Staging(String op, long bytes) {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkBufferCreateInfo bci = VkBufferCreateInfo.calloc(stack).sType$Default().size(bytes)
                        .usage(VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT).sharingMode(VK_SHARING_MODE_EXCLUSIVE);
                VmaAllocationCreateInfo aci = VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO_PREFER_HOST)
                        .flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_RANDOM_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT);
                LongBuffer pb = stack.mallocLong(1);
                PointerBuffer pa = stack.mallocPointer(1);
                VmaAllocationInfo info = VmaAllocationInfo.calloc(stack);
                int r = vmaCreateBuffer(dev.allocator, bci, aci, pb, pa, info);
                if (r != VK_SUCCESS) throw VulkanErrors.error(r, op, "vmaCreateBuffer(staging)", "requested " + bytes + " bytes of host-visible memory");
                buffer = pb.get(0);
                allocation = pa.get(0);
                mapped = MemorySegment.ofAddress(info.pMappedData()).reinterpret(bytes);
            }
        }

        @Override
        public void close() {
            vmaDestroyBuffer(dev.allocator, buffer, allocation);
        }
    }
}
