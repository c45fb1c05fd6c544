package dev.jburn;

/**
 * Window reductions (pooling), window scatters and convolution on a {@link Tensor}.
 * Implemented only by {@link Tensor}; call these methods on a tensor.
 */
public sealed interface TensorWindows permits Tensor {
    private Tensor self() { return (Tensor) this; }

    /**
     * Sums over sliding windows of {@code windowDims} (one size per axis; 1 leaves an axis alone), stride 1,
     * no padding. The type is the input type (PRED counts in U8).
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}}).reshape(1, 2, 3).windowSum(new int[] {1, 2, 1});   // [[[5, 7, 9]]]
     * }</pre>
     */
    default Tensor windowSum(int[] windowDims) {
        Args.nonNull("windowSum", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_SUM, self(), windowDims, WindowOptions.defaults());
    }

    /** Sums over windows with strides, padding (identity 0) and window dilations; average pooling is this divided by the window size. */
    default Tensor windowSum(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowSum", "windowDims", windowDims);
        Args.nonNull("windowSum", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_SUM, self(), windowDims, opts);
    }

    /** Products over sliding windows (padding holds 1). */
    default Tensor windowProduct(int[] windowDims) {
        Args.nonNull("windowProduct", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_PRODUCT, self(), windowDims, WindowOptions.defaults());
    }

    /** Products over windows with strides, padding (identity 1) and window dilations. */
    default Tensor windowProduct(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowProduct", "windowDims", windowDims);
        Args.nonNull("windowProduct", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_PRODUCT, self(), windowDims, opts);
    }

    /**
     * Maxima over sliding windows (max pooling); NaN propagates.
     *
     * <pre>{@code
     * Tensor.of(1, 2, 3, 4, 5, 6, 7).windowMax(new int[] {2}, WindowOptions.defaults().withDilations(4));   // [5, 6, 7]
     * }</pre>
     */
    default Tensor windowMax(int[] windowDims) {
        Args.nonNull("windowMax", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MAX, self(), windowDims, WindowOptions.defaults());
    }

    /**
     * Maxima over windows with strides, padding (-Inf or the type minimum) and window dilations.
     *
     * <pre>{@code
     * Tensor.of(1, 2, 3).windowMax(new int[] {2}, WindowOptions.defaults().withPadding(Padding.SAME));   // [2, 3, 3]
     * }</pre>
     */
    default Tensor windowMax(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowMax", "windowDims", windowDims);
        Args.nonNull("windowMax", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MAX, self(), windowDims, opts);
    }

    /** Minima over sliding windows; NaN propagates. */
    default Tensor windowMin(int[] windowDims) {
        Args.nonNull("windowMin", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MIN, self(), windowDims, WindowOptions.defaults());
    }

    /** Minima over windows with strides, padding (+Inf or the type maximum) and window dilations. */
    default Tensor windowMin(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowMin", "windowDims", windowDims);
        Args.nonNull("windowMin", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MIN, self(), windowDims, opts);
    }

    /**
     * Max pooling's gradient: an output of this tensor's shape filled with {@code init}, to which each
     * {@code source} element is added at the position of the maximum of its window in this tensor.
     * {@code source} has the pooled shape; ties go to the last position in row-major window order, a NaN
     * beats every number; padding is never selected; no dilations. The type is {@code merge(source, init)}.
     *
     * <pre>{@code
     * t.windowScatterMax(source, 0, new int[] {2, 3}, WindowOptions.defaults().withStrides(2, 3));
     * }</pre>
     */
    default Tensor windowScatterMax(Tensor source, Tensor init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMax", "source", source);
        Args.nonNull("windowScatterMax", "init", init);
        Args.nonNull("windowScatterMax", "windowDims", windowDims);
        Args.nonNull("windowScatterMax", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, self(), source, init, windowDims, opts);
    }

    /** {@link #windowScatterMax(Tensor, Tensor, int[], WindowOptions)} with a weakly typed integer {@code init}. */
    default Tensor windowScatterMax(Tensor source, long init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMax", "source", source);
        Args.nonNull("windowScatterMax", "windowDims", windowDims);
        Args.nonNull("windowScatterMax", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, self(), source, init, windowDims, opts);
    }

