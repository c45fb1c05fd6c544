package dev.jburn;

import java.util.Arrays;
import java.util.Objects;

/**
 * Options of {@link Tensor#conv(Tensor, ConvOptions)} and {@link Tensor#convTranspose(Tensor, ConvOptions)},
 * as Nx's {@code conv}. Per-spatial-axis arrays of length 1 apply to every spatial axis (Nx's
 * integer form). A {@code null} permutation is the identity (channels first). Immutable.
 *
 * <pre>{@code
 * // 3×3 convolution, stride 2, same padding, NHWC input and output, OIHW kernel
 * ConvOptions o = ConvOptions.defaults().withStrides(2).withPadding(Padding.SAME)
 *         .withInputPermutation(ConvOptions.channelsLast(4))
 *         .withOutputPermutation(ConvOptions.channelsLast(4));
 * Tensor y = x.conv(kernel, o);
 * }</pre>
 *
 * @param strides            output stride per spatial axis (each ≥ 1); default {@code {1}}
 * @param padding            {@link Padding#VALID} (default), {@link Padding#SAME}, or one {@code (lo, hi)} pair per
 *                           spatial axis, applied after input dilation; negative amounts crop
 * @param inputDilation      input dilation per spatial axis (each ≥ 1): {@code d - 1} zeros between input elements
 * @param kernelDilation     kernel dilation per spatial axis (each ≥ 1)
 * @param featureGroupSize   number of channel groups (grouped and depthwise convolution); default 1
 * @param batchGroupSize     number of batch groups; default 1; at most one of the two group sizes exceeds 1
 * @param inputPermutation   {@code inputPermutation[i]} is the input axis playing canonical role {@code i}
 *                           (batch, channel, spatial...); {@code null} for the identity
 * @param kernelPermutation  {@code kernelPermutation[i]} is the kernel axis playing role {@code i}
 *                           (output channel, input channel, spatial...); {@code null} for the identity
 * @param outputPermutation  {@code outputPermutation[i]} is the output position of canonical output axis {@code i}
 *                           (batch, channel, spatial...); {@code null} for the identity
 * @param outputPadding      {@link Tensor#convTranspose} only: extra size added after each spatial axis of the
 *                           result (each in {@code [0, stride)}); default {@code {0}}
 */
