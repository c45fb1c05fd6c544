package dev.jburn.spi;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.internal.JBurnInternals;

import java.lang.foreign.MemorySegment;

/**
 * A tensor's engine memory, for code that moves tensors outside the op catalog: collective communication
 * (an NCCL all-reduce reads and writes device buffers), interop. Tensors stay immutable: read a tensor's
 * buffer, write only buffers you allocated, and {@link #wrap} them as new tensors.
 *
 * <pre>{@code
 * Operand in = TensorBuffers.operand(t);                       // t's buffer, dtype, shape
 * Buffer out = engine.backend().allocate(in.buffer().byteSize());
 * // ... a library writes into out ...
 * Tensor result = TensorBuffers.wrap(engine, out, in.dtype(), in.shape());
 * }</pre>
 */
public final class TensorBuffers {
    private TensorBuffers() {}

    /** The backend view of a live tensor (a closed one is a {@link JBurnException}). */
    public static Operand operand(Tensor t) {
        if (t == null) throw new JBurnException("tensorBuffers", "the tensor must not be null");
        return JBurnInternals.access().operand(t);
    }

    /** A new tensor taking over {@code buffer}'s reference (the tensor releases it when closed or collected). */
    public static Tensor wrap(Engine engine, Buffer buffer, DType dtype, Shape shape) {
        if (engine == null || buffer == null || dtype == null || shape == null) {
            throw new JBurnException("tensorBuffers", "engine, buffer, dtype and shape are required");
        }
        if (buffer.byteSize() < dtype.byteSize(shape)) {
            throw new JBurnException("tensorBuffers", "a buffer of " + buffer.byteSize() + " bytes cannot hold " + dtype.shortName() + shape);
        }
        return JBurnInternals.access().wrap(engine, buffer, dtype, shape);
    }

    /** The raw row-major bytes of {@code t} (little-endian, as the engines store them). */
    public static byte[] bytes(Tensor t) {
        Operand o = operand(t);
        long n = o.dtype().byteSize(o.shape());
        if (n > Integer.MAX_VALUE - 8) throw new JBurnException("tensorBuffers", "tensor " + o.dtype().shortName() + o.shape() + " does not fit a byte array");
        byte[] out = new byte[(int) n];
        if (n > 0) t.engine().backend().download(o.buffer(), 0, MemorySegment.ofArray(out));
        return out;
    }

    /** A new tensor on {@code engine} holding {@code bytes} as {@code dtype} of {@code shape}. */
    public static Tensor fromBytes(Engine engine, byte[] bytes, DType dtype, Shape shape) {
        if (engine == null || bytes == null || dtype == null || shape == null) {
            throw new JBurnException("tensorBuffers", "engine, bytes, dtype and shape are required");
        }
        if (bytes.length != dtype.byteSize(shape)) {
            throw new JBurnException("tensorBuffers", bytes.length + " bytes do not make " + dtype.shortName() + shape);
        }
        return wrap(engine, engine.backend().upload(MemorySegment.ofArray(bytes)), dtype, shape);
    }

    /** A copy of {@code t} on {@code engine} in memory of its own, even when {@code t} is already there. */
    public static Tensor copy(Tensor t, Engine engine) {
        Operand o = operand(t);
        return fromBytes(engine, bytes(t), o.dtype(), o.shape());
    }
}
