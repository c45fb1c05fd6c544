package dev.jburn;

import dev.jburn.op.IndexOp;

import java.util.ArrayList;
import java.util.List;

/**
 * Front end of the index-driven ops. {@code gather}, {@code indexedAdd} and {@code indexedPut}
 * are primitives; {@code take} and {@code takeAlongAxis} are built from gather. Out-of-range
 * index values are data, so the kernel reports them; they are renamed here to the op the user called.
 */
final class IndexOps {
    private IndexOps() {}

    static void requireIntegerIndices(String op, Tensor indices) {
        if (!indices.dtype().isInteger()) {
            throw new JBurnException(op, "indices must be an integer tensor, got " + indices.dtype().shortName());
        }
    }

    // ---- gather ---------------------------------------------------------------------------------

    static Tensor gather(Tensor t, Tensor indices) {
        String op = IndexOp.GATHER.opName();
        int k = indexDepth(op, t, indices);
        int[] axes = new int[k];
        for (int i = 0; i < k; i++) axes[i] = i;
        return gather(op, t, indices, axes);
    }

    static Tensor gather(Tensor t, Tensor indices, int[] axes) {
        return gather(IndexOp.GATHER.opName(), t, indices, axes);
    }

    private static Tensor gather(String op, Tensor t, Tensor indices, int[] axes) {
        Tensor[] on = CommonEngine.of(op, t, indices);
        t = on[0];
        indices = on[1];
        int k = indexDepth(op, t, indices);
        if (axes.length != k) {
            throw new JBurnException(op, "expected the last axis of indices " + indices.shape() + " (" + k
                    + ") to match the number of axes " + ShapeOps.str(axes));
        }
        int[] a = t.shape().normalizeAxes(op, axes);
        Shape out = gatherShape(t.shape(), indices.shape(), a);
        try {
            return Tensor.wrap(t.engine(), t.backend().gather(t.operand(), indices.operand(), a), t.dtype(), out);
        } catch (JBurnException e) {
            throw Args.renamed(e, op);
        }
    }

    /** The number of axes each index vector addresses (the last axis of {@code indices}), checked against {@code t}'s rank. */
    private static int indexDepth(String op, Tensor t, Tensor indices) {
        requireIntegerIndices(op, indices);
        if (indices.rank() < 1) throw new JBurnException(op, "expected indices rank to be at least 1, got: 0");
        int k = indices.shape().dim(-1);
        if (k > t.rank()) {
            throw new JBurnException(op, "the last axis of indices " + indices.shape() + " addresses " + k
                    + " axes, more than the rank of the tensor shape " + t.shape());
        }
        return k;
    }

    private static Shape gatherShape(Shape x, Shape idx, int[] axes) {
        boolean[] indexed = new boolean[x.rank()];
        for (int a : axes) indexed[a] = true;
        int[] out = new int[idx.rank() - 1 + x.rank() - axes.length];
        int j = 0;
        for (int i = 0; i < idx.rank() - 1; i++) out[j++] = idx.dim(i);
        for (int i = 0; i < x.rank(); i++) if (!indexed[i]) out[j++] = x.dim(i);
        return Shape.of(out);
    }

    // ---- take, takeAlongAxis -----------------------------------------------------------------------

    /** Output shape is {@code t.shape} with {@code axis} replaced by {@code indices.shape}. */
    static Tensor take(Tensor t, Tensor indices, int axis) {
        String op = IndexOp.TAKE.opName();
        Tensor[] on = CommonEngine.of(op, t, indices);
        t = on[0];
        indices = on[1];
        requireIntegerIndices(op, indices);
        int ax = t.shape().normalizeAxis(op, axis);
        int m = indices.rank();
        int[] idxDims = indices.shape().dims();
        int[] withK = java.util.Arrays.copyOf(idxDims, m + 1);
        withK[m] = 1;
        // gather gives [idx..., t dims before axis..., t dims after axis...]; move idx dims to the axis position.
        try (Tensor idx = indices.reshape(Shape.of(withK)); Tensor g = gather(op, t, idx, new int[] {ax})) {
            int r = g.rank();
            int[] perm = new int[r];
            int p = 0;
            for (int i = 0; i < ax; i++) perm[p++] = m + i;
            for (int i = 0; i < m; i++) perm[p++] = i;
            for (int i = m + ax; i < r; i++) perm[p++] = i;
            return ShapeOps.transpose(g, perm);
        }
    }

