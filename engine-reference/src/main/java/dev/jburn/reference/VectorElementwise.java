package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Fast paths for the hot element-wise ops on F32, F64, S32 and S64 (see {@link VectorOps}):
 * contiguous operands of the output's shape, a scalar on either side, or a block repeated over
 * leading axes (a row vector added to a matrix). Anything else returns null and runs on the
 * oracle. Small inputs run on the caller's thread without allocating anything but the output.
 */
final class VectorElementwise {
    private final Parallel parallel;
    private final EngineConfig config;

    VectorElementwise(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }

    private boolean inline(long n, long cost) {
        return config.threads() == 1 || n * cost < config.parallelThreshold();
    }

    /** {@code k} on every element of {@code x} (whose type is the result type), or null when no fast path applies. */
    Buffer unary(VectorOps.Unary k, Operand x) {
        DType t = x.dtype();
        long n = x.size();
        HostBuffer result = HostBuffer.uninitialized(t.byteSize(n));
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = result.segment();
        if (inline(n, k.cost())) {
            unaryRange(k, t, src, dst, 0, n);
        } else {
            parallel.forRange(n, k.cost(), (lo, hi) -> unaryRange(k, t, src, dst, lo, hi - lo));
        }
        return result;
    }

    private static void unaryRange(VectorOps.Unary k, DType t, MemorySegment src, MemorySegment dst, long from, long count) {
        switch (t) {
            case F32 -> VectorF32.unary(k, src, from, dst, from, count);
            case F64 -> VectorF64.unary(k, src, from, dst, from, count);
            case S32 -> VectorS32.unary(k, src, from, dst, from, count);
            case S64 -> VectorS64.unary(k, src, from, dst, from, count);
            default -> throw new IllegalStateException("no vector kernel for " + t);
        }
    }

