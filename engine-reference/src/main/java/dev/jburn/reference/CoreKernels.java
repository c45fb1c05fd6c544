package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;

/** Cast, broadcast and iota: the kernels every other family leans on. */
final class CoreKernels {
    private final Parallel parallel;

    CoreKernels(Parallel parallel) {
        this.parallel = parallel;
    }

    Buffer cast(Operand x, DType to) {
        DType from = x.dtype();
        long n = x.size();
        HostBuffer out = HostBuffer.uninitialized(to.byteSize(n));
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = out.segment();
        parallel.forRange(n, 4, (lo, hi) -> {
            if (from.isFloat()) {
                for (long i = lo; i < hi; i++) HostElements.setDouble(dst, to, i, HostElements.getDouble(src, from, i));
            } else {
                for (long i = lo; i < hi; i++) HostElements.setInteger(dst, to, i, HostElements.getLong(src, from, i), from);
            }
        });
        return out;
    }

    Buffer broadcast(Operand x, Shape outShape, int[] axes) {
        int w = x.dtype().byteSize();
        long n = outShape.size();
        HostBuffer out = HostBuffer.uninitialized(n * w);
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = out.segment();
        if (x.size() == 1) {
            for (long i = 0; i < n; i++) Elements.copy(src, 0, dst, i, w);
            return out;
        }
        long[] inStrides = x.shape().strides();
        long[] strides = new long[outShape.rank()];
        for (int i = 0; i < axes.length; i++) {
            strides[axes[i]] = x.shape().dim(i) == 1 ? 0 : inStrides[i];
        }
        int[] dims = outShape.dims();
        // The trailing axes the input is read along contiguously (a channel vector [C] on [N, H, W, C]):
        // those go as bulk copies of run elements, the leading ones through the walker.
        int k = dims.length;
        long run = 1;
        while (k > 0 && strides[k - 1] == run) run *= dims[--k];
        if (run >= 8 && k > 0) {
            int[] outer = java.util.Arrays.copyOf(dims, k);
            long[] outerStrides = java.util.Arrays.copyOf(strides, k);
            long runs = n / run, bytes = run * w;
            parallel.forRange(runs, run * w, (lo, hi) -> {
                Strides.Walker walk = new Strides.Walker(outer, outerStrides);
                walk.seek(lo);
                for (long i = lo; i < hi; i++) {
                    MemorySegment.copy(src, walk.offsets[0] * w, dst, i * bytes, bytes);
                    walk.next();
                }
            });
            return out;
        }
        parallel.forRange(n, w, (lo, hi) -> {
            Strides.Walker walk = new Strides.Walker(dims, strides);
            walk.seek(lo);
            for (long i = lo; i < hi; i++) {
                Elements.copy(src, walk.offsets[0], dst, i, w);
                walk.next();
            }
        });
        return out;
    }

    Buffer iota(Shape shape, DType dtype, int axis) {
        long n = shape.size();
        HostBuffer out = HostBuffer.uninitialized(dtype.byteSize(n));
        MemorySegment dst = out.segment();
        long stride = axis < 0 ? 1 : shape.strides()[axis];
        long dim = axis < 0 ? Math.max(n, 1) : shape.dim(axis);
        for (long i = 0; i < n; i++) {
            long v = (i / stride) % dim;
            HostElements.setLong(dst, dtype, i, v);
        }
        return out;
    }
}
