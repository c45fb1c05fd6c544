package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * General dot as a batched matmul {@code C[bt] = A[bt]·B[bt]} with sizes {@code M×K·K×N}:
 * A is {@code a} seen as {@code [batch, free, contract]}, B is {@code b} as
 * {@code [batch, contract, free]}.
 *
 * <p>Floats on the vector path run {@link Gemm} on strided views: when a's free axes and its
 * contraction axes each collapse to one stride (any 2-D transpose, batched matmul, ...), the
 * operand is read in place; only an operand whose axes don't collapse is first permuted by
 * the transpose kernel. GEMM sums in a blocked order (F32 accumulators for F16/BF16/F32, F64
 * for F64), so it agrees with the oracle within rounding ({@code ≲ k·eps·Σ|a||b|}).
 *
 * <p>The oracle path and the integer path permute both operands to that layout and compute
 * each element as {@code acc = fma(a[i,k], b[k,j], acc)} (integers: a wrapping long) over
 * ascending k; integers agree bit for bit across paths.
 */
final class DotKernels {
    private final Parallel parallel;
    private final boolean fast;
    private final MovementKernels movement;

    DotKernels(Parallel parallel, EngineConfig config, MovementKernels movement) {
        this.parallel = parallel;
        this.fast = config.vectorKernels();
        this.movement = movement;
    }

