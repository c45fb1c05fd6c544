package dev.jburn.spi;

/**
 * A validated convolution in canonical layout: input {@code [N, C, s...]}, kernel
 * {@code [O, C/featureGroups, k...]}, output {@code [N/batchGroups, O, o...]}. Arrays have one
 * entry per spatial axis. The front end has already applied layouts (permutations) and
 * resolved {@code same}/{@code valid} padding.
 *
 * @param strides        output stride per spatial axis (≥ 1)
 * @param padLow         padding before each spatial axis, applied after input dilation; may be negative
 * @param padHigh        padding after each spatial axis; may be negative
 * @param inputDilation  input dilation per spatial axis (≥ 1; > 1 for transposed convolution)
 * @param kernelDilation kernel dilation per spatial axis (≥ 1)
 * @param featureGroups  feature group count (≥ 1)
 * @param batchGroups    batch group count (≥ 1); at most one of the two group counts exceeds 1
 */
public record ConvSpec(int[] strides, int[] padLow, int[] padHigh, int[] inputDilation, int[] kernelDilation,
                       int featureGroups, int batchGroups) {
    /** Number of spatial axes. */
    public int spatialRank() { return strides.length; }
}
