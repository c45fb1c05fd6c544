package dev.jburn;

import dev.jburn.op.ContractionOp;

import java.util.Arrays;

/**
 * Front end of {@code dot}: Nx's dot/2 axis choice and dot/6 validation, then one backend
 * call with both operands cast to {@code merge(a, b)} (no widening: s8·s8 is s8).
 */
final class DotOps {
    private DotOps() {}

    private static final String OP = ContractionOp.DOT.opName();
    private static final int[] NONE = new int[0];

    /** Nx dot/2: a scalar multiplies; otherwise a's last axis against b's only axis or its second-to-last. */
    static Tensor dot(Tensor a, Tensor b) {
        if (a.rank() == 0 || b.rank() == 0) return dot(a, NONE, NONE, b, NONE, NONE);
        int ca = a.rank() - 1;
        int cb = b.rank() == 1 ? 0 : b.rank() - 2;
        return dot(a, new int[] {ca}, NONE, b, new int[] {cb}, NONE);
    }

    /** numpy matmul: dot/2 up to rank 2; beyond, a batched matrix product over broadcast leading axes. */
    static Tensor matmul(Tensor a, Tensor b) {
        if (a.rank() == 0 || b.rank() == 0) {
            throw new JBurnException("matmul", "matmul needs at least one axis on each side (multiply scales by a scalar), got "
                    + a.shape() + " and " + b.shape());
        }
        if (a.rank() <= 2 && b.rank() <= 2) return dot(a, b);
        if (a.rank() == 1 || b.rank() == 1) return dot(a, b); // a vector contracts with the matrix axis, as numpy
        int[] da = a.shape().dims(), db = b.shape().dims();
        Shape batch = Shape.broadcast("matmul", Shape.of(java.util.Arrays.copyOf(da, da.length - 2)),
                Shape.of(java.util.Arrays.copyOf(db, db.length - 2)));
        int r = batch.rank();
        int[] shapeA = java.util.Arrays.copyOf(batch.dims(), r + 2), shapeB = java.util.Arrays.copyOf(batch.dims(), r + 2);
        shapeA[r] = da[da.length - 2];
        shapeA[r + 1] = da[da.length - 1];
        shapeB[r] = db[db.length - 2];
        shapeB[r + 1] = db[db.length - 1];
        int[] batchAxes = new int[r];
        for (int i = 0; i < r; i++) batchAxes[i] = i;
        try (Tensor wa = a.broadcast(Shape.of(shapeA)); Tensor wb = b.broadcast(Shape.of(shapeB))) {
            return dot(wa, new int[] {r + 1}, batchAxes, wb, new int[] {r}, batchAxes);
        }
    }

    /** Nx dot/6. */
    static Tensor dot(Tensor a, int[] contractA, int[] batchA, Tensor b, int[] contractB, int[] batchB) {
        Tensor[] on = CommonEngine.of(OP, a, b);
        a = on[0];
        b = on[1];
        Shape sa = a.shape();
        Shape sb = b.shape();
        int[] ca = sa.normalizeAxes(OP, contractA);
        int[] cb = sb.normalizeAxes(OP, contractB);
        int[] ba = sa.normalizeAxes(OP, batchA);
        int[] bb = sb.normalizeAxes(OP, batchB);
        if (ca.length != cb.length) {
            throw new JBurnException(OP, "expected the same number of contraction axes on both sides, got "
                    + ShapeOps.str(contractA) + " for " + sa + " and " + ShapeOps.str(contractB) + " for " + sb);
        }
        for (int i = 0; i < ca.length; i++) {
            if (sa.dim(ca[i]) != sb.dim(cb[i])) {
                throw new JBurnException(OP, "dot/zip expects shapes to be compatible, dimension " + ca[i] + " of left-side ("
                        + sa.dim(ca[i]) + ") does not equal dimension " + cb[i] + " of right-side (" + sb.dim(cb[i])
                        + "), shapes " + sa + " and " + sb);
            }
        }
        if (ba.length > 0 && bb.length == 0) throw new JBurnException(OP, "right tensor must be batched if left tensor is batched");
        if (bb.length > 0 && ba.length == 0) throw new JBurnException(OP, "left tensor must be batched if right tensor is batched");
        checkLeadingBatch("left", ba);
        checkLeadingBatch("right", bb);
        if (ba.length != bb.length) {
            throw new JBurnException(OP, "expected the same number of batch axes on both sides, got " + ShapeOps.str(batchA)
                    + " and " + ShapeOps.str(batchB));
        }
        for (int i = 0; i < ba.length; i++) {
            if (sa.dim(i) != sb.dim(i)) {
                throw new JBurnException(OP, "dot batch dimension " + i + " of left-side (" + sa.dim(i)
                        + ") does not equal batch dimension " + i + " of right-side (" + sb.dim(i) + "), shapes " + sa + " and " + sb);
            }
        }
        checkDisjoint("left", ba, ca);
        checkDisjoint("right", bb, cb);

        int[] out = new int[sa.rank() + sb.rank() - 2 * ca.length - ba.length];
        int j = 0;
        for (int i = 0; i < ba.length; i++) out[j++] = sa.dim(i);
        for (int i = 0; i < sa.rank(); i++) if (free(i, ba, ca)) out[j++] = sa.dim(i);
        for (int i = 0; i < sb.rank(); i++) if (free(i, bb, cb)) out[j++] = sb.dim(i);
        DType type = DType.merge(a.dtype(), b.dtype());
        try (Tensor ac = a.asType(type); Tensor bc = b.asType(type)) {
            return Tensor.wrap(a.engine(), a.backend().dot(ac.operand(), ca, ba, bc.operand(), cb, bb, type), type, Shape.of(out));
        }
    }

    private static void checkLeadingBatch(String side, int[] batch) {
        for (int i = 0; i < batch.length; i++) {
            if (batch[i] != i) {
                throw new JBurnException(OP, "invalid dot batch axis for the " + side + " tensor, batch axes must be successive "
                        + "dimensions starting from 0, got " + ShapeOps.str(batch));
            }
        }
    }

    private static void checkDisjoint(String side, int[] batch, int[] contract) {
        for (int c : contract) {
            if (Arrays.stream(batch).anyMatch(x -> x == c)) {
                throw new JBurnException(OP, "dot batch axes of the " + side + " tensor " + ShapeOps.str(batch)
                        + " may not be contracted, got contraction axes " + ShapeOps.str(contract));
            }
        }
    }

    private static boolean free(int axis, int[] batch, int[] contract) {
        for (int x : batch) if (x == axis) return false;
        for (int x : contract) if (x == axis) return false;
        return true;
    }
}
