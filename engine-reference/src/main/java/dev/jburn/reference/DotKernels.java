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
 * General dot as a batched matmul: {@code a} is permuted to {@code [batch, free, contract]}
 * and {@code b} to {@code [batch, contract, free]} (by the transpose kernel, skipped when
 * already in that order), then {@code C[bt] = A[bt]·B[bt]} with sizes {@code M×K·K×N}.
 *
 * <p>Every path computes each output element as the same sequence
 * {@code acc = fma(a[i,k], b[k,j], acc)} over ascending k (floats: F32 accumulator for
 * F16/BF16/F32, F64 for F64; integers: a wrapping long), so the scalar oracle and the
 * vector path agree bit for bit.
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
        Buffer pa = permuted(a, concat(batchA, freeA, contractA));
        Buffer pb = permuted(b, concat(batchB, contractB, freeB));
        try {
            HostBuffer result = HostBuffer.uninitialized(outBytes);
            MemorySegment sa = HostBuffer.of(pa), sb = HostBuffer.of(pb), sc = result.segment();
            if (!fast) {
                for (long row = 0; row < d.batch() * d.m(); row++) oracleRow(out, sa, sb, sc, d, row);
            } else if (out == DType.F32 || out == DType.F64) {
                parallel.forRange(d.batch() * d.m(), d.k() * d.n(), (lo, hi) -> {
                    if (out == DType.F32) MatmulRows.f32(sa, sb, sc, d.m(), d.k(), d.n(), lo, hi);
                    else MatmulRows.f64(sa, sb, sc, d.m(), d.k(), d.n(), lo, hi);
                });
            } else if (out == DType.F16 || out == DType.BF16) {
                halfMatmul(out, sa, sb, sc, d);
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

    /** F16/BF16: widen both operands to F32 (exact), run the F32 kernel, round each result once. */
    private void halfMatmul(DType t, MemorySegment a, MemorySegment b, MemorySegment c, Dims d) {
        long na = d.batch() * d.m() * d.k(), nb = d.batch() * d.k() * d.n(), nc = d.batch() * d.m() * d.n();
        HostBuffer fa = HostBuffer.uninitialized(na * 4), fb = HostBuffer.uninitialized(nb * 4), fc = HostBuffer.uninitialized(nc * 4);
        try {
            MemorySegment xa = fa.segment(), xb = fb.segment(), xc = fc.segment();
            parallel.forRange(na, 2, (lo, hi) -> { for (long i = lo; i < hi; i++) HostElements.setDouble(xa, DType.F32, i, HostElements.getDouble(a, t, i)); });
            parallel.forRange(nb, 2, (lo, hi) -> { for (long i = lo; i < hi; i++) HostElements.setDouble(xb, DType.F32, i, HostElements.getDouble(b, t, i)); });
            parallel.forRange(d.batch() * d.m(), d.k() * d.n(),
                    (lo, hi) -> MatmulRows.f32(xa, xb, xc, d.m(), d.k(), d.n(), lo, hi));
            parallel.forRange(nc, 2, (lo, hi) -> { for (long i = lo; i < hi; i++) HostElements.setDouble(c, t, i, HostElements.getDouble(xc, DType.F32, i)); });
        } finally {
            fa.release();
            fb.release();
            fc.release();
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
