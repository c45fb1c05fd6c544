package dev.jburn;

import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;

/**
 * Backend operands for the front end: casts to a compute type and Java scalars
 * placed on an engine. Temporaries made here are plain buffers (no {@link Tensor}, no cleaner)
 * that the caller frees with {@link #release} as soon as the kernel has run.
 */
final class ElementwiseOperands {
    private ElementwiseOperands() {}

    /** {@code t} as an operand of type {@code to}: itself when it already has that type, else a fresh cast buffer. */
    static Operand castTo(Tensor t, DType to) {
        Operand o = t.operand();
        if (o.dtype() == to) return o;
        return new Operand(t.backend().cast(o, to), to, o.shape());
    }

    /** A rank-0 operand of type {@code t} on {@code engine} holding the integer {@code value} (converted as by {@code setLong}). */
    static Operand scalar(Engine engine, DType t, long value) {
        return upload(engine, scalarBytes(t, value), t);
    }

    /** The bytes of a scalar of type {@code t} holding {@code value} (wrapped to the width). */
    static MemorySegment scalarBytes(DType t, long value) {
        MemorySegment host = MemorySegment.ofArray(new long[1]);
        HostElements.setLong(host, t, 0, value);
        return host.asSlice(0, t.byteSize());
    }

    /** The bytes of a scalar of type {@code t} holding {@code value} (converted with Nx cast rules). */
    static MemorySegment scalarBytes(DType t, double value) {
        MemorySegment host = MemorySegment.ofArray(new long[1]);
        HostElements.setDouble(host, t, 0, value);
        return host.asSlice(0, t.byteSize());
    }

    /** A rank-0 operand of type {@code t} on {@code engine} holding {@code value} (converted with Nx cast rules). */
    static Operand scalar(Engine engine, DType t, double value) {
        return upload(engine, scalarBytes(t, value), t);
    }

    private static Operand upload(Engine engine, MemorySegment host, DType t) {
        return new Operand(engine.backend().upload(host), t, Shape.scalar());
    }

    /** Frees {@code temp} when it is a temporary, i.e. not the buffer of {@code original} (which may be null). */
    static void release(Operand temp, Tensor original) {
        if (temp == null) return;
        Buffer b = temp.buffer();
        if (original == null || b != original.buffer()) b.release();
    }
}