public record ConvOptions(int[] strides, Padding padding, int[] inputDilation, int[] kernelDilation,
                          int featureGroupSize, int batchGroupSize,
                          int[] inputPermutation, int[] kernelPermutation, int[] outputPermutation,
                          int[] outputPadding) {
    private static final int[] ONE = {1};
    private static final ConvOptions DEFAULTS =
            new ConvOptions(ONE, Padding.VALID, ONE, ONE, 1, 1, null, null, null, new int[] {0});

    public ConvOptions {
        Args.nonNull("conv", "padding", padding);
        strides = atLeast("strides", strides, 1);
        inputDilation = atLeast("input dilation", inputDilation, 1);
        kernelDilation = atLeast("kernel dilation", kernelDilation, 1);
        outputPadding = atLeast("output padding", outputPadding, 0);
        if (featureGroupSize < 1) throw new JBurnException("conv", "feature_group_size must be positive, got " + featureGroupSize);
        if (batchGroupSize < 1) throw new JBurnException("conv", "batch_group_size must be positive, got " + batchGroupSize);
        inputPermutation = inputPermutation == null ? null : inputPermutation.clone();
        kernelPermutation = kernelPermutation == null ? null : kernelPermutation.clone();
        outputPermutation = outputPermutation == null ? null : outputPermutation.clone();
    }

    private static int[] atLeast(String what, int[] values, int min) {
        Args.nonNull("conv", what, values);
        if (values.length == 0) throw new JBurnException("conv", what + " must not be empty");
        for (int v : values) {
            if (v < min) {
                throw new JBurnException("conv", what + " of each dimension must be " + (min == 1 ? "a positive" : "a non-negative")
                        + " integer, got " + Arrays.toString(values));
            }
        }
        return values.clone();
    }

    /** Strides 1, {@link Padding#VALID}, no dilation, no groups, channels-first layouts. */
    public static ConvOptions defaults() { return DEFAULTS; }

    /**
     * The channels-last permutation for a tensor of {@code rank}: {@code [0, rank-1, 1, ..., rank-2]}
     * ({@code [0, 3, 1, 2]} for NHWC). Use it as the input and output permutation.
     */
    public static int[] channelsLast(int rank) {
        checkLayoutRank(rank);
        int[] p = new int[rank];
        p[1] = rank - 1;
        for (int i = 2; i < rank; i++) p[i] = i - 1;
        return p;
    }

    /**
     * The kernel permutation for a spatial-first kernel {@code [k..., in, out]} (HWIO) of {@code rank}:
     * {@code [rank-1, rank-2, 0, ..., rank-3]}.
     */
    public static int[] kernelSpatialFirst(int rank) {
        checkLayoutRank(rank);
        int[] p = new int[rank];
        p[0] = rank - 1;
        p[1] = rank - 2;
        for (int i = 2; i < rank; i++) p[i] = i - 2;
        return p;
    }

    private static void checkLayoutRank(int rank) {
        if (rank < 3 || rank > Shape.MAX_RANK) {
            throw new JBurnException("conv", "a conv layout needs a rank in [3, " + Shape.MAX_RANK + "], got " + rank);
        }
    }

    public ConvOptions withStrides(int... s) {
        return new ConvOptions(s, padding, inputDilation, kernelDilation, featureGroupSize, batchGroupSize,
                inputPermutation, kernelPermutation, outputPermutation, outputPadding);
    }

    public ConvOptions withPadding(Padding p) {
        return new ConvOptions(strides, p, inputDilation, kernelDilation, featureGroupSize, batchGroupSize,
                inputPermutation, kernelPermutation, outputPermutation, outputPadding);
    }

    public ConvOptions withInputDilation(int... d) {
        return new ConvOptions(strides, padding, d, kernelDilation, featureGroupSize, batchGroupSize,
                inputPermutation, kernelPermutation, outputPermutation, outputPadding);
    }

    public ConvOptions withKernelDilation(int... d) {
        return new ConvOptions(strides, padding, inputDilation, d, featureGroupSize, batchGroupSize,
                inputPermutation, kernelPermutation, outputPermutation, outputPadding);
    }

    public ConvOptions withFeatureGroupSize(int g) {
        return new ConvOptions(strides, padding, inputDilation, kernelDilation, g, batchGroupSize,
                inputPermutation, kernelPermutation, outputPermutation, outputPadding);
    }

    public ConvOptions withBatchGroupSize(int g) {
        return new ConvOptions(strides, padding, inputDilation, kernelDilation, featureGroupSize, g,
                inputPermutation, kernelPermutation, outputPermutation, outputPadding);
    }

    public ConvOptions withInputPermutation(int... p) {
        return new ConvOptions(strides, padding, inputDilation, kernelDilation, featureGroupSize, batchGroupSize,
                p, kernelPermutation, outputPermutation, outputPadding);
    }

    public ConvOptions withKernelPermutation(int... p) {
        return new ConvOptions(strides, padding, inputDilation, kernelDilation, featureGroupSize, batchGroupSize,
                inputPermutation, p, outputPermutation, outputPadding);
    }

    public ConvOptions withOutputPermutation(int... p) {
        return new ConvOptions(strides, padding, inputDilation, kernelDilation, featureGroupSize, batchGroupSize,
                inputPermutation, kernelPermutation, p, outputPadding);
    }

    public ConvOptions withOutputPadding(int... p) {
        return new ConvOptions(strides, padding, inputDilation, kernelDilation, featureGroupSize, batchGroupSize,
                inputPermutation, kernelPermutation, outputPermutation, p);
    }

    @Override public int[] strides() { return strides.clone(); }

    @Override public int[] inputDilation() { return inputDilation.clone(); }

    @Override public int[] kernelDilation() { return kernelDilation.clone(); }

    @Override public int[] outputPadding() { return outputPadding.clone(); }

    @Override public int[] inputPermutation() { return inputPermutation == null ? null : inputPermutation.clone(); }

    @Override public int[] kernelPermutation() { return kernelPermutation == null ? null : kernelPermutation.clone(); }

    @Override public int[] outputPermutation() { return outputPermutation == null ? null : outputPermutation.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConvOptions c && Arrays.equals(c.strides, strides) && c.padding.equals(padding)
                && Arrays.equals(c.inputDilation, inputDilation) && Arrays.equals(c.kernelDilation, kernelDilation)
                && c.featureGroupSize == featureGroupSize && c.batchGroupSize == batchGroupSize
                && Arrays.equals(c.inputPermutation, inputPermutation) && Arrays.equals(c.kernelPermutation, kernelPermutation)
                && Arrays.equals(c.outputPermutation, outputPermutation) && Arrays.equals(c.outputPadding, outputPadding);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(strides), padding, Arrays.hashCode(inputDilation), Arrays.hashCode(kernelDilation),
                featureGroupSize, batchGroupSize, Arrays.hashCode(inputPermutation), Arrays.hashCode(kernelPermutation),
                Arrays.hashCode(outputPermutation), Arrays.hashCode(outputPadding));
    }

    @Override
    public String toString() {
        return "ConvOptions[strides=" + Arrays.toString(strides) + ", padding=" + padding + ", inputDilation="
                + Arrays.toString(inputDilation) + ", kernelDilation=" + Arrays.toString(kernelDilation)
                + ", featureGroupSize=" + featureGroupSize + ", batchGroupSize=" + batchGroupSize
                + ", inputPermutation=" + Arrays.toString(inputPermutation) + ", kernelPermutation="
                + Arrays.toString(kernelPermutation) + ", outputPermutation=" + Arrays.toString(outputPermutation)
                + ", outputPadding=" + Arrays.toString(outputPadding) + "]";
    }
}
