package dev.jburn;

import dev.jburn.op.SortOp;

/**
 * Front end of sorting: stable {@code sort}/{@code argsort} along one axis (NaN larger than
 * everything, {@code -0.0} equal to {@code 0.0}) and {@code topK} on the last axis.
 */
final class SortOps {
    private SortOps() {}

    static Tensor sort(Tensor x, int axis, boolean descending) {
        int a = x.shape().normalizeAxis(SortOp.SORT.opName(), axis);
        return Tensor.wrap(x.engine(), x.backend().sort(x.operand(), a, descending), x.dtype(), x.shape());
    }

    static Tensor argsort(Tensor x, int axis, boolean descending) {
        int a = x.shape().normalizeAxis(SortOp.ARGSORT.opName(), axis);
        return Tensor.wrap(x.engine(), x.backend().argsort(x.operand(), a, descending, DType.S32), DType.S32, x.shape());
    }

    /**
     * The {@code k} largest elements along the last axis, descending, NaN first, with their S32
     * indices; equal values keep their original order. Built from a descending sort and argsort
     * (both stable, so they agree) and a slice of the first {@code k}.
     */
    static TopK topK(Tensor x, int k) {
        String name = SortOp.TOP_K.opName();
        Shape s = x.shape();
        if (s.rank() == 0) throw new JBurnException(name, "top_k needs a tensor of rank at least 1, got a scalar");
        int last = s.rank() - 1;
        int size = s.dim(last);
        if (k < 0) throw new JBurnException(name, "k must be non-negative, got k=" + k + " for shape " + s);
        if (k > size) {
            throw new JBurnException(name, "top_k input last axis size must be greater than or equal to k, got size="
                    + size + " and k=" + k + " (shape " + s + ")");
        }
        int[] starts = new int[s.rank()];
        int[] lengths = s.dims();
        lengths[last] = k;
        int[] strides = new int[s.rank()];
        java.util.Arrays.fill(strides, 1);
        Shape outShape = s.withDim(last, k);
        try (Tensor sorted = sort(x, last, true); Tensor order = argsort(x, last, true)) {
            Tensor values = Tensor.wrap(x.engine(), x.backend().slice(sorted.operand(), starts, lengths, strides), x.dtype(), outShape);
            try {
                Tensor indices = Tensor.wrap(x.engine(), x.backend().slice(order.operand(), starts, lengths, strides), DType.S32, outShape);
                return new TopK(values, indices);
            } catch (RuntimeException e) {
                values.close();
                throw e;
            }
        }
    }
}
