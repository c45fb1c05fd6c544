package dev.jburn;

import java.util.Arrays;
import java.util.Objects;

/**
 * Options of the window ops ({@link Tensor#windowSum(int[], WindowOptions)} and friends):
 * strides, padding and window dilations. A per-axis array of length 1 applies to every axis
 * (Nx's integer form); otherwise it has one entry per axis of the tensor. Immutable.
 *
 * <pre>{@code
 * // 3×3 max pooling with stride 2 over the spatial axes of an NCHW tensor
 * x.windowMax(new int[] {1, 1, 3, 3}, WindowOptions.defaults().withStrides(1, 1, 2, 2).withPadding(Padding.SAME));
 * x.windowSum(new int[] {2}, WindowOptions.defaults().withDilations(3));
 * }</pre>
 *
 * @param strides   step between windows per axis (each ≥ 1); default {@code {1}}
 * @param padding   {@link Padding#VALID} (default), {@link Padding#SAME} or explicit non-negative pairs, one per axis
 * @param dilations distance between window elements per axis (each ≥ 1); default {@code {1}}
 */
public record WindowOptions(int[] strides, Padding padding, int[] dilations) {
    private static final WindowOptions DEFAULTS = new WindowOptions(new int[] {1}, Padding.VALID, new int[] {1});

    public WindowOptions {
        Args.nonNull("window", "padding", padding);
        strides = checked("strides", strides);
        dilations = checked("window dilations", dilations);
    }

    private static int[] checked(String what, int[] values) {
        Args.nonNull("window", what, values);
        if (values.length == 0) throw new JBurnException("window", what + " must not be empty");
        for (int v : values) {
            if (v < 1) throw new JBurnException("window", what + " must be positive integers, got " + Arrays.toString(values));
        }
        return values.clone();
    }

    /** Strides 1, {@link Padding#VALID}, dilations 1. */
    public static WindowOptions defaults() { return DEFAULTS; }

    /** Strides per axis, or one stride for every axis. */
    public WindowOptions withStrides(int... s) { return new WindowOptions(s, padding, dilations); }

    /** The padding. */
    public WindowOptions withPadding(Padding p) { return new WindowOptions(strides, p, dilations); }

    /** Window dilations per axis, or one for every axis. */
    public WindowOptions withDilations(int... d) { return new WindowOptions(strides, padding, d); }

    @Override public int[] strides() { return strides.clone(); }

    @Override public int[] dilations() { return dilations.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof WindowOptions w && Arrays.equals(w.strides, strides) && w.padding.equals(padding)
                && Arrays.equals(w.dilations, dilations);
    }

    @Override
    public int hashCode() { return Objects.hash(Arrays.hashCode(strides), padding, Arrays.hashCode(dilations)); }

    @Override
    public String toString() {
        return "WindowOptions[strides=" + Arrays.toString(strides) + ", padding=" + padding + ", dilations="
                + Arrays.toString(dilations) + "]";
    }
}
