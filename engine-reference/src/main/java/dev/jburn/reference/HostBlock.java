package dev.jburn.reference;

import dev.jburn.spi.HostMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One block of native memory and its segment in an automatic arena, made once and lent to one
 * {@link HostBuffer} after another through {@link BlockPool}.
 *
 * <p>Why reuse it: making the automatic arena registers a cleaner (a phantom reference that the
 * garbage collector and the cleaner thread must process later, even after an explicit free),
 * and with malloc and free that cost more than the arithmetic of a 4K-element add. Reusing the
 * block skips all three.
 *
 * <p>Why an automatic arena at all: a tensor that is merely forgotten must still be freed, and a
 * kernel may still be reading its memory when the tensor becomes garbage. The arena frees the
 * block only once the segment is unreachable, i.e. no buffer and no kernel holds it. A block in
 * the pool is reachable from the pool, so the arena never frees it there; the pool frees it
 * explicitly when it drops it.
 *
 * <p>Accounting: while lent, the block's bytes are reserved in {@link HostMemory} (by
 * {@link HostBuffer}); a pooled block is not counted as live, like the large blocks
 * {@link NativeMemory} keeps.
 */
final class HostBlock {
    private final MemorySegment segment;
    private final MemorySegment raw;
    /** Set once the native memory is freed, by whichever path gets there first. */
    private final AtomicBoolean freed;

    /** A fresh block of {@code raw}'s size, reserved in the budget by the caller. */
    HostBlock(MemorySegment raw) {
        AtomicBoolean flag = new AtomicBoolean();
        this.raw = raw;
        this.freed = flag;
        // The cleanup must not capture this object, or the arena would keep it reachable forever.
        this.segment = raw.reinterpret(raw.byteSize(), Arena.ofAuto(), s -> freeLent(flag, raw));
    }

    /** The memory, in the automatic arena; holding it keeps the block from being freed by the collector. */
    MemorySegment segment() { return segment; }

    long byteSize() { return raw.byteSize(); }

    /** Whether the native memory has been freed (never true for a block that is lent or pooled). */
    boolean isFreed() { return freed.get(); }

    /**
     * The buffer that borrowed this block was released explicitly: its bytes leave the budget and
     * the block goes back to the pool, or is freed when the pool is full or takes no blocks of its size.
     */
    void giveBack() {
        HostMemory.release(raw.byteSize());
        if (!BlockPool.offer(this)) freePooled();
    }

    /** Frees a block that is not counted in the budget (in or just out of the pool). */
    void freePooled() {
        if (freed.compareAndSet(false, true)) NativeMemory.free(raw);
    }

    /** The arena's cleanup: a lent block whose buffer (and every segment of it) became unreachable. */
    private static void freeLent(AtomicBoolean flag, MemorySegment raw) {
        if (flag.compareAndSet(false, true)) {
            HostMemory.release(raw.byteSize());
            NativeMemory.free(raw);
        }
    }
}
