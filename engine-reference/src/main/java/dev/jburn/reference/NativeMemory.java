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
        return p.reinterpret(bytes);
    }

    static void free(MemorySegment p) {
        try {
            FREE.invokeExact(p);
        } catch (Throwable t) {
            throw new AssertionError("free failed", t);
        }
    }
}
