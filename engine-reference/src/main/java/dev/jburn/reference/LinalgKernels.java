package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Linear-algebra kernels, batched over the leading axes: each matrix of the batch is read into a
 * {@code double[]}, factored by the algorithm class ({@link Cholesky}, {@link TriangularSolve},
 * {@link Lu}, {@link Householder}, {@link JacobiEigen}, {@link JacobiSvd}) and written back in
 * the operand's float type. Matrices of a batch run in parallel; a single matrix may use the
 * threads inside its factorization instead (blocked Cholesky).
 */
final class LinalgKernels {
    private final Parallel parallel;
    private final Parallel sequential = new Parallel(1, Long.MAX_VALUE);
    private final EngineConfig config;

    LinalgKernels(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }

    @FunctionalInterface
    private interface PerMatrix {
        void run(int index);
    }

    /**
     * Runs {@code body} for each of {@code count} matrices, none when each result matrix is empty
     * ({@code outputPerMatrix == 0}): a batch of 2³¹ empty matrices must not take minutes.
     */
    private void forEachMatrix(long count, long cost, long outputPerMatrix, PerMatrix body) {
        if (outputPerMatrix == 0) return;
        parallel.forRange(count, cost, (lo, hi) -> {
            for (long b = lo; b < hi; b++) body.run((int) b);
        });
    }

    private static long batchCount(Shape s, int matrixRank) {
        long c = 1;
        for (int i = 0; i < s.rank() - matrixRank; i++) c *= s.dim(i);
        return c;
    }

    private static long cube(long n) { return Math.max(1, n * n * n); }

    // ---- Cholesky -----------------------------------------------------------------------------------

    Buffer cholesky(Operand a) {
        DType t = a.dtype();
        int n = a.shape().dim(-1);
        long batch = batchCount(a.shape(), 2);
        int nn = n * n;
        HostBuffer out = HostBuffer.uninitialized(t.byteSize(a.size()));
        MemorySegment src = HostBuffer.of(a.buffer());
        MemorySegment dst = out.segment();
        Parallel inner = batch == 1 ? parallel : sequential;
        forEachMatrix(batch, cube(n) / 3, nn, b -> {
            double[] m = DenseMatrices.read(src, t, (long) b * nn, nn);
            if (config.vectorKernels()) Cholesky.blocked(m, n, inner);
            else CholeskyCrout.unblocked(m, n);
            DenseMatrices.writeLower(dst, t, (long) b * nn, m, n);
        });
        return out;
    }

    // ---- triangular solve ---------------------------------------------------------------------------

    Buffer triangularSolve(Operand a, Operand b, boolean lower, boolean leftSide, boolean transposeA) {
        DType t = a.dtype();
        int n = a.shape().dim(-1);
        int nn = n * n;
        long batch = batchCount(a.shape(), 2);
        boolean vector = b.shape().rank() == a.shape().rank() - 1;
        // Right side: X·op(a) = B is op(a)ᵀ·Xᵀ = Bᵀ, one left-side solve on the transposed right-hand side.
        boolean transposed = leftSide ? transposeA : !transposeA;
        boolean lowerT = lower != transposed;
        int m = vector ? 1 : (leftSide ? b.shape().dim(-1) : b.shape().dim(-2));
        boolean flipB = !vector && !leftSide;
        MemorySegment as = HostBuffer.of(a.buffer());
        MemorySegment bs = HostBuffer.of(b.buffer());
        requireNonSingular(as, t, batch, n, a.shape());
        HostBuffer out = HostBuffer.uninitialized(t.byteSize(b.size()));
        MemorySegment dst = out.segment();
        int nm = n * m;
        forEachMatrix(batch, cube(n) + (long) nn * m, nm, i -> {
            double[] am = DenseMatrices.read(as, t, (long) i * nn, nn);
            double[] bm = DenseMatrices.read(bs, t, (long) i * nm, nm);
            if (flipB) bm = DenseMatrices.transpose(bm, m, n);
            TriangularSolve.solve(am, n, transposed, lowerT, bm, m);
            if (flipB) bm = DenseMatrices.transpose(bm, n, m);
            DenseMatrices.write(dst, t, (long) i * nm, bm, nm);
        });
        return out;
    }

    /** Checked on the caller's thread before any work: an exactly zero diagonal entry makes the system singular. */
    private static void requireNonSingular(MemorySegment a, DType t, long batch, int n, Shape shape) {
        if (n == 0) return;
        for (long b = 0; b < batch; b++) {
            for (int i = 0; i < n; i++) {
                if (HostElements.getDouble(a, t, b * n * n + (long) i * n + i) == 0) {
                    String where = batch > 1 ? " (matrix " + b + " of the batch " + shape + ")" : " (shape " + shape + ")";
                    throw new JBurnException("triangularSolve", "can't solve for singular matrix: a[" + i + "][" + i + "] is 0" + where);
                }
            }
        }
    }