    /** Matrix sizes of one problem. */
    private record Dims(long batch, long m, long k, int n) {}

    Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) {
        int[] freeA = freeAxes(a.shape().rank(), contractA, batchA);
        int[] freeB = freeAxes(b.shape().rank(), contractB, batchB);
        long n = product(b.shape(), freeB);
        if (n > Integer.MAX_VALUE - 8) throw new JBurnException("dot", "the free axes of the right operand hold " + n + " elements per row, more than a kernel row can");
        Dims d = new Dims(product(a.shape(), batchA), product(a.shape(), freeA), product(a.shape(), contractA), (int) n);
        int w = out.byteSize();
        long outBytes = d.batch() * d.m() * d.n() * w;
        if (outBytes == 0) return HostBuffer.uninitialized(0);
        if (d.k() == 0) return HostBuffer.zeroed(outBytes);
        if (fast && out.isFloat()) return floatDot(a, contractA, batchA, freeA, b, contractB, batchB, freeB, out, d);
        Buffer pa = permuted(a, concat(batchA, freeA, contractA));
        Buffer pb = permuted(b, concat(batchB, contractB, freeB));
        try {
            HostBuffer result = HostBuffer.uninitialized(outBytes);
            MemorySegment sa = HostBuffer.of(pa), sb = HostBuffer.of(pb), sc = result.segment();
            if (!fast) {
                for (long row = 0; row < d.batch() * d.m(); row++) oracleRow(out, sa, sb, sc, d, row);
            } else {
                parallel.forRange(d.batch() * d.m(), d.k() * d.n(),
                        (lo, hi) -> MatmulRows.integer(out, sa, sb, sc, d.m(), d.k(), d.n(), lo, hi));
            }
            return result;
        } finally {
            if (pa != a.buffer()) pa.release();
            if (pb != b.buffer()) pb.release();
        }
    }

    /** Where one operand's matrices sit in its buffer: element strides of batch, row and column. */
    private record Layout(long batchStride, long rowStride, long colStride) {}

    /**
     * Floats on the vector path: both operands as strided views when their axes collapse
     * (permuting only the one that doesn't), then one GEMM per batch.
     */
    private Buffer floatDot(Operand a, int[] contractA, int[] batchA, int[] freeA,
                            Operand b, int[] contractB, int[] batchB, int[] freeB, DType out, Dims d) {
        int[][] pairs = contractionOrder(a.shape(), contractA, b.shape(), contractB);
        int[] ca = pairs[0], cb = pairs[1];
        Layout la = layout(a.shape(), batchA, freeA, ca), lb = layout(b.shape(), batchB, cb, freeB);
        Buffer pa = a.buffer(), pb = b.buffer();
        try {
            if (la == null) {
                pa = movement.transpose(a, concat(batchA, freeA, ca));
                la = new Layout(d.m() * d.k(), d.k(), 1);
            }
            if (lb == null) {
                pb = movement.transpose(b, concat(batchB, cb, freeB));
                lb = new Layout(d.k() * d.n(), d.n(), 1);
            }
            HostBuffer result = HostBuffer.uninitialized(d.batch() * d.m() * d.n() * out.byteSize());
            MemorySegment sa = HostBuffer.of(pa), sb = HostBuffer.of(pb), sc = result.segment();
            Layout fa = la, fb = lb;
            long work = d.m() * d.n() * d.k();
            if (d.batch() > 1 && work < BATCH_PARALLEL_BELOW) {
                // small matrices: one whole GEMM per task
                parallel.forRange(d.batch(), work, (lo, hi) -> {
                    for (long bt = lo; bt < hi; bt++) batchGemm(out, d, bt, sa, fa, sb, fb, sc, Gemm.SERIAL);
                });
            } else {
                for (long bt = 0; bt < d.batch(); bt++) batchGemm(out, d, bt, sa, fa, sb, fb, sc, parallel);
            }
            return result;
        } finally {
            if (pa != a.buffer()) pa.release();
            if (pb != b.buffer()) pb.release();
        }
    }

    /** Per-batch work (m·n·k) below which batches, not the GEMM, are split across threads. */
    private static final long BATCH_PARALLEL_BELOW = 1L << 21;
    /** Largest m or k handed to one GEMM call (its sizes are ints). */
    private static final long GEMM_CHUNK = 1L << 30;

    /** {@code C[bt] = A[bt]·B[bt]}, in int-sized pieces of m and k. */
    private static void batchGemm(DType t, Dims d, long bt, MemorySegment sa, Layout la, MemorySegment sb, Layout lb,
                                  MemorySegment sc, Parallel parallel) {
        long cBase = bt * d.m() * d.n();
        for (long i0 = 0; i0 < d.m(); i0 += GEMM_CHUNK) {
            int mi = (int) Math.min(GEMM_CHUNK, d.m() - i0);
            for (long p0 = 0; p0 < d.k(); p0 += GEMM_CHUNK) {
                int kp = (int) Math.min(GEMM_CHUNK, d.k() - p0);
                Gemm.View va = new Gemm.View(sa, bt * la.batchStride() + i0 * la.rowStride() + p0 * la.colStride(), la.rowStride(), la.colStride());
                Gemm.View vb = new Gemm.View(sb, bt * lb.batchStride() + p0 * lb.rowStride(), lb.rowStride(), lb.colStride());
                Gemm.View vc = Gemm.View.rowMajor(sc, cBase + i0 * d.n(), d.n());
                boolean acc = p0 > 0;
                switch (t) {
                    case F32 -> Gemm.sgemm(mi, d.n(), kp, va, vb, vc, acc, parallel);
                    case F64 -> Gemm.dgemm(mi, d.n(), kp, va, vb, vc, acc, parallel);
                    default -> Gemm.hgemm(t, mi, d.n(), kp, va, vb, vc, acc, parallel);
                }
            }
        }
    }

    /**
     * The contraction pairs in an order in which both operands' contraction axes collapse to
     * one stride: as given, else sorted by a's strides (outermost first); as given when
     * neither works (the operand that doesn't collapse is then permuted).
     */
    private static int[][] contractionOrder(Shape sa, int[] ca, Shape sb, int[] cb) {
        if (collapse(sa, ca) != NO_STRIDE && collapse(sb, cb) != NO_STRIDE) return new int[][] {ca, cb};
        long[] strides = sa.strides();
        Integer[] idx = new Integer[ca.length];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        Arrays.sort(idx, (x, y) -> Long.compare(strides[ca[y]], strides[ca[x]]));
        int[] ra = new int[ca.length], rb = new int[cb.length];
        for (int i = 0; i < idx.length; i++) {
            ra[i] = ca[idx[i]];
            rb[i] = cb[idx[i]];
        }
        if (collapse(sa, ra) != NO_STRIDE && collapse(sb, rb) != NO_STRIDE) return new int[][] {ra, rb};
        return new int[][] {ca, cb};
    }

    /** The layout of {@code [batch, rows, cols]} in a row-major operand, or null when rows or cols don't collapse. */
    private static Layout layout(Shape s, int[] batch, int[] rows, int[] cols) {
        long rs = collapse(s, rows), cs = collapse(s, cols);
        if (rs == NO_STRIDE || cs == NO_STRIDE) return null;
        long perBatch = 1;
        for (int i = batch.length; i < s.rank(); i++) perBatch *= s.dim(i);
        return new Layout(perBatch, rs, cs);
    }

    private static final long NO_STRIDE = Long.MIN_VALUE;

    /**
     * The element stride of the flattened index over {@code axes} (outermost first) of a
     * row-major shape, or {@link #NO_STRIDE} when they don't form one arithmetic progression.
     * Axes of extent 1 are free to be anywhere; with no axis of extent > 1 the stride is 0.
     */
    private static long collapse(Shape s, int[] axes) {
        long[] strides = s.strides();
        long inner = 0, expected = 0;
        boolean any = false;
        for (int t = axes.length - 1; t >= 0; t--) {
            int ax = axes[t];
            if (s.dim(ax) == 1) continue;
            if (any && strides[ax] != expected) return NO_STRIDE;
            if (!any) inner = strides[ax];
            any = true;
            expected = strides[ax] * s.dim(ax);
        }
        return inner;
    }

    /** Row {@code row} (= batch·M + i) of the output, one element at a time with HostElements. */
    private static void oracleRow(DType t, MemorySegment a, MemorySegment b, MemorySegment c, Dims d, long row) {
        long bt = row / d.m();
        long aRow = row * d.k();
        long bBase = bt * d.k() * d.n();
        long cRow = row * d.n();
        for (int j = 0; j < d.n(); j++) {
            if (t == DType.F64) {
                double acc = 0;
                for (long k = 0; k < d.k(); k++) {
                    acc = Math.fma(HostElements.getDouble(a, t, aRow + k), HostElements.getDouble(b, t, bBase + k * d.n() + j), acc);
                }
                HostElements.setDouble(c, t, cRow + j, acc);
            } else if (t.isFloat()) {
                float acc = 0;
                for (long k = 0; k < d.k(); k++) {
                    acc = Math.fma((float) HostElements.getDouble(a, t, aRow + k),
                            (float) HostElements.getDouble(b, t, bBase + k * d.n() + j), acc);
                }
                HostElements.setDouble(c, t, cRow + j, acc);
            } else {
                long acc = 0;
                for (long k = 0; k < d.k(); k++) {
                    acc += HostElements.getLong(a, t, aRow + k) * HostElements.getLong(b, t, bBase + k * d.n() + j);
                }
                HostElements.setLong(c, t, cRow + j, acc);
            }
        }
    }

    /** {@code x}'s buffer laid out in {@code perm} order: itself when {@code perm} is the identity. */
    private Buffer permuted(Operand x, int[] perm) {
        for (int i = 0; i < perm.length; i++) {
            if (perm[i] != i) return movement.transpose(x, perm);
        }
        return x.buffer();
    }

    private static int[] freeAxes(int rank, int[] contract, int[] batch) {
        return java.util.stream.IntStream.range(0, rank)
                .filter(i -> Arrays.stream(contract).noneMatch(c -> c == i) && Arrays.stream(batch).noneMatch(c -> c == i))
                .toArray();
    }

    private static long product(Shape s, int[] axes) {
        long p = 1;
        for (int a : axes) p *= s.dim(a);
        return p;
    }

    private static int[] concat(int[]... parts) {
        int[] out = new int[Arrays.stream(parts).mapToInt(p -> p.length).sum()];
        int i = 0;
        for (int[] p : parts) for (int v : p) out[i++] = v;
        return out;
    }
}