    /**
     * {@code pred ? onTrue : onFalse} for F32/F64 operands of the output's shape (either value may
     * be a scalar), or null when no fast path applies.
     */
    Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        DType t = onTrue.dtype();
        if ((t != DType.F32 && t != DType.F64) || onFalse.dtype() != t || pred.dtype() != DType.PRED || !pred.shape().equals(outShape)) return null;
        boolean sa = !onTrue.shape().equals(outShape), sb = !onFalse.shape().equals(outShape);
        if ((sa && onTrue.size() != 1) || (sb && onFalse.size() != 1)) return null;
        long n = outShape.size();
        HostBuffer result = HostBuffer.uninitialized(t.byteSize(n));
        MemorySegment p = HostBuffer.of(pred.buffer()), a = HostBuffer.of(onTrue.buffer()), b = HostBuffer.of(onFalse.buffer());
        MemorySegment dst = result.segment();
        if (inline(n, 1)) selectRange(t, p, a, sa, b, sb, dst, 0, n);
        else parallel.forRange(n, 1, (lo, hi) -> selectRange(t, p, a, sa, b, sb, dst, lo, hi - lo));
        return result;
    }

    private static void selectRange(DType t, MemorySegment p, MemorySegment a, boolean sa, MemorySegment b, boolean sb,
                                    MemorySegment dst, long from, long count) {
        if (t == DType.F32) {
            float ka = sa ? a.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0) : 0, kb = sb ? b.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0) : 0;
            long done = VectorF32.select(p, from, sa ? null : a, from, ka, sb ? null : b, from, kb, dst, from, count);
            for (long i = from + done; i < from + count; i++) {
                boolean q = p.get(ValueLayout.JAVA_BYTE, i) != 0;
                float v = q ? (sa ? ka : a.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)) : (sb ? kb : b.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i));
                dst.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, v);
            }
        } else {
            double ka = sa ? a.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0) : 0, kb = sb ? b.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0) : 0;
            long done = VectorF64.select(p, from, sa ? null : a, from, ka, sb ? null : b, from, kb, dst, from, count);
            for (long i = from + done; i < from + count; i++) {
                boolean q = p.get(ValueLayout.JAVA_BYTE, i) != 0;
                double v = q ? (sa ? ka : a.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i)) : (sb ? kb : b.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i));
                dst.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
            }
        }
    }

    /** {@code a k b} broadcast to {@code outShape}, or null when the layout has no fast path. */
    Buffer binary(VectorOps.Binary k, Operand a, Operand b, Shape outShape, DType out) {
        DType t = a.dtype();
        long n = outShape.size();
        boolean aFull = a.shape().equals(outShape);
        boolean bFull = b.shape().equals(outShape);
        MemorySegment sa = HostBuffer.of(a.buffer());
        MemorySegment sb = HostBuffer.of(b.buffer());
        if (aFull && bFull) {
            HostBuffer result = HostBuffer.uninitialized(out.byteSize(n));
            MemorySegment dst = result.segment();
            if (inline(n, 1)) {
                pairs(k, t, sa, 0, sb, 0, dst, 0, n);
            } else {
                parallel.forRange(n, 1, (lo, hi) -> pairs(k, t, sa, lo, sb, lo, dst, lo, hi - lo));
            }
            return result;
        }
        if (aFull && b.size() == 1) return withScalar(k, t, sa, sb, n, out);
        if (bFull && a.size() == 1) return withScalar(k.swapped(), t, sb, sa, n, out);
        if (aFull && repeatsOverLeadingAxes(b.shape(), outShape)) return rows(k, t, sa, sb, b.size(), n, out);
        if (bFull && repeatsOverLeadingAxes(a.shape(), outShape)) return rows(k.swapped(), t, sb, sa, a.size(), n, out);
        return null;
    }

    private Buffer withScalar(VectorOps.Binary k, DType t, MemorySegment full, MemorySegment scalar, long n, DType out) {
        HostBuffer result = HostBuffer.uninitialized(out.byteSize(n));
        MemorySegment dst = result.segment();
        if (inline(n, 1)) {
            scalarRange(k, t, full, scalar, dst, 0, n);
        } else {
            parallel.forRange(n, 1, (lo, hi) -> scalarRange(k, t, full, scalar, dst, lo, hi - lo));
        }
        return result;
    }

    /**
     * {@code full k block} where {@code block} (of {@code len} elements) repeats along the leading axes
     * of {@code full}; the loop runs over rows of {@code len}. A block on the left arrives with {@code k} mirrored.
     */
    private Buffer rows(VectorOps.Binary k, DType t, MemorySegment full, MemorySegment block, long len, long n, DType out) {
        HostBuffer result = HostBuffer.uninitialized(out.byteSize(n));
        MemorySegment dst = result.segment();
        long rows = len == 0 ? 0 : n / len;
        if (len < TILE && rows > 1) {
            // a short block (a channel vector) goes repeated into a tile of whole blocks, so each call of the
            // vector loop covers many rows: same element pairs, same results, far fewer calls
            long per = Math.min(TILE / len, rows);
            MemorySegment tile = tile(t, block, len, per);
            try {
                long chunks = (rows + per - 1) / per;
                parallel.forRange(chunks, per * len, (lo, hi) -> {
                    for (long c = lo; c < hi; c++) {
                        long r0 = c * per, m = Math.min(per, rows - r0);
                        pairs(k, t, full, r0 * len, tile, 0, dst, r0 * len, m * len);
                    }
                });
            } finally {
                NativeMemory.free(tile);
            }
            return result;
        }
        if (inline(n, 1)) {
            for (long r = 0; r < rows; r++) pairs(k, t, full, r * len, block, 0, dst, r * len, len);
        } else {
            parallel.forRange(rows, len, (lo, hi) -> {
                for (long r = lo; r < hi; r++) pairs(k, t, full, r * len, block, 0, dst, r * len, len);
            });
        }
        return result;
    }

    /** Elements a repeated short block is tiled to (see {@link #rows}). */
    private static final long TILE = 2048;

    /**
     * {@code block} ({@code len} elements of {@code t}) repeated {@code times} times, in native memory the caller
     * frees ({@link NativeMemory#free}). Not on the heap: the vector loops are shared by every kernel, and once one
     * of their loads has seen a heap segment beside native ones, C2 stops intrinsifying it (the base object's kind
     * is no longer known) and every caller's loop falls back to the Vector API's per-lane Java code, 3-4x slower.
     */
    static MemorySegment tile(DType t, MemorySegment block, long len, long times) {
        long bytes = len * t.byteSize();
        MemorySegment out = NativeMemory.malloc(bytes * times);
        for (long i = 0; i < times; i++) MemorySegment.copy(block, 0, out, i * bytes, bytes);
        return out;
    }

    /**
     * True when {@code small}, after dropping leading 1s, equals the trailing axes of {@code out}, so
     * that it is one contiguous block repeated {@code out.size() / small.size()} times.
     */
    static boolean repeatsOverLeadingAxes(Shape small, Shape out) {
        int lead = 0;
        while (lead < small.rank() && small.dim(lead) == 1) lead++;
        int k = small.rank() - lead;
        if (k == 0 || k > out.rank()) return false;
        for (int i = 0; i < k; i++) {
            if (small.dim(lead + i) != out.dim(out.rank() - k + i)) return false;
        }
        return true;
    }

    private static void pairs(VectorOps.Binary k, DType t, MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long count) {
        switch (t) {
            case F32 -> VectorF32.binary(k, a, ai, b, bi, out, oi, count);
            case F64 -> VectorF64.binary(k, a, ai, b, bi, out, oi, count);
            case S32 -> VectorS32.binary(k, a, ai, b, bi, out, oi, count);
            case S64 -> VectorS64.binary(k, a, ai, b, bi, out, oi, count);
            default -> throw new IllegalStateException("no vector kernel for " + t);
        }
    }

    private static void scalarRange(VectorOps.Binary k, DType t, MemorySegment a, MemorySegment s, MemorySegment out, long from, long count) {
        switch (t) {
            case F32 -> VectorF32.binaryScalar(k, a, from, s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0), out, from, count);
            case F64 -> VectorF64.binaryScalar(k, a, from, s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0), out, from, count);
            case S32 -> VectorS32.binaryScalar(k, a, from, s.get(ValueLayout.JAVA_INT_UNALIGNED, 0), out, from, count);
            case S64 -> VectorS64.binaryScalar(k, a, from, s.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), out, from, count);
            default -> throw new IllegalStateException("no vector kernel for " + t);
        }
    }
}
