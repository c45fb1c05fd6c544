package dev.jburn.reference;

import dev.jburn.JBurnException;

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

    /** {@code madvise}, where the C library has it (Linux); null elsewhere. */
    private static final MethodHandle MADVISE = LINKER.defaultLookup().find("madvise").map(a -> LINKER.downcallHandle(a,
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT))).orElse(null);
    /** Linux's MADV_HUGEPAGE. */
    private static final int MADV_HUGEPAGE = 14;
    /** Allocations from this size on ask for transparent huge pages (numpy does the same from 4 MiB). */
    private static final long HUGE_FROM = 4L << 20;
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux");

    /** Zero-filled native memory of {@code bytes} bytes (at least one byte is allocated). */
    static MemorySegment calloc(long bytes) {
        return alloc(bytes, true);
    }

    /** Uninitialized native memory of {@code bytes} bytes. */
    static MemorySegment malloc(long bytes) {
        return alloc(bytes, false);
    }

    private static MemorySegment alloc(long bytes, boolean zero) {
        if (bytes < 0) throw new JBurnException("allocate", "negative size " + bytes);
        MemorySegment p;
        try {
            p = zero ? (MemorySegment) CALLOC.invokeExact(Math.max(bytes, 1L), 1L)
                     : (MemorySegment) MALLOC.invokeExact(Math.max(bytes, 1L));
        } catch (Throwable t) {
            throw new JBurnException("allocate", "native allocation of " + bytes + " bytes failed: " + t, t);
        }
        if (p.address() == 0) {
            throw new JBurnException("allocate", "out of native memory allocating " + bytes + " bytes");
        }
        if (bytes >= HUGE_FROM) adviseHugePages(p.address(), bytes);
        return p.reinterpret(bytes);
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
        try {
            FREE.invokeExact(p);
        } catch (Throwable t) {
            throw new AssertionError("free failed", t);
        }
    }
}
