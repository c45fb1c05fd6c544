package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;

/**
 * Gather and indexed add/put. Each index row addresses some axes of the tensor; the other
 * axes form a slice copied (gather) or updated (indexed ops) as a strided box. Indices are
 * checked on the calling thread before any work starts, so an out-of-range index raises a
 * plain {@link JBurnException} and no partial work is visible.
 */
final class IndexKernels {
    private final Parallel parallel;
    private final boolean fast;

    IndexKernels(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
        this.fast = config.vectorKernels();
    }

    /** The slice box of the axes not in {@code axes}: dims and source strides. */
    private record SliceBox(int[] dims, long[] strides, long size) {
        static SliceBox of(Shape x, int[] axes) {
            boolean[] indexed = new boolean[x.rank()];
            for (int a : axes) indexed[a] = true;
            long[] xs = x.strides();
            int n = x.rank() - axes.length;
            int[] dims = new int[n];
            long[] strides = new long[n];
            long size = 1;
            for (int i = 0, j = 0; i < x.rank(); i++) {
                if (indexed[i]) continue;
                dims[j] = x.dim(i);
                strides[j++] = xs[i];
                size *= x.dim(i);
            }
            return new SliceBox(dims, strides, size);
        }
    }

    /**
     * Element offsets in {@code x} of the {@code rows} index rows, each of {@code k = axes.length}
     * values; throws on the first index out of range (negative included).
     */
    private static long[] rowOffsets(String op, Operand x, Operand indices, int[] axes, long rows) {
        if (rows > Integer.MAX_VALUE - 8) throw new JBurnException(op, "too many index rows: " + rows);
        MemorySegment idx = HostBuffer.of(indices.buffer());
        DType it = indices.dtype();
        long[] xs = x.shape().strides();
        int k = axes.length;
        long[] offsets = new long[(int) rows];
        for (int r = 0; r < rows; r++) {
            long off = 0;
            for (int j = 0; j < k; j++) {
                long v = HostElements.getLong(idx, it, (long) r * k + j);
                int dim = x.shape().dim(axes[j]);
                if (v < 0 || v >= dim) {
                    String shown = it == DType.U64 ? Long.toUnsignedString(v) : Long.toString(v);
                    throw new JBurnException(op, "index " + shown + " is out of bounds for axis " + axes[j] + " in shape " + x.shape());
                }
                off += v * xs[axes[j]];
            }
            offsets[r] = off;
        }
        return offsets;
    }

    Buffer gather(Operand x, Operand indices, int[] axes) {
        int w = x.dtype().byteSize();
        int[] id = indices.shape().dims();
        long rows = 1;
        for (int i = 0; i < id.length - 1; i++) rows *= id[i];
        SliceBox box = SliceBox.of(x.shape(), axes);
        HostBuffer result = HostBuffer.uninitialized(rows * box.size() * w);
        if (rows == 0 || box.size() == 0) return result;
        long[] offsets = rowOffsets("gather", x, indices, axes, rows);
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = result.segment();
        long sliceSize = box.size();
        StridedCopy plan = StridedCopy.plan(box.dims(), box.strides(), Shape.of(box.dims()).strides(), w, fast);
        if (!fast) {
            for (int r = 0; r < rows; r++) plan.run(src, offsets[r], dst, r * sliceSize);
            return result;
        }
        parallel.forRange(rows, sliceSize * w, (lo, hi) -> {
            for (long r = lo; r < hi; r++) plan.run(src, offsets[(int) r], dst, r * sliceSize);
        });
        return result;
    }

    /**
     * Rows are applied in order, so duplicates sum (add) or the last write wins (put). Work is
     * split over slice elements, never over rows: two rows may hit the same position, but two
     * slice elements never do.
     */
    Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        String op = accumulate ? "indexedAdd" : "indexedPut";
        DType t = target.dtype();
        int w = t.byteSize();
        long bytes = target.size() * w;
        HostBuffer result = HostBuffer.uninitialized(bytes);
        MemorySegment dst = result.segment();
        MemorySegment.copy(HostBuffer.of(target.buffer()), 0, dst, 0, bytes);
        long rows = indices.shape().dim(0);
        SliceBox box = SliceBox.of(target.shape(), axes);
        if (rows == 0 || box.size() == 0) return result;
        long[] offsets = rowOffsets(op, target, indices, axes, rows);
        MemorySegment upd = HostBuffer.of(updates.buffer());
        long sliceSize = box.size();
        int[] dims = box.dims();
        long[] strides = box.strides();
        Parallel.RangeBody body = (lo, hi) -> {
            Strides.Walker walk = new Strides.Walker(dims, strides);
            for (int r = 0; r < rows; r++) {
                walk.seek(lo);
                long base = offsets[r];
                long u = r * sliceSize;
                for (long j = lo; j < hi; j++) {
                    long pos = base + walk.offsets[0];
                    if (!accumulate) Elements.copy(upd, u + j, dst, pos, w);
                    else if (t.isFloat()) HostElements.setDouble(dst, t, pos, HostElements.getDouble(dst, t, pos) + HostElements.getDouble(upd, t, u + j));
                    else HostElements.setLong(dst, t, pos, HostElements.getLong(dst, t, pos) + HostElements.getLong(upd, t, u + j));
                    walk.next();
                }
            }
        };
        if (fast) parallel.forRange(sliceSize, rows * 4, body);
        else body.run(0, sliceSize);
        return result;
    }
}
