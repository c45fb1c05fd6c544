package dev.jburn.reference;

import dev.jburn.JBurnException;
import dev.jburn.spi.HostMemory;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * malloc/calloc/free through FFM. A per-tensor {@code Arena.ofShared()} costs a thread
 * handshake on close (microseconds); plain C allocation keeps small-tensor dispatch cheap
 * and still gives deterministic release.
 */
final class NativeMemory {
    private NativeMemory() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle CALLOC = LINKER.downcallHandle(
            LINKER.defaultLookup().find("calloc").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle MALLOC = LINKER.downcallHandle(
            LINKER.defaultLookup().find("malloc").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle FREE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
    /** glibc's {@code malloc_trim}: gives the free pages of every malloc arena back to the OS; null elsewhere. */
    private static final MethodHandle MALLOC_TRIM = LINKER.defaultLookup().find("malloc_trim").map(a -> LINKER.downcallHandle(a,
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG))).orElse(null);

    static {
        // After each collection of forgotten tensors, what they held goes back to the OS: resident memory follows live memory.
        HostMemory.addReclaimer(NativeMemory::giveBack);
    }

    /**
     * Frees the kept blocks (small ones in {@link BlockPool}, large ones here) and asks the C allocator
     * to return its free pages: freed small blocks otherwise stay in malloc's arenas (resident)
     * although nothing uses them.
     */
    static void giveBack() {
        BlockPool.drain();
        LargeBlocks.drain();
        if (MALLOC_TRIM == null) return;
        try {
            int ignored = (int) MALLOC_TRIM.invokeExact(0L);
        } catch (Throwable t) {
            // advisory
        }
    }

    /** {@code madvise}, where the C library has it (Linux); null elsewhere. */
    private static final MethodHandle MADVISE = LINKER.defaultLookup().find("madvise").map(a -> LINKER.downcallHandle(a,
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT))).orElse(null);
    /** Linux's MADV_HUGEPAGE. */
    private static final int MADV_HUGEPAGE = 14;
    /** Allocations from this size on ask for transparent huge pages (numpy does the same from 4 MiB). */
    static final long HUGE_FROM = 4L << 20;
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux");

    /** Zero-filled native memory of {@code bytes} bytes, {@link #ALIGN}-aligned. */
    static MemorySegment calloc(long bytes) {
        return alloc(bytes, true);
    }

    /** Uninitialized native memory of {@code bytes} bytes, {@link #ALIGN}-aligned; a large block of the same size freed lately is reused. */
    static MemorySegment malloc(long bytes) {
        if (bytes >= HUGE_FROM) {
            MemorySegment kept = LargeBlocks.take(bytes);
            if (kept != null) return kept;
        }
        return alloc(bytes, false);
    }

    /**
     * A few freed large blocks, kept for the next allocation of the same size: a loop that makes
     * a fresh 40 MB output each step (a compiled step, an eager op) otherwise maps and faults in
     * new pages every time, which costs as much as the arithmetic. Bounded in count and bytes.
     */
    private static final class LargeBlocks {
        private static final int MAX_BLOCKS = 4;
        /** At most 256 MiB, and an eighth of the host budget (the kept blocks are resident but not counted as live). */
        private static final long MAX_BYTES = Math.min(256L << 20, HostMemory.limit() / 8);
        private static final java.util.ArrayDeque<MemorySegment> BLOCKS = new java.util.ArrayDeque<>();
        private static long held;

        static synchronized MemorySegment take(long bytes) {
            for (java.util.Iterator<MemorySegment> it = BLOCKS.iterator(); it.hasNext(); ) {
                MemorySegment m = it.next();
                if (m.byteSize() == bytes) {
                    it.remove();
                    held -= bytes;
                    return m;
                }
            }
            return null;
        }

        /** Frees every kept block. */
        static synchronized void drain() {
            while (!BLOCKS.isEmpty()) freeNow(BLOCKS.removeFirst());
            held = 0;
        }

        /** Keeps {@code p} (evicting the oldest blocks to make room), or returns false when it is too big to keep. */
        static synchronized boolean keep(MemorySegment p) {
            long bytes = p.byteSize();
            if (bytes > MAX_BYTES / 2) return false;
            while (!BLOCKS.isEmpty() && (BLOCKS.size() >= MAX_BLOCKS || held + bytes > MAX_BYTES)) {
                MemorySegment old = BLOCKS.removeFirst();
                held -= old.byteSize();
                freeNow(old);
            }
            BLOCKS.addLast(p);
            held += bytes;
            return true;
        }
    }

    /**
     * Alignment of every block. malloc gives 16 bytes (a large block sits 16 bytes past a page), and
     * a 64-byte vector load or store that straddles two cache lines costs about twice as much: an
     * eager 4K-element add ran at half speed on malloc's addresses.
     */
    static final long ALIGN = 64;

    private static MemorySegment alloc(long bytes, boolean zero) {
        if (bytes < 0) throw new JBurnException(dev.jburn.spi.UserOp.name("allocate"), "negative size " + bytes);
        if (bytes > Long.MAX_VALUE - ALIGN) throw new JBurnException(dev.jburn.spi.UserOp.name("allocate"), "impossible size " + bytes);
        // ALIGN extra bytes: the block starts 1 to ALIGN bytes past what malloc returned, and the
        // byte before it records how far, for free (calloc, not an aligned allocator, keeps large
        // zeroed blocks lazily backed by zero pages)
        long total = bytes + ALIGN;
        MemorySegment p;
        try {
            p = zero ? (MemorySegment) CALLOC.invokeExact(total, 1L)
                     : (MemorySegment) MALLOC.invokeExact(total);
        } catch (Throwable t) {
            throw new JBurnException(dev.jburn.spi.UserOp.name("allocate"), "native allocation of " + bytes + " bytes failed: " + t, t);
        }
        if (p.address() == 0) {
            throw new JBurnException(dev.jburn.spi.UserOp.name("allocate"), "out of native memory allocating " + bytes + " bytes");
        }
        long raw = p.address();
        long start = (raw + ALIGN) & -ALIGN;
        p.reinterpret(total).set(ValueLayout.JAVA_BYTE, start - raw - 1, (byte) (start - raw));
        if (bytes >= HUGE_FROM) adviseHugePages(start, bytes);
        return MemorySegment.ofAddress(start).reinterpret(bytes);
    }

    /**
     * Asks the kernel to back the page-aligned part of a large block with huge pages: a fresh
     * 40 MB output otherwise takes 10,000 page faults on first touch, which costs as much as the
     * element-wise pass that writes it. Advisory only: failures are ignored.
     */
    private static void adviseHugePages(long address, long bytes) {
        if (MADVISE == null || !LINUX) return;
        long start = (address + 4095) & ~4095L;
        long end = (address + bytes) & ~4095L;
        if (end <= start) return;
        try {
            int ignored = (int) MADVISE.invokeExact(MemorySegment.ofAddress(start), end - start, MADV_HUGEPAGE);
        } catch (Throwable t) {
            // advisory: keep the normal pages
        }
    }

    static void free(MemorySegment p) {
        if (p.byteSize() >= HUGE_FROM && LargeBlocks.keep(p)) return;
        freeNow(p);
    }

    private static void freeNow(MemorySegment p) {
        long start = p.address();
        long back = MemorySegment.ofAddress(start - 1).reinterpret(1).get(ValueLayout.JAVA_BYTE, 0) & 0xff;
        try {
            FREE.invokeExact(MemorySegment.ofAddress(start - back));
        } catch (Throwable t) {
            throw new AssertionError("free failed", t);
        }
    }
}
