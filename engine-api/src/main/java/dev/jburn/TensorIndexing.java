package dev.jburn;

/**
 * Indexing ops and the dot product on a {@link Tensor}.
 * Implemented only by {@link Tensor}; call these methods on a tensor.
 */
public sealed interface TensorIndexing permits Tensor {
    private Tensor self() { return (Tensor) this; }

    /** {@link #take(Tensor, int)} along axis 0: {@code [[1,2],[3,4]].take([1,0,1])} is {@code [[3,4],[1,2],[3,4]]}. */
    default Tensor take(Tensor indices) {
        Args.nonNull("take", "indices", indices);
        return IndexOps.take(self(), indices, 0);
    }

    /** Picks slices along {@code axis} by integer {@code indices}; that axis is replaced by {@code indices.shape()}. */
    default Tensor take(Tensor indices, int axis) {
        Args.nonNull("take", "indices", indices);
        return IndexOps.take(self(), indices, axis);
    }

    /**
     * Picks elements along {@code axis}: {@code indices} has this rank and equal sizes on the other axes; the output has its shape.
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}}).takeAlongAxis(Tensor.of(new int[][] {{2, 0}, {1, 1}}), 1);   // [[3,1],[5,5]]
     * }</pre>
     */
    default Tensor takeAlongAxis(Tensor indices, int axis) {
        Args.nonNull("takeAlongAxis", "indices", indices);
        return IndexOps.takeAlongAxis(self(), indices, axis);
    }

    /**
     * Nx gather: {@code indices} has shape {@code [..., k]}; each row addresses the leading {@code k} axes;
     * the output shape is {@code indices.shape[:-1] ++ (remaining axes)}.
     * {@code [[1,2],[3,4]].gather([[1,1],[0,1],[1,0]])} is {@code [4,2,3]}.
     */
    default Tensor gather(Tensor indices) {
        Args.nonNull("gather", "indices", indices);
        return IndexOps.gather(self(), indices);
    }

    /** Nx gather over the given {@code axes} ({@code indices.shape[-1] == axes.length}). */
    default Tensor gather(Tensor indices, int[] axes) {
        Args.nonNull("gather", "indices", indices);
        Args.nonNull("gather", "axes", axes);
        return IndexOps.gather(self(), indices, axes);
    }

    /**
     * Adds {@code updates} ({@code [n, ...remaining axes]}) at the {@code n} positions in {@code indices}
     * ({@code [n, k]}, addressing the leading {@code k} axes); duplicates sum; the type is {@code merge(this, updates)}.
     * A rank-1 {@code indices} of length rank with a scalar update is accepted too.
     */
    default Tensor indexedAdd(Tensor indices, Tensor updates) {
        Args.nonNull("indexedAdd", "indices", indices);
        Args.nonNull("indexedAdd", "updates", updates);
        return IndexOps.indexedUpdate(self(), indices, updates, null, true);
    }

    /** {@link #indexedAdd(Tensor, Tensor)} over the given {@code axes}. */
    default Tensor indexedAdd(Tensor indices, Tensor updates, int[] axes) {
        Args.nonNull("indexedAdd", "indices", indices);
        Args.nonNull("indexedAdd", "updates", updates);
        Args.nonNull("indexedAdd", "axes", axes);
        return IndexOps.indexedUpdate(self(), indices, updates, axes, true);
    }

    /** Like {@link #indexedAdd(Tensor, Tensor)} but writes; with duplicate indices the last write wins. */
    default Tensor indexedPut(Tensor indices, Tensor updates) {
        Args.nonNull("indexedPut", "indices", indices);
        Args.nonNull("indexedPut", "updates", updates);
        return IndexOps.indexedUpdate(self(), indices, updates, null, false);
    }

    /** {@link #indexedPut(Tensor, Tensor)} over the given {@code axes}. */
    default Tensor indexedPut(Tensor indices, Tensor updates, int[] axes) {
        Args.nonNull("indexedPut", "indices", indices);
        Args.nonNull("indexedPut", "updates", updates);
        Args.nonNull("indexedPut", "axes", axes);
        return IndexOps.indexedUpdate(self(), indices, updates, axes, false);
    }

    /**
     * Nx dot/2: a scalar multiplies; otherwise this tensor's last axis is contracted with {@code other}'s only
     * axis (rank 1) or its second-to-last. The type is {@code merge(this, other)}, not widened.
     *
     * <pre>{@code
     * Tensor.of(new float[][] {{1, 2}, {3, 4}}).dot(Tensor.of(1f, 1f));   // [3.0, 7.0]
     * }</pre>
     */
    default Tensor dot(Tensor other) {
        Args.nonNull("dot", "other", other);
        return DotOps.dot(self(), other);
    }

    /**
     * Matrix product with numpy's {@code matmul} rules: for ranks up to 2 it is {@link #dot(Tensor)};
     * beyond, the last two axes multiply as matrices and the leading (batch) axes broadcast:
     * {@code [b, m, k]} times {@code [k, n]} is {@code [b, m, n]}.
     * <pre>{@code a.matmul(b);   // [2, 3, 4] x [2, 4, 5] -> [2, 3, 5]}</pre>
     */
    default Tensor matmul(Tensor other) {
        Args.nonNull("matmul", "other", other);
        try {
            return DotOps.matmul(self(), other);
        } catch (JBurnException e) {
            throw Args.renamed(e, "matmul");
        }
    }

    /**
     * General dot (Nx dot/6): contracts {@code contractA} of this with {@code contractB} of {@code b} pairwise;
     * batch axes must be the leading {@code [0..k-1]} on both. Output: batch dims, this tensor's free axes, b's free axes.
     */
    default Tensor dot(int[] contractA, int[] batchA, Tensor b, int[] contractB, int[] batchB) {
        Args.nonNull("dot", "contractA", contractA);
        Args.nonNull("dot", "batchA", batchA);
        Args.nonNull("dot", "b", b);
        Args.nonNull("dot", "contractB", contractB);
        Args.nonNull("dot", "batchB", batchB);
        return DotOps.dot(self(), contractA, batchA, b, contractB, batchB);
    }
}
