package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Calls an engine's {@link Backend} kernels directly, through the public SPI only: for
 * primitives whose {@code Tensor} method does not exist yet (the element-wise family), and for
 * {@code iota}, whose {@code Tensor} method always builds on the default engine: inputs are
 * copied to the backend with {@code upload}, the result comes back with {@code download} and is
 * wrapped as a tensor on the same engine. Every buffer made here is released here.
 */
final class BackendCalls {
    private BackendCalls() {}

    /** {@code Backend.iota}: counting along {@code axis}, or over the flattened shape when {@code axis == -1}. */
    static Tensor iota(Engine e, Shape shape, DType dtype, int axis) {
        return run(e, List.of(), dtype, shape, in -> e.backend().iota(shape, dtype, axis));
    }

    /**
     * Uploads {@code inputs} (tensors on {@code e}) as operands, runs {@code kernel} on them and
     * returns its result, of {@code outType} and {@code outShape}, as a tensor on {@code e}.
     */
    static Tensor run(Engine e, List<Tensor> inputs, DType outType, Shape outShape, Function<List<Operand>, Buffer> kernel) {
        Backend backend = e.backend();
        List<Buffer> uploaded = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            List<Operand> operands = new ArrayList<>();
            for (Tensor t : inputs) {
                Buffer b = backend.upload(hostCopy(t, arena));
                uploaded.add(b);
                operands.add(new Operand(b, t.dtype(), t.shape()));
            }
            Buffer out = kernel.apply(operands);
            try {
                return download(e, out, outType, outShape, arena);
            } finally {
                out.release();
            }
        } finally {
            for (Buffer b : uploaded) b.release();
        }
    }

    private static MemorySegment hostCopy(Tensor t, Arena arena) {
        int n = Math.toIntExact(t.size());
        MemorySegment host = arena.allocate(Math.max(1, (long) n * t.dtype().byteSize()), 8).asSlice(0, (long) n * t.dtype().byteSize());
        if (t.dtype().isFloat()) {
            double[] v = t.toDoubleArray();
            for (int i = 0; i < n; i++) HostElements.setDouble(host, t.dtype(), i, v[i]);
        } else {
            long[] v = t.toLongArray();
            for (int i = 0; i < n; i++) HostElements.setLong(host, t.dtype(), i, v[i]);
        }
        return host;
    }

    private static Tensor download(Engine e, Buffer out, DType t, Shape shape, Arena arena) {
        int n = Math.toIntExact(shape.size());
        long bytes = (long) n * t.byteSize();
        MemorySegment host = arena.allocate(Math.max(1, bytes), 8).asSlice(0, bytes);
        if (bytes > 0) e.backend().download(out, 0, host);
        if (t.isFloat()) {
            double[] v = new double[n];
            for (int i = 0; i < n; i++) v[i] = HostElements.getDouble(host, t, i);
            return TensorCase.ofDoubles(t, shape, v).on(e);
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = HostElements.getLong(host, t, i);
        return TensorCase.ofLongs(t, shape, v).on(e);
    }
}
