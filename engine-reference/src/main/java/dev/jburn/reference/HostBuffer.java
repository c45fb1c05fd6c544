package dev.jburn.reference;

import dev.jburn.JBurnException;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostMemory;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A reference-counted loan of a native host block ({@link HostBlock}).
 *
 * <p>Two ways to end it: the last {@link #release()} (an explicit {@code close()}) gives the block
 * back at once, to the {@link BlockPool} for the next buffer of its size or to the C allocator;
 * when a tensor is merely forgotten, its reference is dropped by {@link #releaseUnreachable()} and
 * the memory is freed only when the block's segment itself becomes unreachable — it lives in an
 * automatic arena, so a kernel still reading it keeps it alive (the tensor that owned it may
 * already be garbage while its kernel runs). A forgotten block never returns to the pool.
 */
final class HostBuffer implements Buffer {
    /** Live native bytes across all host buffers; tests use it to find leaks. */
    static long liveBytes() { return HostMemory.live(); }

    private static final VarHandle REFS;
    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(HostBuffer.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final HostBlock block;
    private final MemorySegment segment;
    /** Holders of this buffer; plain fields with a VarHandle, not atomics: one object less per op result. */
    @SuppressWarnings("unused") private volatile int refs = 1;
    /** Set by the last explicit release, when the block goes back (it may then be lent to another buffer). */
    private volatile boolean released;

    private HostBuffer(HostBlock block) {
        this.block = block;
        this.segment = block.segment();
    }

    /** Zero-filled memory of {@code bytes} bytes. */
    static HostBuffer zeroed(long bytes) {
        HostMemory.reserve(bytes);
        HostBlock b = BlockPool.keeps(bytes) ? BlockPool.take(bytes) : null;
        if (b != null) {
            b.segment().fill((byte) 0); // a pooled block holds its last tensor's values
            return new HostBuffer(b);
        }
        return new HostBuffer(fresh(bytes, true));
    }

    /**
     * With {@code -Djburn.poisonUninitialized=true}, uninitialized buffers are filled with {@code 0xFF} bytes (float NaN,
     * integer -1): a kernel that reads an output element it never wrote then shows NaN instead of whatever a reused
     * block held. A debugging aid; off by default.
     */
    static final boolean POISON = Boolean.getBoolean("jburn.poisonUninitialized");

    /** Memory of {@code bytes} bytes with arbitrary contents, for an output that its kernel overwrites completely. */
    static HostBuffer uninitialized(long bytes) {
        HostMemory.reserve(bytes);
        HostBlock b = BlockPool.keeps(bytes) ? BlockPool.take(bytes) : null;
        HostBuffer h = new HostBuffer(b != null ? b : fresh(bytes, false));
        if (POISON) h.segment().fill((byte) 0xFF);
        return h;
    }

    /** A new block of {@code bytes}, already reserved; the reservation is returned if the allocation fails. */
    private static HostBlock fresh(long bytes, boolean zero) {
        try {
            return new HostBlock(zero ? NativeMemory.calloc(bytes) : NativeMemory.malloc(bytes));
        } catch (RuntimeException | Error e) {
            HostMemory.release(bytes);
            throw e;
        }
    }

    /** The memory; valid while the buffer is alive. */
    MemorySegment segment() {
        if (released) throw new JBurnException("buffer", "use of a freed buffer");
        return segment;
    }

    @Override public long byteSize() { return segment.byteSize(); }

    /** Whether exactly one holder references this buffer (no view or other tensor shares it): it may be overwritten in place. */
    boolean soleReference() { return refs == 1 && !released; }

    @Override
    public Buffer retain() {
        int r;
        do {
            r = refs;
            if (r <= 0 || released) throw new JBurnException("buffer", "retain of a freed buffer");
        } while (!REFS.compareAndSet(this, r, r + 1));
        return this;
    }

    @Override
    public void release() {
        int r = (int) REFS.getAndAdd(this, -1) - 1;
        if (r == 0) {
            released = true;
            block.giveBack();
        } else if (r < 0) {
            throw new JBurnException("buffer", "buffer released more often than retained");
        }
    }

    @Override
    public void releaseUnreachable() {
        // The automatic arena frees the memory once no kernel holds the segment.
        REFS.getAndAdd(this, -1);
    }

    /** The automatic arena frees the memory once the segment is unreachable. */
    @Override public boolean freedWhenUnreachable() { return true; }

    @Override public boolean isAlive() { return refs > 0 && !released; }

    /** The host segment of a buffer made by this engine. */
    static MemorySegment of(Buffer b) {
        if (b instanceof HostBuffer h) return h.segment();
        throw new JBurnException("cpu", "buffer " + b.getClass().getName() + " belongs to another engine; move the tensor with to(engine)");
    }
}
