package dev.jburn;

/**
 * Reductions, arg reductions, scans, sorting and top-k on a {@link Tensor}.
 * Implemented only by {@link Tensor}; call these methods on a tensor.
 */
public sealed interface TensorReductions permits Tensor {
    private Tensor self() { return (Tensor) this; }

    // Reductions take their axes as varargs, as numpy and PyTorch users expect: x.sum(1),
    // x.max(0, 1), x.mean(-1). The element-wise forms are named maximum/minimum (numpy's names),
    // so that x.max(1) cannot mean "the larger of x and 1".

    /**
     * Sum of every element, as a scalar: s8/s16/s32 give S32, u8/u16/u32/PRED give U32, u64 gives S64,
     * floats keep their type (F16/BF16 accumulate in F32); an empty tensor sums to 0.
     * <pre>{@code Tensor.of(new int[][] {{1, 2}, {3, 4}}).sum();   // s32 10}</pre>
     */
    default Tensor sum() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.SUM, self(), null, false); }

    /**
     * Sum over {@code axes} (negative axes count from the end), which are removed.
     * <pre>{@code x.sum(1);   x.sum(0, 1);   x.sum(-1);}</pre>
     */
    default Tensor sum(int... axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.SUM, self(), axes, false);
    }

    /** Sum over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor sum(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.SUM, self(), axes, keepAxes);
    }

    /** Product of every element, with the output types of {@link #sum()}; an empty tensor gives 1. */
    default Tensor product() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.PRODUCT, self(), null, false); }

    /** Product over {@code axes} (negative axes count from the end), which are removed. */
    default Tensor product(int... axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.PRODUCT, self(), axes, false);
    }

    /** Product over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor product(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.PRODUCT, self(), axes, keepAxes);
    }

    /**
     * Largest element, in the input type; NaN propagates; an empty tensor gives -Inf (floats) or the type minimum.
     * <pre>{@code Tensor.of(1f, Float.NaN).max();   // NaN}</pre>
     */
    default Tensor max() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MAX, self(), null, false); }

    /** Maximum over {@code axes} (negative axes count from the end), which are removed. */
    default Tensor max(int... axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MAX, self(), axes, false);
    }

    /** Maximum over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor max(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MAX, self(), axes, keepAxes);
    }

    /** Smallest element, in the input type; NaN propagates; an empty tensor gives +Inf (floats) or the type maximum. */
    default Tensor min() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MIN, self(), null, false); }

    /** Minimum over {@code axes} (negative axes count from the end), which are removed. */
    default Tensor min(int... axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MIN, self(), axes, false);
    }

    /** Minimum over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor min(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MIN, self(), axes, keepAxes);
    }

    /** Whether every element is non-zero (NaN counts as non-zero), as a PRED scalar; true when empty. */
    default Tensor all() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.ALL, self(), null, false); }

    /** Logical and over {@code axes} (negative axes count from the end), which are removed. */
    default Tensor all(int... axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ALL, self(), axes, false);
    }

    /** Logical and over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor all(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ALL, self(), axes, keepAxes);
    }

    /** Whether some element is non-zero (NaN counts as non-zero), as a PRED scalar; false when empty. */
    default Tensor any() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.ANY, self(), null, false); }

    /** Logical or over {@code axes} (negative axes count from the end), which are removed. */
    default Tensor any(int... axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ANY, self(), axes, false);
    }

    /** Logical or over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor any(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ANY, self(), axes, keepAxes);
    }

    /** Mean of every element: F32 for integer inputs, float types kept. <pre>{@code Tensor.of(1, 2, 3).mean();   // f32 2.0}</pre> */
    default Tensor mean() { return ReductionOps.mean(self(), null, false); }

    /** Mean over {@code axes}, which are removed. */
    default Tensor mean(int... axes) {
        return ReductionOps.mean(self(), axes, false);
    }

    /** Mean over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor mean(int[] axes, boolean keepAxes) {
        return ReductionOps.mean(self(), axes, keepAxes);
    }

    /** {@code log(sum(exp(x)))} over every axis, computed stably (shifted by the maximum); a float scalar. */
    default Tensor logSumExp() { return ReductionOps.logSumExp(self(), null, false); }

    /** {@code log(sum(exp(x)))} over {@code axes}, which are removed. */
    default Tensor logSumExp(int... axes) {
        return ReductionOps.logSumExp(self(), axes, false);
    }

    /** {@code log(sum(exp(x)))} over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    default Tensor logSumExp(int[] axes, boolean keepAxes) {
        return ReductionOps.logSumExp(self(), axes, keepAxes);
    }

    /**
     * S32 index of the largest element in the row-major flattened tensor; NaN beats every number.
     * <pre>{@code Tensor.of(3, 9, 9).argmax();   // s32 1}</pre>
     */
    default Tensor argmax() { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMAX, self(), null, false, false); }

    /** S32 indices of the largest elements along {@code axis} (removed); ties pick the first. */
    default Tensor argmax(int axis) { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMAX, self(), axis, false, false); }

    /**
     * S32 indices of the largest elements along {@code axis}; {@code keepAxis} keeps it as size 1,
     * {@code tieBreakHigh} picks the last of equal values. NaN beats every number, and of several
     * NaN the last is chosen whatever the tie break (as Nx).
     */
    default Tensor argmax(int axis, boolean keepAxis, boolean tieBreakHigh) {
        return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMAX, self(), axis, keepAxis, tieBreakHigh);
    }

    /** S32 index of the smallest element in the row-major flattened tensor; NaN beats every number. */
    default Tensor argmin() { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMIN, self(), null, false, false); }

    /** S32 indices of the smallest elements along {@code axis} (removed); ties pick the first. */
    default Tensor argmin(int axis) { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMIN, self(), axis, false, false); }

    /** As {@link #argmax(int, boolean, boolean)}, for the smallest elements (NaN still wins). */
    default Tensor argmin(int axis, boolean keepAxis, boolean tieBreakHigh) {
        return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMIN, self(), axis, keepAxis, tieBreakHigh);
    }

    /** Running sum in the input type (PRED counts in U8) along axis 0.
     * <pre>{@code Tensor.of(1, 2, 3, 4).cumulativeSum();   // [1, 3, 6, 10]}</pre> */
    default Tensor cumulativeSum() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, self(), 0, false); }

    /** Running sum in the input type (PRED counts in U8) along {@code axis}. */
    default Tensor cumulativeSum(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, self(), axis, false); }

    /** Running sum in the input type (PRED counts in U8) along {@code axis}; {@code reverse} accumulates from the end. */
    default Tensor cumulativeSum(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, self(), axis, reverse); }

    /** Running product in the input type (PRED in U8) along axis 0. */
    default Tensor cumulativeProduct() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_PRODUCT, self(), 0, false); }

    /** Running product in the input type (PRED in U8) along {@code axis}. */
    default Tensor cumulativeProduct(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_PRODUCT, self(), axis, false); }

    /** Running product in the input type (PRED in U8) along {@code axis}; {@code reverse} accumulates from the end. */
    default Tensor cumulativeProduct(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_PRODUCT, self(), axis, reverse); }

    /** Running maximum (NaN propagates) along axis 0. */
    default Tensor cumulativeMax() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MAX, self(), 0, false); }

    /** Running maximum (NaN propagates) along {@code axis}. */
    default Tensor cumulativeMax(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MAX, self(), axis, false); }

    /** Running maximum (NaN propagates) along {@code axis}; {@code reverse} accumulates from the end. */
    default Tensor cumulativeMax(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MAX, self(), axis, reverse); }

    /** Running minimum (NaN propagates) along axis 0. */
    default Tensor cumulativeMin() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MIN, self(), 0, false); }

    /** Running minimum (NaN propagates) along {@code axis}. */
    default Tensor cumulativeMin(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MIN, self(), axis, false); }

    /** Running minimum (NaN propagates) along {@code axis}; {@code reverse} accumulates from the end. */
    default Tensor cumulativeMin(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MIN, self(), axis, reverse); }

    // ---- sorting (SortOps) ----

    /**
     * Stable ascending sort along axis 0; NaN sorts last, {@code -0.0} and {@code 0.0} are equal.
     * <pre>{@code Tensor.of(Float.NaN, Float.NEGATIVE_INFINITY, 0f).sort();   // [-Inf, 0.0, NaN]}</pre>
     */
    default Tensor sort() { return SortOps.sort(self(), 0, false); }

    /** Stable ascending sort along {@code axis}. */
    default Tensor sort(int axis) { return SortOps.sort(self(), axis, false); }

    /** Stable sort along {@code axis}; descending puts NaN first and keeps equal values in their order. */
    default Tensor sort(int axis, boolean descending) { return SortOps.sort(self(), axis, descending); }

    /** S32 positions that sort axis 0 ascending (stable). */
    default Tensor argsort() { return SortOps.argsort(self(), 0, false); }

    /** S32 positions that sort {@code axis} ascending (stable). */
    default Tensor argsort(int axis) { return SortOps.argsort(self(), axis, false); }

    /** S32 positions that sort {@code axis} (stable; NaN last ascending, first descending). */
    default Tensor argsort(int axis, boolean descending) { return SortOps.argsort(self(), axis, descending); }

    /**
     * The {@code k} largest elements along the last axis, descending (NaN first), with their S32
     * indices; {@code k} may not exceed the axis size.
     * <pre>{@code try (TopK t = Tensor.of(1f, 5f, 3f).topK(2)) { t.values(); t.indices(); }   // [5, 3], [1, 2]}</pre>
     */
    default TopK topK(int k) { return SortOps.topK(self(), k); }
}
