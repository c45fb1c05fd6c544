package dev.jburn.cuda;

import dev.jburn.JBurnException;
import dev.jburn.spi.HostMemory;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Device memory in size classes, with freed blocks kept on per-class free lists for reuse:
 * {@code cuMemAlloc} and {@code cuMemFree} synchronize the device and cost far more than a kernel.
 *
 * <p><b>Why a freed block can be reused at once, and when memory really goes back.</b> All of the
 * engine's work runs in order on one stream. A block returned here (by {@code release()} or by a
 * tensor's cleaner while kernels that read it are still queued) is handed out only to work that is
 * queued later on the same stream, so that work runs after every kernel that used the block before.
 * Returning a block therefore needs no synchronization; it is queued on a lock-free list (cleaner
 * threads make no CUDA calls) and moved to the free lists at the next allocation. Only
 * {@link #trim()} gives memory back to the driver, and it first waits for the stream to drain, so
 * {@code cuMemFree} never pulls memory from under a queued kernel.
 *
 * <p>On out-of-memory the allocator trims its cache and retries; then it collects the garbage and
 * waits for the cleaners of forgotten tensors to return their blocks ({@link HostMemory#collectUntil}),
 * trims and retries once more; if that fails it throws a {@link JBurnException} naming the requested
 * and free bytes, which then are held by live tensors. Not thread-safe by itself except
 * {@link #recycle}: the engine calls the rest under its lock.
 */
final class CachingAllocator {
    /** Smallest class: 512 bytes (also keeps pointers aligned for every vector width). */
    static final long MIN_CLASS = 512;
    /** Up to this size classes are powers of two; above, multiples of it. */
    static final long POW2_LIMIT = 1L << 20;

    /** A device allocation: its pointer and the class size actually reserved. */
    record Block(long pointer, long capacity) {}

    /**
     * Blocks reserved for one captured CUDA graph ({@link CapturedGraphs}). A graph replays with the
     * addresses it was captured with, so every block its capture used stays out of other hands until
     * the pool is released: blocks freed inside the capture are reused only by the same capture (in
     * its stream order), and no block of a live pool goes back to the shared free lists.
     */
    static final class Pool {
        private final Map<Long, ArrayDeque<Block>> free = new HashMap<>();
        private final java.util.List<Block> owned = new java.util.ArrayList<>();
        private long bytes;
        private boolean released;

        /** Bytes the pool reserves. */
        long bytes() { return bytes; }
    }

    private final DeviceMemory memory;
    /** Owner of each block that a live pool reserves, by address. */
    private final Map<Long, Pool> owners = new HashMap<>();
    /** The pool that allocations go to while a graph is being captured; null otherwise. */
    private Pool capturing;
    private long poolBytes;
    private final Map<Long, ArrayDeque<Block>> free = new HashMap<>();
    private final ConcurrentLinkedQueue<Block> returned = new ConcurrentLinkedQueue<>();
    /** Bytes in {@link #returned}, not yet on the free lists. */
    private final AtomicLong returnedBytes = new AtomicLong();
    private long cachedBytes;
    private long liveBytes;
    private long reservedBytes;
    private volatile boolean closed;

    CachingAllocator(DeviceMemory memory) { this.memory = memory; }

    /**
     * The reserved size for a request: powers of two from {@link #MIN_CLASS} up to 1 MiB, then whole
     * MiB; 0 for 0. Few classes keep reuse likely; the 1 MiB step bounds the waste of large tensors.
     */
    static long sizeClass(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative size " + bytes);
        if (bytes == 0) return 0;
        if (bytes <= MIN_CLASS) return MIN_CLASS;
        if (bytes <= POW2_LIMIT) return Long.highestOneBit(bytes - 1) << 1;
        long rounded = (bytes + POW2_LIMIT - 1) / POW2_LIMIT * POW2_LIMIT;
        if (rounded < bytes) throw new IllegalArgumentException("size " + bytes + " too large");
        return rounded;
    }

    /** A block of at least {@code bytes}; a zero-byte request gets the null block. */
    Block allocate(long bytes, String op) {
        if (closed) throw new JBurnException(op, "the cuda engine is closed");
        long size = sizeClass(bytes);
        if (size == 0) return new Block(0, 0);
        drainReturned();
        Pool pool = capturing;
        if (pool != null) {
            ArrayDeque<Block> own = pool.free.get(size);
            if (own != null && !own.isEmpty()) return own.pop();
        }
        ArrayDeque<Block> list = free.get(size);
        if (list != null && !list.isEmpty()) {
            Block b = list.pop();
            cachedBytes -= size;
            liveBytes += size;
            return reserve(pool, b);
        }
        long p = memory.allocate(size);
        if (p == 0) {
            trim();
            p = memory.allocate(size);
        }
        if (p == 0) {
            // Forgotten tensors hold device blocks until their cleaners run: collect them (as the host
            // budget does), wait until enough comes back, and try once more.
            HostMemory.collectUntil(() -> returnedBytes.get() >= size);
            trim();
            p = memory.allocate(size);
        }
        if (p == 0) {
            long[] info = memory.info();
            throw new JBurnException(op, "out of device memory: requested " + bytes + " bytes (" + size
                    + " reserved), " + info[0] + " of " + info[1] + " bytes free on the device, "
                    + liveBytes + " bytes held by live tensors");
        }
        reservedBytes += size;
        liveBytes += size;
        return reserve(pool, new Block(p, size));
    }

    private Block reserve(Pool pool, Block b) {
        if (pool == null) return b;
        owners.put(b.pointer(), pool);
        pool.owned.add(b);
        pool.bytes += b.capacity();
        poolBytes += b.capacity();
        return b;
    }

    /** From now until {@link #endPool}, allocations are made for (and reserved by) {@code pool}. */
    void beginPool(Pool pool) {
        if (capturing != null) throw new IllegalStateException("a pool is already capturing");
        if (pool.released) throw new IllegalStateException("pool already released");
        capturing = pool;
    }

    /** Ends {@link #beginPool}; the pool keeps its blocks until {@link #releasePool}. */
    void endPool() { capturing = null; }

    /**
     * Gives a pool's blocks back to the shared free lists (those still held by buffers go there
     * when released). Stream order makes this safe while the graph's last replay is still queued.
     */
    void releasePool(Pool pool) {
        if (pool.released) return;
        if (capturing == pool) capturing = null;
        drainReturned();
        for (Block b : pool.owned) owners.remove(b.pointer());
        for (ArrayDeque<Block> list : pool.free.values()) {
            for (Block b : list) {
                free.computeIfAbsent(b.capacity(), k -> new ArrayDeque<>()).push(b);
                cachedBytes += b.capacity();
                liveBytes -= b.capacity();
            }
        }
        poolBytes -= pool.bytes;
        pool.free.clear();
        pool.owned.clear();
        pool.released = true;
    }

    /** Bytes reserved by live pools (captured graphs), in use or not. */
    long poolBytes() { return poolBytes; }

    /**
     * Returns a block for reuse; safe from any thread (a cleaner's), without CUDA calls: see the
     * class comment for why stream order makes immediate reuse safe.
     */
    void recycle(Block b) {
        if (b.capacity() == 0 || closed) return;
        returned.add(b);
        returnedBytes.addAndGet(b.capacity());
    }

    private void drainReturned() {
        for (Block b; (b = returned.poll()) != null; ) {
            returnedBytes.addAndGet(-b.capacity());
            Pool owner = owners.isEmpty() ? null : owners.get(b.pointer());
            if (owner != null) {
                // Still reserved by its graph: counted as live until the pool is released.
                owner.free.computeIfAbsent(b.capacity(), k -> new ArrayDeque<>()).push(b);
                continue;
            }
            free.computeIfAbsent(b.capacity(), k -> new ArrayDeque<>()).push(b);
            cachedBytes += b.capacity();
            liveBytes -= b.capacity();
        }
    }

    /** Waits for queued work, then frees every cached block. */
    void trim() {
        drainReturned();
        if (cachedBytes == 0) return;
        memory.synchronize();
        for (ArrayDeque<Block> list : free.values()) {
            for (Block b : list) {
                memory.free(b.pointer());
                reservedBytes -= b.capacity();
            }
        }
        free.clear();
        cachedBytes = 0;
    }

    /** Bytes in blocks handed out and not yet returned, and in blocks that captured graphs reserve. */
    long liveBytes() {
        drainReturned();
        return liveBytes;
    }

    /** Bytes kept for reuse. */
    long cachedBytes() {
        drainReturned();
        return cachedBytes;
    }

    /** Bytes obtained from the device and not given back. */
    long reservedBytes() { return reservedBytes; }

    /**
     * Frees everything cached; blocks still held by live tensors are freed by the driver when the
     * context goes, and their later release is ignored.
     */
    void close() {
        trim();
        closed = true;
        returned.clear();
    }
}