    /** {@link #windowScatterMax(Tensor, Tensor, int[], WindowOptions)} with a weakly typed float {@code init}. */
    default Tensor windowScatterMax(Tensor source, double init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMax", "source", source);
        Args.nonNull("windowScatterMax", "windowDims", windowDims);
        Args.nonNull("windowScatterMax", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, self(), source, init, windowDims, opts);
    }

    /** As {@link #windowScatterMax(Tensor, Tensor, int[], WindowOptions)}, at each window's minimum. */
    default Tensor windowScatterMin(Tensor source, Tensor init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMin", "source", source);
        Args.nonNull("windowScatterMin", "init", init);
        Args.nonNull("windowScatterMin", "windowDims", windowDims);
        Args.nonNull("windowScatterMin", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MIN, self(), source, init, windowDims, opts);
    }

    /** {@link #windowScatterMin(Tensor, Tensor, int[], WindowOptions)} with a weakly typed integer {@code init}. */
    default Tensor windowScatterMin(Tensor source, long init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMin", "source", source);
        Args.nonNull("windowScatterMin", "windowDims", windowDims);
        Args.nonNull("windowScatterMin", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MIN, self(), source, init, windowDims, opts);
    }

    /** {@link #windowScatterMin(Tensor, Tensor, int[], WindowOptions)} with a weakly typed float {@code init}. */
    default Tensor windowScatterMin(Tensor source, double init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMin", "source", source);
        Args.nonNull("windowScatterMin", "windowDims", windowDims);
        Args.nonNull("windowScatterMin", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MIN, self(), source, init, windowDims, opts);
    }

    /**
     * Nx convolution (cross-correlation; the kernel is not flipped) of this input {@code [N, C, s...]} with
     * {@code kernel} {@code [O, C, k...]}, stride 1, no padding: output {@code [N, O, s-k+1...]} of type
     * {@code toFloating(merge(this, kernel))}.
     */
    default Tensor conv(Tensor kernel) {
        Args.nonNull("conv", "kernel", kernel);
        return ConvOps.conv(self(), kernel, ConvOptions.defaults());
    }

    /**
     * Nx convolution with strides, padding (negative crops), input and kernel dilation, feature or batch
     * groups and layouts by permutation (channels last: {@link ConvOptions#channelsLast(int)}).
     *
     * <pre>{@code
     * x.conv(k, ConvOptions.defaults().withStrides(2).withPadding(Padding.SAME).withKernelDilation(2, 1));
     * }</pre>
     */
    default Tensor conv(Tensor kernel, ConvOptions opts) {
        Args.nonNull("conv", "kernel", kernel);
        Args.nonNull("conv", "opts", opts);
        return ConvOps.conv(self(), kernel, opts);
    }

    /** {@link #convTranspose(Tensor, ConvOptions)} with stride 1 and no padding. */
    default Tensor convTranspose(Tensor kernel) {
        Args.nonNull("convTranspose", "kernel", kernel);
        return ConvOps.convTranspose(self(), kernel, ConvOptions.defaults());
    }

    /**
     * Transposed convolution (conv-transpose layers, a conv's gradient with respect to its input): the adjoint
     * of {@code x.conv(kernel, opts)}, so {@code <x.conv(k, o), y> == <x, y.convTranspose(k, o)>}. The kernel
     * keeps the forward conv's layout {@code [C_in of this, C_out/groups, k...]} (PyTorch's weight layout);
     * each output spatial size is {@code (in-1)*stride + k_eff - lo - hi + outputPadding} ({@code in*stride}
     * with {@link Padding#SAME}). Equals PyTorch's {@code conv_transpose2d(y, k, stride, padding, output_padding,
     * groups, dilation)} for symmetric padding. Input dilation and batch groups are refused.
     */
    default Tensor convTranspose(Tensor kernel, ConvOptions opts) {
        Args.nonNull("convTranspose", "kernel", kernel);
        Args.nonNull("convTranspose", "opts", opts);
        return ConvOps.convTranspose(self(), kernel, opts);
    }
}
