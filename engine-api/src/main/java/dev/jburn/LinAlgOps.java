package dev.jburn;

import dev.jburn.op.LinalgOp;
import dev.jburn.spi.Buffer;

import java.util.List;

/**
 * Front end of the factorization primitives (Cholesky, triangular solve, LU, QR, eigh, SVD): Nx's
 * shape checks and messages, conversion to the floating type, one backend call, result shapes.
 * Also the small helpers the composites in {@link LinAlgSolve} and {@link MatrixNorms} share.
 */
final class LinAlgOps {
    private LinAlgOps() {}

    static final String CHOLESKY = LinalgOp.CHOLESKY.opName();
    static final String TRIANGULAR_SOLVE = LinalgOp.TRIANGULAR_SOLVE.opName();
    static final String LU = LinalgOp.LU.opName();
    static final String QR = LinalgOp.QR.opName();
    static final String EIGH = LinalgOp.EIGH.opName();
    static final String SVD = LinalgOp.SVD.opName();

    // ---- validation ---------------------------------------------------------------------------------

    static void requireRank2(String op, Shape s) {
        if (s.rank() < 2) {
            throw new JBurnException(op, "tensor must have at least rank 2, got rank " + s.rank() + " with shape " + s);
        }
    }

    static void requireSquareBatch(String op, Shape s) {
        requireRank2(op, s);
        if (s.dim(-2) != s.dim(-1)) {
            throw new JBurnException(op, "tensor must be a square matrix or a batch of square matrices, got shape: " + s);
        }
    }

    /** The leading (batch) dimensions of a {@code [..., m, n]} shape. */
    static int[] batchDims(Shape s) {
        return java.util.Arrays.copyOf(s.dims(), s.rank() - 2);
    }

    /** {@code batch ++ tail}. */
    static Shape withBatch(int[] batch, int... tail) {
        int[] d = java.util.Arrays.copyOf(batch, batch.length + tail.length);
        System.arraycopy(tail, 0, d, batch.length, tail.length);
        return Shape.of(d);
    }

    private static Tensor wrap(Tensor like, Buffer b, DType t, Shape s) { return Tensor.wrap(like.engine(), b, t, s); }

    // ---- primitives -----------------------------------------------------------------------------------

    static Tensor cholesky(Tensor a) {
        requireSquareBatch(CHOLESKY, a.shape());
        DType f = a.dtype().toFloating();
        try (Tensor af = a.asType(f)) {
            return wrap(a, a.backend().cholesky(af.operand()), f, a.shape());
        }
    }

    static Tensor triangularSolve(Tensor a, Tensor b, boolean lower, boolean leftSide, boolean transposeA) {
        Tensor[] on = CommonEngine.of(TRIANGULAR_SOLVE, a, b);
        a = on[0];
        b = on[1];
        Shape sa = a.shape();
        Shape sb = b.shape();
        if (sa.rank() < 2 || sa.dim(-2) != sa.dim(-1)) {
            throw new JBurnException(TRIANGULAR_SOLVE, "expected a square matrix or a batch of square matrices, got tensor with shape: " + sa);
        }
        requireSolvableShapes(TRIANGULAR_SOLVE, sa, sb, leftSide, () ->
                "incompatible dimensions for a and b on triangular solve, got a " + sa + " and b " + sb);
        DType f = DType.merge(a.dtype(), b.dtype()).toFloating();
        try (Tensor af = a.asType(f); Tensor bf = b.asType(f)) {
            return wrap(a, a.backend().triangularSolve(af.operand(), bf.operand(), lower, leftSide, transposeA), f, sb);
        }
    }

    /**
     * {@code b} is a batch of vectors ({@code [..., n]}) or of matrices ({@code [..., n, m]} on the
     * left side, {@code [..., m, n]} on the right), with {@code a}'s batch axes.
     */
    static void requireSolvableShapes(String op, Shape sa, Shape sb, boolean leftSide, java.util.function.Supplier<String> message) {
        int n = sa.dim(-1);
        int batch = sa.rank() - 2;
        boolean ok;
        if (sb.rank() == sa.rank() - 1) {
            ok = sb.dim(-1) == n;
        } else if (sb.rank() == sa.rank()) {
            ok = leftSide ? sb.dim(-2) == n : sb.dim(-1) == n;
        } else {
            ok = false;
        }
        for (int i = 0; ok && i < batch; i++) ok = sa.dim(i) == sb.dim(i);
        if (!ok) throw new JBurnException(op, message.get());
    }