    static Tensor takeAlongAxis(Tensor t, Tensor indices, int axis) {
        String op = IndexOp.TAKE_ALONG_AXIS.opName();
        Tensor[] on = CommonEngine.of(op, t, indices);
        t = on[0];
        indices = on[1];
        requireIntegerIndices(op, indices);
        int ax = t.shape().normalizeAxis(op, axis);
        Shape is = indices.shape();
        boolean ok = is.rank() == t.rank();
        for (int i = 0; ok && i < is.rank(); i++) ok = i == ax || is.dim(i) == t.shape().dim(i);
        if (!ok) {
            throw new JBurnException(op, "expected indices " + is + " to have the rank of the tensor " + t.shape()
                    + " and equal sizes on every axis but " + ax);
        }
        int r = t.rank();
        int[] withK = java.util.Arrays.copyOf(is.dims(), r + 1);
        withK[r] = 1;
        // Full coordinates: iota on every other axis, the given indices on `axis`, stacked on a new last axis.
        DType it = DType.S64;
        List<Tensor> owned = new ArrayList<>();
        try {
            List<Tensor> columns = new ArrayList<>();
            for (int i = 0; i < r; i++) {
                Tensor coord = i == ax ? indices.asType(it) : Tensor.wrap(t.engine(), t.backend().iota(is, it, i), it, is);
                owned.add(coord);
                Tensor column = coord.reshape(Shape.of(withK));
                owned.add(column);
                columns.add(column);
            }
            try (Tensor full = ShapeOps.concatenate(columns, r)) {
                return gather(op, t, full, t.shape().allAxes());
            }
        } finally {
            for (Tensor o : owned) o.close();
        }
    }

    // ---- indexedAdd, indexedPut ----------------------------------------------------------------------

    static Tensor indexedUpdate(Tensor target, Tensor indices, Tensor updates, int[] axes, boolean accumulate) {
        String op = (accumulate ? IndexOp.INDEXED_ADD : IndexOp.INDEXED_PUT).opName();
        Tensor[] on = CommonEngine.of(op, target, indices, updates);
        target = on[0];
        indices = on[1];
        updates = on[2];
        requireIntegerIndices(op, indices);
        if (indices.rank() != 1 && indices.rank() != 2) {
            throw new JBurnException(op, "indices must be a rank 1 or 2 tensor, got: " + indices.rank() + " (shape "
                    + indices.shape() + ")");
        }
        boolean single = indices.rank() == 1;
        if (single && updates.rank() != 0) {
            throw new JBurnException(op, "rank 1 indices " + indices.shape() + " take a scalar update, got shape "
                    + updates.shape());
        }
        int k = indices.shape().dim(-1);
        int n = single ? 1 : indices.shape().dim(0);
        int[] ax;
        if (axes == null) {
            ax = new int[Math.min(k, target.rank())];
            for (int i = 0; i < ax.length; i++) ax[i] = i;
        } else {
            ax = target.shape().normalizeAxes(op, axes);
        }
        if (ax.length != k || k > target.rank()) {
            throw new JBurnException(op, "expected the last axis of indices " + indices.shape() + " (" + k
                    + ") to match the number of indexed axes " + ShapeOps.str(ax) + " of target shape " + target.shape());
        }
        Shape idxShape = Shape.of(n, k);
        boolean[] indexed = new boolean[target.rank()];
        for (int a : ax) indexed[a] = true;
        int[] upd = new int[1 + target.rank() - k];
        upd[0] = n;
        for (int i = 0, j = 1; i < target.rank(); i++) if (!indexed[i]) upd[j++] = target.shape().dim(i);
        Shape updShape = Shape.of(upd);
        if (!single) {
            if (updates.rank() < 1 || updates.shape().dim(0) != n) {
                throw new JBurnException(op, "expected the leading axis of indices " + indices.shape()
                        + " and leading axis of updates " + updates.shape() + " to match");
            }
            if (!updates.shape().equals(updShape)) {
                throw new JBurnException(op, "expected updates of shape " + updShape + " for indices " + indices.shape()
                        + " into target " + target.shape() + " on axes " + ShapeOps.str(ax) + ", got " + updates.shape());
            }
        } else if (upd.length != 1) {
            throw new JBurnException(op, "rank 1 indices " + indices.shape() + " must address every axis of target shape "
                    + target.shape());
        }
        DType type = DType.merge(target.dtype(), updates.dtype());
        try (Tensor tc = target.asType(type); Tensor uc0 = updates.asType(type); Tensor uc = uc0.reshape(updShape);
             Tensor ic = indices.reshape(idxShape)) {
            if (n == 0) return tc.reshape(target.shape());
            return Tensor.wrap(target.engine(),
                    target.backend().indexedUpdate(tc.operand(), ic.operand(), uc.operand(), ax, accumulate),
                    type, target.shape());
        } catch (JBurnException e) {
            throw Args.renamed(e, op);
        }
    }
}
