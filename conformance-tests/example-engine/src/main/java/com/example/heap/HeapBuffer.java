package com.example.heap;

import dev.jburn.spi.Buffer;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/** The engine's "device memory": a heap array, reference counted as {@link Buffer} asks. */
final class HeapBuffer implements Buffer {
    final MemorySegment segment;
    private final AtomicInteger refs = new AtomicInteger(1);

    HeapBuffer(long byteSize) {
        // A long[] keeps every element aligned; the segment is cut to the exact size.
        segment = MemorySegment.ofArray(new long[(int) ((byteSize + 7) / 8)]).asSlice(0, byteSize);
    }

    @Override public long byteSize() { return segment.byteSize(); }

    @Override
    public Buffer retain() {
        if (refs.getAndIncrement() <= 0) throw new IllegalStateException("retain of a freed buffer");
        return this;
    }

    @Override public void release() { refs.decrementAndGet(); }

    /** The garbage collector frees heap arrays, so nothing is left to do. */
    @Override public void releaseUnreachable() { release(); }

    @Override public boolean freedWhenUnreachable() { return true; }

    @Override public boolean isAlive() { return refs.get() > 0; }
}
