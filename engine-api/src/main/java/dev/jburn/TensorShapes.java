package dev.jburn;

/**
 * Movement ops on a {@link Tensor}: transpose, broadcast, squeeze, slices, padding, reversal and tiling.
 * Implemented only by {@link Tensor}; call these methods on a tensor.
 */
public sealed interface TensorShapes permits Tensor {
    private Tensor self() { return (Tensor) this; }

    /** Reverses the order of the axes: {@code [2,3,4] -> [4,3,2]}. */
    default Tensor transpose() { return ShapeOps.transpose(self()); }

    /**
     * Permutes the axes: output axis {@code i} is input axis {@code perm[i]} (negative axes count from the end).
     *
     * <pre>{@code
     * Tensor.zeros(Shape.of(2, 3, 4), DType.F32).transpose(1, 0, 2).shape();   // [3, 2, 4]
     * }</pre>
     */
    default Tensor transpose(int... perm) {
        Args.nonNull("transpose", "perm", perm);
        return ShapeOps.transpose(self(), perm);
    }

    /** NumPy broadcasting to {@code shape}: align on the right; each axis must be 1 or equal. {@code [3] -> [2,3]}. */
    default Tensor broadcast(Shape shape) {
        Args.nonNull("broadcast", "shape", shape);
        shape.requireConcrete("broadcast");
        return ShapeOps.broadcast(self(), shape);
    }

    /**
     * Broadcasting with explicit axes (Nx): input axis {@code i} becomes output axis {@code axes[i]} (increasing);
     * its size must be 1 or equal. {@code Tensor.of(1, 2).broadcast(Shape.of(2, 3), new int[] {0})} is {@code [[1,1,1],[2,2,2]]}.
     */
    default Tensor broadcast(Shape shape, int[] axes) {
        Args.nonNull("broadcast", "shape", shape);
        Args.nonNull("broadcast", "axes", axes);
        shape.requireConcrete("broadcast");
        return ShapeOps.broadcast(self(), shape, axes);
    }

    /**
     * The elements as a vector, row-major (numpy's {@code flatten}); shares memory. A scalar gives a one-element vector.
     * <pre>{@code Tensor.of(new int[][] {{1, 2}, {3, 4}}).flatten();   // s32[4] [1, 2, 3, 4]}</pre>
     */
    default Tensor flatten() {
        Tensor t = self();
        if (t.size() > Integer.MAX_VALUE) throw new JBurnException("flatten", "a vector holds at most 2^31-1 elements, the shape " + t.shape() + " has " + t.size());
        return t.reshape(Shape.of((int) t.size()));
    }

    /** Removes every axis of size 1. Shares memory. */
    default Tensor squeeze() { return ShapeOps.squeeze(self()); }

    /** Removes the given axes, each of which must have size 1. Shares memory. */
    default Tensor squeeze(int... axes) {
        Args.nonNull("squeeze", "axes", axes);
        return ShapeOps.squeeze(self(), axes);
    }

    /** Inserts an axis of size 1 at {@code axis} in {@code [-rank-1, rank]}; {@code -1} appends: {@code [2,3] -> [2,3,1]}. */
    default Tensor newAxis(int axis) { return ShapeOps.newAxis(self(), axis); }

    /**
     * The block starting at {@code starts} of extent {@code lengths} (Nx: each start is clamped into
     * {@code [0, dim - length]}; {@code 1 <= length <= dim}, or 0 on an empty axis).
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}).slice(new int[] {2, 2}, new int[] {2, 2});   // [[4,5],[7,8]]
     * }</pre>
     */
    default Tensor slice(int[] starts, int[] lengths) {
        Args.nonNull("slice", "starts", starts);
        Args.nonNull("slice", "lengths", lengths);
        return ShapeOps.slice(self(), starts, lengths);
    }

    /** Strided slice: per axis {@code ceil(length / stride)} elements, {@code start, start + stride, ...}. */
    default Tensor slice(int[] starts, int[] lengths, int[] strides) {
        Args.nonNull("slice", "starts", starts);
        Args.nonNull("slice", "lengths", lengths);
        Args.nonNull("slice", "strides", strides);
        return ShapeOps.slice(self(), starts, lengths, strides);
    }

    /**
     * This tensor with {@code update} written at {@code starts}, clamped so the update fits; the type is
     * {@code merge(this, update)}. {@code [[1,2,3],[4,5,6]].putSlice({1,1}, [[7,8],[9,10]])} is {@code [[1,7,8],[4,9,10]]}.
     */
    default Tensor putSlice(int[] starts, Tensor update) {
        Args.nonNull("putSlice", "starts", starts);
        Args.nonNull("putSlice", "update", update);
        return ShapeOps.putSlice(self(), starts, update);
    }

    /**
     * Pads with an integer {@code value} (weakly typed, so a u8 tensor padded with 0 stays u8);
     * {@code config[i] = {lo, hi, interior}}: negative lo/hi crop after interior padding.
     *
     * <pre>{@code
     * Tensor.of(1, 2, 3).pad(0, new int[][] {{1, 1, 0}});   // [0, 1, 2, 3, 0]
     * }</pre>
     */
    default Tensor pad(long value, int[][] config) {
        Args.nonNull("pad", "config", config);
        return ShapeOps.pad(self(), value, config);
    }

    /** Pads with a floating-point {@code value} (weakly typed: integer tensors become F32). See {@link #pad(long, int[][])}. */
    default Tensor pad(double value, int[][] config) {
        Args.nonNull("pad", "config", config);
        return ShapeOps.pad(self(), value, config);
    }

    /** Pads with a scalar tensor {@code value}; the type is {@code merge(this, value)}. See {@link #pad(long, int[][])}. */
    default Tensor pad(Tensor value, int[][] config) {
        Args.nonNull("pad", "value", value);
        Args.nonNull("pad", "config", config);
        return ShapeOps.pad(self(), value, config);
    }

    /** Reverses every axis: {@code [[1,2,3],[4,5,6]] -> [[6,5,4],[3,2,1]]}. */
    default Tensor reverse() { return ShapeOps.reverse(self()); }

    /** Reverses the given axes. */
    default Tensor reverse(int... axes) {
        Args.nonNull("reverse", "axes", axes);
        return ShapeOps.reverse(self(), axes);
    }

    /**
     * Repeats the tensor {@code reps[i]} times along each axis (Nx: a short {@code reps} is left-padded
     * with 1s; a long one adds leading axes). {@code [[1,2],[3,4]].tile(2)} is {@code [[1,2,1,2],[3,4,3,4]]}.
     */
    default Tensor tile(int... reps) {
        Args.nonNull("tile", "reps", reps);
        return ShapeOps.tile(self(), reps);
    }
}
