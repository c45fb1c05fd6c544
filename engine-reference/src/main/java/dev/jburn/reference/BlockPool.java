package dev.jburn.reference;

import dev.jburn.spi.HostMemory;

/**
 * Freed host blocks kept for the next buffer of the same byte size: eager code and training steps
 * make the same sizes over and over, and a reused block costs no malloc, no free and no arena or
 * cleaner registration ({@link HostBlock}). Only explicitly released buffers come back here; a
 * forgotten one is freed by its arena as before.
 *
 * <p>Bounded in bytes, in sizes and in blocks per size; a block that does not fit is freed.
 * Blocks from {@link NativeMemory#HUGE_FROM} up are not kept here ({@link NativeMemory} keeps a
 * few of those itself). Every collection of the host budget drains the pool
 * ({@link NativeMemory#giveBack}), so pooled memory never makes an allocation fail.
 *
 * <p>A pooled block still holds whatever its last tensor wrote: {@link HostBuffer#zeroed} clears
 * it, and {@link HostBuffer#uninitialized} is only for outputs that a kernel overwrites completely
 * (as with malloc, whose fresh memory is just as arbitrary).
 *
 * <p>One lock and an open-addressed table of sizes, not a {@code HashMap<Long, ...>}: each eager op
 * takes and gives back a block, and boxing and hashing the key showed in its profile.
 */
final class BlockPool {
    private BlockPool() {}

    /** Kept bytes at most: 64 MiB, and a sixteenth of the host budget (pooled bytes are resident but not live). */
    static final long MAX_BYTES = Math.min(64L << 20, HostMemory.limit() / 16);
    /** Distinct sizes kept at most (the table has twice as many slots). */
    static final int MAX_SIZES = 512;
    /** Kept blocks of one size at most, so that many tiny blocks cannot pile up on the Java heap. */
    static final int MAX_PER_SIZE = 64;

    private static final int SLOTS = 2 * MAX_SIZES;
    /** Byte size of each slot's blocks; 0 for an empty slot. */
    private static final long[] SIZE = new long[SLOTS];
    private static final HostBlock[][] BLOCKS = new HostBlock[SLOTS][];
    private static final int[] COUNT = new int[SLOTS];
    private static long heldBytes;
    private static int sizes;

    /** Whether a block of {@code bytes} may be kept here at all. */
    static boolean keeps(long bytes) {
        return bytes > 0 && bytes < NativeMemory.HUGE_FROM && bytes <= MAX_BYTES;
    }

    /** A kept block of exactly {@code bytes}, or null. */
    static synchronized HostBlock take(long bytes) {
        int s = slot(bytes);
        if (s < 0 || COUNT[s] == 0) return null;
        int c = --COUNT[s];
        HostBlock b = BLOCKS[s][c]; // the most recently freed block is the likeliest to be in cache
        BLOCKS[s][c] = null;
        heldBytes -= bytes;
        return b;
    }

    /** Keeps {@code b} (uncounted in the budget) and returns true, or returns false when it does not fit. */
    static synchronized boolean offer(HostBlock b) {
        long bytes = b.byteSize();
        if (!keeps(bytes) || heldBytes + bytes > MAX_BYTES) return false;
        int s = slot(bytes);
        if (s < 0) {
            if (sizes >= MAX_SIZES) return false;
            s = ~s;
            SIZE[s] = bytes;
            BLOCKS[s] = new HostBlock[4];
            sizes++;
        }
        int c = COUNT[s];
        if (c == MAX_PER_SIZE) return false;
        if (c == BLOCKS[s].length) BLOCKS[s] = java.util.Arrays.copyOf(BLOCKS[s], Math.min(2 * c, MAX_PER_SIZE));
        BLOCKS[s][c] = b;
        COUNT[s] = c + 1;
        heldBytes += bytes;
        return true;
    }

    /** The slot of {@code bytes}, or {@code ~empty} (negative) with the empty slot where it would go. */
    private static int slot(long bytes) {
        int i = (int) (mix(bytes) & (SLOTS - 1));
        while (true) {
            long k = SIZE[i];
            if (k == bytes) return i;
            if (k == 0) return ~i;
            i = (i + 1) & (SLOTS - 1);
        }
    }

    private static long mix(long x) {
        x *= 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 29);
    }

    /** Frees every kept block and forgets every size. */
    static void drain() {
        HostBlock[][] all;
        int[] counts;
        synchronized (BlockPool.class) {
            all = BLOCKS.clone();
            counts = COUNT.clone();
            java.util.Arrays.fill(SIZE, 0);
            java.util.Arrays.fill(BLOCKS, null);
            java.util.Arrays.fill(COUNT, 0);
            heldBytes = 0;
            sizes = 0;
        }
        for (int s = 0; s < SLOTS; s++) {
            for (int c = 0; c < counts[s]; c++) all[s][c].freePooled();
        }
    }

    /** Bytes kept now (for tests). */
    static synchronized long heldBytes() { return heldBytes; }
}
