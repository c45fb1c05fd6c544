package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * {@code gather} and {@code indexedAdd/Put} on the GPU ({@link GatherKernels}); each returns null
 * where it has no kernel (non-integer indices, rank above 8, F16/BF16 sums), and the backend falls back.
 */
final class CudaIndexing {
    private final CudaBackend backend;

    CudaIndexing(CudaBackend backend) { this.backend = backend; }

    /** The slice (non-indexed axes) of {@code x}: {@code {dims, strides (elements), size}}. */
    private static long[][] sliceBox(Shape x, int[] axes) {
        long[] xs = StridedView.rowMajorStrides(x);
        int rank = x.rank() - axes.length;
        long[] dims = new long[rank], strides = new long[rank];
        long size = 1;
        for (int d = 0, j = 0; d < x.rank(); d++) {
            boolean indexed = false;
            for (int a : axes) indexed |= a == d;
            if (indexed) continue;
            dims[j] = x.dim(d);
            strides[j++] = xs[d];
            size *= x.dim(d);
        }
        return new long[][] {dims, strides, {size}};
    }

    /**
     * The element offset in {@code x} of each of the {@code rows} index rows, computed on the GPU;
     * an out-of-range index throws like the cpu engine, naming the first bad value in row-major
     * order (reading that one cell back is the only synchronization).
     */
    private CudaBuffer rowOffsets(String op, Shape x, Operand indices, int[] axes, long rows, Arena a) {
        int k = axes.length;
        long[] xs = StridedView.rowMajorStrides(x);
        long[] idims = new long[k], istrides = new long[k];
        for (int j = 0; j < k; j++) {
            idims[j] = x.dim(axes[j]);
            istrides[j] = xs[axes[j]];
        }
        CudaBuffer offsets = backend.newBuffer(rows * 8, op);
        CudaBuffer err = (CudaBuffer) backend.upload(a.allocateFrom(java.lang.foreign.ValueLayout.JAVA_LONG, GatherKernels.NO_ERROR));
        try {
            backend.launch(GatherKernels.offsets(indices.dtype()), GatherKernels.OFFSETS_ENTRY, LineKernels.blocks(rows), LineKernels.THREADS, 0,
                    new KernelArgs(a).pointer(CudaBackend.ptr(indices)).pointer(offsets.pointer()).pointer(err.pointer()).i64(rows).i32(k)
                            .longs(StridedView.padded(idims)).longs(StridedView.padded(istrides)), op);
            MemorySegment cell = a.allocate(8);
            backend.download(err, 0, cell);
            long bad = cell.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
            if (bad == GatherKernels.NO_ERROR) return offsets;
            MemorySegment v = a.allocate(8);
            int ib = indices.dtype().byteSize();
            backend.download(indices.buffer(), bad * ib, v.asSlice(0, ib));
            long value = switch (indices.dtype()) {
                case S8 -> v.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0);
                case U8 -> v.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0) & 0xffL;
                case S16 -> v.get(java.lang.foreign.ValueLayout.JAVA_SHORT, 0);
                case U16 -> v.get(java.lang.foreign.ValueLayout.JAVA_SHORT, 0) & 0xffffL;
                case S32 -> v.get(java.lang.foreign.ValueLayout.JAVA_INT, 0);
                case U32 -> v.get(java.lang.foreign.ValueLayout.JAVA_INT, 0) & 0xffffffffL;
                default -> v.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
            };
            String shown = indices.dtype() == DType.U64 ? Long.toUnsignedString(value) : Long.toString(value);
            offsets.release();
            throw new dev.jburn.JBurnException(op, "index " + shown + " is out of bounds for axis " + axes[(int) (bad % k)] + " in shape " + x);
        } catch (RuntimeException e) {
            if (offsets.isAlive()) offsets.release();
            throw e;
        } finally {
            err.release();
        }
    }

    /** Nx gather on the GPU ({@link GatherKernels}): index rows to offsets, then one slice copy per row. */
    Buffer gather(Operand x, Operand indices, int[] axes) {
        int k = axes.length;
        if (!GatherKernels.indexType(indices.dtype()) || x.shape().rank() > StridedView.MAX_RANK || k == 0) {
            return null;
        }
        long rows = indices.size() / k;
        long[][] box = sliceBox(x.shape(), axes);
        long sliceSize = box[2][0];
        int es = x.dtype().byteSize();
        try (var _ = backend.device().enter(); Arena a = Arena.ofConfined()) {
            CudaBuffer out = backend.newBuffer(rows * sliceSize * es, "gather");
            if (rows == 0 || sliceSize == 0) return out;
            CudaBuffer offsets;
            try {
                offsets = rowOffsets("gather", x.shape(), indices, axes, rows, a);
            } catch (RuntimeException ex) {
                out.release();
                throw ex;
            }
            try {
                long n = rows * sliceSize;
                backend.launch(GatherKernels.COPY, GatherKernels.copyEntry(es), StridedCopy.blocks(n), StridedCopy.THREADS, 0,
                        new KernelArgs(a).pointer(CudaBackend.ptr(x)).pointer(offsets.pointer()).pointer(out.pointer()).i64(n).i64(sliceSize)
                                .i32(box[0].length).longs(StridedView.padded(box[0])).longs(StridedView.padded(box[1])), "gather");
                return out;
            } finally {
                offsets.release();
            }
        }
    }

    /** Nx indexedAdd / indexedPut on the GPU ({@link GatherKernels#update}); F16/BF16 sums fall back. */
    Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        int k = axes.length;
        if (!GatherKernels.indexType(indices.dtype()) || target.shape().rank() > StridedView.MAX_RANK || k == 0
                || (accumulate && !GatherKernels.adds(target.dtype()))) {
            return null;
        }
        String op = accumulate ? "indexedAdd" : "indexedPut";
        long rows = indices.shape().dim(0);
        long[][] box = sliceBox(target.shape(), axes);
        long sliceSize = box[2][0];
        long bytes = target.dtype().byteSize(target.size());
        try (var _ = backend.device().enter(); Arena a = Arena.ofConfined()) {
            CudaBuffer out = backend.newBuffer(bytes, op);
            if (bytes > 0) backend.device().driver.copyDeviceToDevice(out.pointer(), CudaBackend.ptr(target), bytes, backend.device().stream, op);
            if (rows == 0 || sliceSize == 0) return out;
            CudaBuffer offsets;
            try {
                offsets = rowOffsets(op, target.shape(), indices, axes, rows, a);
            } catch (RuntimeException ex) {
                out.release();
                throw ex;
            }
            try {
                backend.launch(GatherKernels.update(target.dtype(), accumulate), GatherKernels.UPDATE_ENTRY, LineKernels.blocks(sliceSize),
                        LineKernels.THREADS, 0, new KernelArgs(a).pointer(CudaBackend.ptr(updates)).pointer(offsets.pointer()).pointer(out.pointer())
                                .i64(rows).i64(sliceSize).i32(box[0].length).longs(StridedView.padded(box[0])).longs(StridedView.padded(box[1])), op);
                return out;
            } finally {
                offsets.release();
            }
        }
    }
}
