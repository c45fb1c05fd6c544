package dev.jburn.vulkan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Freed tensor buffers kept for reuse, by size class. On a discrete GPU a large buffer is a
 * dedicated {@code vkAllocateMemory} (VMA gives allocations larger than its blocks their own
 * memory), which costs about as much as a whole element-wise kernel over 64 MB on an H200; a
 * training loop or an eager chain frees and asks for the same sizes over and over. Holding at
 * most {@code limitBytes}, oldest classes first out. Not thread-safe: {@link DeviceMemory} calls it
 * under its own lock.
 */
final class BufferCache {
    /** A buffer and its memory, free to be handed out again. */
    record Entry(long buffer, long allocation, long size, boolean hostVisible, boolean hostReadable) {}

    private final long limitBytes;
    private final Map<Long, ArrayDeque<Entry>> bySize = new HashMap<>();
    private long cachedBytes;
    private int cachedBuffers;
    private long reuses;

    BufferCache(long limitBytes) { this.limitBytes = limitBytes; }

    /**
     * The size actually allocated for a request of {@code bytes}: a power of two up to 1 MiB (at
     * least 256 bytes), above that a multiple of a sixteenth of the power of two below, so a class
     * wastes at most about 6% and nearby sizes share buffers.
     */
    static long sizeClass(long bytes) {
        if (bytes <= 256) return 256;
        if (bytes <= 1 << 20) return Long.highestOneBit(bytes - 1) << 1;
        long step = Long.highestOneBit(bytes - 1) / 16;
        return (bytes + step - 1) / step * step;
    }

    /** A cached buffer of exactly {@code size} bytes, or null. */
    Entry take(long size) {
        ArrayDeque<Entry> q = bySize.get(size);
        if (q == null || q.isEmpty()) return null;
        Entry e = q.pop();
        cachedBytes -= e.size();
        cachedBuffers--;
        reuses++;
        return e;
    }

    /** Keeps {@code e} when it fits under the limit; returns false when the caller must free it. */
    boolean offer(Entry e) {
        if (e.size() > limitBytes - cachedBytes) return false;
        bySize.computeIfAbsent(e.size(), k -> new ArrayDeque<>()).push(e);
        cachedBytes += e.size();
        cachedBuffers++;
        return true;
    }

    /** Empties the cache, returning what it held (for the caller to free). */
    List<Entry> drain() {
        List<Entry> all = new ArrayList<>(cachedBuffers);
        for (ArrayDeque<Entry> q : bySize.values()) all.addAll(q);
        bySize.clear();
        cachedBytes = 0;
        cachedBuffers = 0;
        return all;
    }

    long cachedBytes() { return cachedBytes; }

    /** Requests served from the cache so far. */
    long reuses() { return reuses; }

    int cachedBuffers() { return cachedBuffers; }
}
