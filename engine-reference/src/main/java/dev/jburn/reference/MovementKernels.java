package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Transpose, slice, putSlice, pad, reverse and concatenate. None looks at values: each is
 * one or a few strided box copies ({@link StridedCopy}) by element width, so every dtype
 * shares one code path. The oracle copies element by element; the fast path copies
 * contiguous runs and tiles (chosen by {@link EngineConfig#vectorKernels()}).
 */
final class MovementKernels {
    private final Parallel parallel;
    private final boolean fast;

    MovementKernels(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
        this.fast = config.vectorKernels();
    }

    private void copy(int[] dims, MemorySegment src, long srcBase, long[] srcStrides,
                      MemorySegment dst, long dstBase, long[] dstStrides, int width) {
        StridedCopy plan = StridedCopy.plan(dims, srcStrides, dstStrides, width, fast);
        if (fast) plan.run(src, srcBase, dst, dstBase, parallel);
        else plan.run(src, srcBase, dst, dstBase);
    }

    Buffer transpose(Operand x, int[] perm) {
        int w = x.dtype().byteSize();
        int[] in = x.shape().dims();
        long[] inStrides = x.shape().strides();
        int[] out = new int[perm.length];
        long[] src = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            out[i] = in[perm[i]];
            src[i] = inStrides[perm[i]];
        }
        HostBuffer result = HostBuffer.uninitialized(x.size() * w);
        copy(out, HostBuffer.of(x.buffer()), 0, src, result.segment(), 0, Shape.of(out).strides(), w);
        return result;
    }

    Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        int w = x.dtype().byteSize();
        int r = starts.length;
        long[] inStrides = x.shape().strides();
        int[] out = new int[r];
        long[] src = new long[r];
        long base = 0;
        for (int i = 0; i < r; i++) {
            out[i] = (lengths[i] + strides[i] - 1) / strides[i];
            src[i] = inStrides[i] * strides[i];
            base += starts[i] * inStrides[i];
        }
        Shape outShape = Shape.of(out);
        HostBuffer result = HostBuffer.uninitialized(outShape.size() * w);
        if (outShape.size() > 0) copy(out, HostBuffer.of(x.buffer()), base, src, result.segment(), 0, outShape.strides(), w);
        return result;
    }

    Buffer putSlice(Operand x, int[] starts, Operand update) {
        int w = x.dtype().byteSize();
        long bytes = x.size() * w;
        HostBuffer result = HostBuffer.uninitialized(bytes);
        MemorySegment dst = result.segment();
        MemorySegment.copy(HostBuffer.of(x.buffer()), 0, dst, 0, bytes);
        long[] outStrides = x.shape().strides();
        long base = 0;
        for (int i = 0; i < starts.length; i++) base += starts[i] * outStrides[i];
        copy(update.shape().dims(), HostBuffer.of(update.buffer()), 0, update.shape().strides(), dst, base, outStrides, w);
        return result;
    }

    /**
     * Fills the output with the pad value, then copies the kept input elements: along an axis,
     * input index {@code i} lands at {@code lo + i·(interior+1)}; negative {@code lo}/{@code hi}
     * drop the input elements that would land outside.
     */
    Buffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        int w = x.dtype().byteSize();
        int r = lo.length;
        int[] in = x.shape().dims();
        int[] out = new int[r];
        for (int i = 0; i < r; i++) out[i] = lo[i] + hi[i] + in[i] + Math.max(in[i] - 1, 0) * interior[i];
        Shape outShape = Shape.of(out);
        HostBuffer result = HostBuffer.uninitialized(outShape.size() * w);
        MemorySegment dst = result.segment();
        StridedCopy.fill(HostBuffer.of(padValue.buffer()), dst, outShape.size(), w);

        long[] inStrides = x.shape().strides();
        long[] outStrides = outShape.strides();
        int[] kept = new int[r];
        long[] dstStrides = new long[r];
        long srcBase = 0, dstBase = 0;
        for (int i = 0; i < r; i++) {
            long step = interior[i] + 1L;
            long first = lo[i] >= 0 ? 0 : (-(long) lo[i] + step - 1) / step;
            long last = Math.min(in[i] - 1L, Math.floorDiv(out[i] - 1L - lo[i], step));
            kept[i] = (int) Math.max(0, last - first + 1);
            if (kept[i] == 0) return result;
            dstStrides[i] = outStrides[i] * step;
            srcBase += first * inStrides[i];
            dstBase += (lo[i] + first * step) * outStrides[i];
        }
        copy(kept, HostBuffer.of(x.buffer()), srcBase, inStrides, dst, dstBase, dstStrides, w);
        return result;
    }

    Buffer reverse(Operand x, int[] axes) {
        int w = x.dtype().byteSize();
        int[] dims = x.shape().dims();
        long[] src = x.shape().strides();
        long base = 0;
        for (int a : axes) {
            if (dims[a] == 0) continue;
            base += (dims[a] - 1L) * src[a];
            src[a] = -src[a];
        }
        HostBuffer result = HostBuffer.uninitialized(x.size() * w);
        if (x.size() > 0) copy(dims, HostBuffer.of(x.buffer()), base, src, result.segment(), 0, x.shape().strides(), w);
        return result;
    }

    Buffer concatenate(List<Operand> parts, int axis) {
        Operand first = parts.getFirst();
        int w = first.dtype().byteSize();
        long total = 0;
        for (Operand p : parts) total += p.shape().dim(axis);
        Shape outShape = first.shape().withDim(axis, (int) total);
        HostBuffer result = HostBuffer.uninitialized(outShape.size() * w);
        long[] outStrides = outShape.strides();
        long offset = 0;
        for (Operand p : parts) {
            if (p.size() > 0) {
                copy(p.shape().dims(), HostBuffer.of(p.buffer()), 0, p.shape().strides(), result.segment(),
                        offset * outStrides[axis], outStrides, w);
            }
            offset += p.shape().dim(axis);
        }
        return result;
    }
}
