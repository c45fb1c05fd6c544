package dev.jburn;

import dev.jburn.spi.HostElements;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Tensors made from a shape and a rule: iota, eye, arange, linspace. */
final class CreationOps {
    private CreationOps() {}

    @FunctionalInterface
    private interface Filler {
        void fill(MemorySegment host, long i);
    }

    static Tensor iota(Shape shape, DType dtype, Integer axis) {
        int a = axis == null ? -1 : shape.normalizeAxis("iota", axis);
        if (dtype.isPred()) throw new JBurnException("iota", "iota needs a numeric type, got pred");
        Engine e = Engine.defaultEngine();
        return Tensor.wrap(e, e.backend().iota(shape, dtype, a), dtype, shape);
    }

    static Tensor eye(int rows, int cols, DType dtype) {
        if (rows < 0 || cols < 0) throw new JBurnException("eye", "sizes must be non-negative, got " + rows + "x" + cols);
        Shape s = Shape.of(rows, cols);
        return host(s, dtype, (h, i) -> HostElements.setLong(h, dtype, i, i / cols == i % cols ? 1 : 0));
    }

    static Tensor arange(long start, long stop, long step, DType dtype) {
        if (step == 0) throw new JBurnException("arange", "step must not be zero");
        long n = Math.max(0, Math.ceilDiv(stop - start, step));
        Shape s = Shape.of(n);
        if (dtype.isFloat()) return host(s, dtype, (h, i) -> HostElements.setDouble(h, dtype, i, (double) (start + i * step)));
        return host(s, dtype, (h, i) -> HostElements.setLong(h, dtype, i, start + i * step));
    }

    static Tensor arange(double start, double stop, double step, DType dtype) {
        if (step == 0 || !Double.isFinite(step) || !Double.isFinite(start) || !Double.isFinite(stop)) {
            throw new JBurnException("arange", "start, stop and step must be finite and step non-zero, got " + start + ", " + stop + ", " + step);
        }
        long n = Math.max(0, (long) Math.ceil((stop - start) / step));
        return host(Shape.of(n), dtype, (h, i) -> HostElements.setDouble(h, dtype, i, start + i * step));
    }

    static Tensor linspace(double start, double stop, int n, boolean endpoint, DType dtype) {
        if (n < 0) throw new JBurnException("linspace", "n must be non-negative, got " + n);
        int div = endpoint ? n - 1 : n;
        double step = div > 0 ? (stop - start) / div : 0;
        return host(Shape.of(n), dtype, (h, i) -> {
            double v = endpoint && i == n - 1 && n > 1 ? stop : start + i * step;
            HostElements.setDouble(h, dtype, i, v);
        });
    }

    private static Tensor host(Shape shape, DType dtype, Filler filler) {
        long bytes = dtype.byteSize(shape);
        dev.jburn.spi.HostMemory.check(bytes > Long.MAX_VALUE / 2 ? -1 : 2 * bytes); // staging and engine copy
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = arena.allocate(Math.max(bytes, 1), 8).asSlice(0, bytes);
            for (long i = 0; i < shape.size(); i++) filler.fill(h, i);
            Engine e = Engine.defaultEngine();
            return Tensor.wrap(e, e.backend().upload(h), dtype, shape);
        }
    }
}