    static LinAlg.LU lu(Tensor a) {
        requireSquareBatch(LU, a.shape());
        List<Tensor> plu = luFloating(a);
        Tensor p = plu.get(0);
        if (p.dtype() == a.dtype()) return new LinAlg.LU(p, plu.get(1), plu.get(2));
        try (p) {
            return new LinAlg.LU(p.asType(a.dtype()), plu.get(1), plu.get(2));
        }
    }

    /** {@code [p, l, u]}, all in {@code a}'s floating type (for the composites; {@code lu} converts {@code p}). */
    static List<Tensor> luFloating(Tensor a) {
        DType f = a.dtype().toFloating();
        try (Tensor af = a.asType(f)) {
            List<Buffer> out = a.backend().lu(af.operand());
            return List.of(wrap(a, out.get(0), f, a.shape()), wrap(a, out.get(1), f, a.shape()), wrap(a, out.get(2), f, a.shape()));
        }
    }

    static LinAlg.QR qr(Tensor a, boolean complete) {
        Shape s = a.shape();
        requireRank2(QR, s);
        int m = s.dim(-2);
        int n = s.dim(-1);
        int k = Math.min(m, n);
        int[] batch = batchDims(s);
        DType f = a.dtype().toFloating();
        try (Tensor af = a.asType(f)) {
            List<Buffer> out = a.backend().qr(af.operand(), complete);
            return new LinAlg.QR(wrap(a, out.get(0), f, withBatch(batch, m, complete ? m : k)),
                    wrap(a, out.get(1), f, withBatch(batch, complete ? m : k, n)));
        }
    }

    static LinAlg.Eigh eigh(Tensor a) {
        Shape s = a.shape();
        requireSquareBatch(EIGH, s);
        int n = s.dim(-1);
        DType f = a.dtype().toFloating();
        try (Tensor af = a.asType(f)) {
            List<Buffer> out = a.backend().eigh(af.operand());
            return new LinAlg.Eigh(wrap(a, out.get(0), f, withBatch(batchDims(s), n)), wrap(a, out.get(1), f, s));
        }
    }

    static LinAlg.SVD svd(Tensor a, boolean fullMatrices) {
        Shape s = a.shape();
        requireRank2(SVD, s);
        int m = s.dim(-2);
        int n = s.dim(-1);
        int k = Math.min(m, n);
        int[] batch = batchDims(s);
        DType f = a.dtype().toFloating();
        try (Tensor af = a.asType(f)) {
            List<Buffer> out = a.backend().svd(af.operand(), fullMatrices);
            return new LinAlg.SVD(wrap(a, out.get(0), f, withBatch(batch, m, fullMatrices ? m : k)),
                    wrap(a, out.get(1), f, withBatch(batch, k)),
                    wrap(a, out.get(2), f, withBatch(batch, fullMatrices ? n : k, n)));
        }
    }

    // ---- helpers for the composites -------------------------------------------------------------

    /** Counting along {@code axis} over {@code shape}, on {@code like}'s engine. */
    static Tensor iota(Tensor like, Shape shape, DType t, int axis) {
        return wrap(like, like.backend().iota(shape, t, axis), t, shape);
    }

    /** The diagonals {@code [..., n]} of square matrices {@code [..., n, n]}. */
    static Tensor diagonal(Tensor m) {
        Shape s = m.shape();
        int n = s.dim(-1);
        int[] batch = batchDims(s);
        Shape idxShape = withBatch(batch, n, 1);
        try (Tensor idx = iota(m, idxShape, DType.S32, s.rank() - 2);
             Tensor picked = m.takeAlongAxis(idx, -1)) {
            return picked.reshape(withBatch(batch, n));
        }
    }
}