    // ---- LU -----------------------------------------------------------------------------------------

    List<Buffer> lu(Operand a) {
        DType t = a.dtype();
        int n = a.shape().dim(-1);
        int nn = n * n;
        long batch = batchCount(a.shape(), 2);
        long bytes = t.byteSize(a.size());
        HostBuffer p = HostBuffer.uninitialized(bytes);
        HostBuffer l = HostBuffer.uninitialized(bytes);
        HostBuffer u = HostBuffer.uninitialized(bytes);
        MemorySegment src = HostBuffer.of(a.buffer());
        forEachMatrix(batch, cube(n), nn, b -> {
            double[] m = DenseMatrices.read(src, t, (long) b * nn, nn);
            int[] perm = Lu.factor(m, n);
            long off = (long) b * nn;
            DenseMatrices.write(p.segment(), t, off, Lu.permutationMatrix(perm), nn);
            DenseMatrices.write(l.segment(), t, off, Lu.lower(m, n), nn);
            DenseMatrices.write(u.segment(), t, off, Lu.upper(m, n), nn);
        });
        return List.of(p, l, u);
    }

    // ---- QR -----------------------------------------------------------------------------------------

    List<Buffer> qr(Operand a, boolean complete) {
        DType t = a.dtype();
        int rows = a.shape().dim(-2);
        int cols = a.shape().dim(-1);
        int k = Math.min(rows, cols);
        int qCols = complete ? rows : k;
        int rRows = complete ? rows : k;
        long batch = batchCount(a.shape(), 2);
        HostBuffer q = HostBuffer.uninitialized(t.byteSize(batch * rows * qCols));
        HostBuffer r = HostBuffer.uninitialized(t.byteSize(batch * rRows * cols));
        MemorySegment src = HostBuffer.of(a.buffer());
        int size = rows * cols;
        forEachMatrix(batch, (long) rows * cols * Math.max(k, 1) * 2, (long) rows * qCols + (long) rRows * cols, b -> {
            double[] m = DenseMatrices.read(src, t, (long) b * size, size);
            Householder.Factors f = Householder.factor(m, rows, cols, complete);
            DenseMatrices.write(q.segment(), t, (long) b * rows * qCols, f.q(), rows * qCols);
            DenseMatrices.write(r.segment(), t, (long) b * rRows * cols, f.r(), rRows * cols);
        });
        return List.of(q, r);
    }

    // ---- eigh ---------------------------------------------------------------------------------------

    List<Buffer> eigh(Operand a) {
        DType t = a.dtype();
        int n = a.shape().dim(-1);
        int nn = n * n;
        long batch = batchCount(a.shape(), 2);
        HostBuffer vals = HostBuffer.uninitialized(t.byteSize(batch * n));
        HostBuffer vecs = HostBuffer.uninitialized(t.byteSize(batch * nn));
        MemorySegment src = HostBuffer.of(a.buffer());
        forEachMatrix(batch, cube(n) * 10, nn, b -> {
            JacobiEigen.Result res = JacobiEigen.decompose(DenseMatrices.read(src, t, (long) b * nn, nn), n);
            DenseMatrices.write(vals.segment(), t, (long) b * n, res.values(), n);
            DenseMatrices.write(vecs.segment(), t, (long) b * nn, res.vectors(), nn);
        });
        return List.of(vals, vecs);
    }

    // ---- SVD ----------------------------------------------------------------------------------------

    List<Buffer> svd(Operand a, boolean fullMatrices) {
        DType t = a.dtype();
        int rows = a.shape().dim(-2);
        int cols = a.shape().dim(-1);
        int k = Math.min(rows, cols);
        int uCols = fullMatrices ? rows : k;
        int vtRows = fullMatrices ? cols : k;
        long batch = batchCount(a.shape(), 2);
        HostBuffer u = HostBuffer.uninitialized(t.byteSize(batch * rows * uCols));
        HostBuffer s = HostBuffer.uninitialized(t.byteSize(batch * k));
        HostBuffer vt = HostBuffer.uninitialized(t.byteSize(batch * vtRows * cols));
        MemorySegment src = HostBuffer.of(a.buffer());
        int size = rows * cols;
        forEachMatrix(batch, (long) size * Math.max(k, 1) * 10, (long) rows * uCols + k + (long) vtRows * cols, b -> {
            JacobiSvd.Result res = JacobiSvd.decompose(DenseMatrices.read(src, t, (long) b * size, size), rows, cols, fullMatrices);
            DenseMatrices.write(u.segment(), t, (long) b * rows * uCols, res.u(), rows * uCols);
            DenseMatrices.write(s.segment(), t, (long) b * k, res.s(), k);
            DenseMatrices.write(vt.segment(), t, (long) b * vtRows * cols, res.vt(), vtRows * cols);
        });
        return List.of(u, s, vt);
    }
}
