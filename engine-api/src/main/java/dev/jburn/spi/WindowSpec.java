package dev.jburn.spi;

/**
 * A validated window over every axis of the operand (window size 1 leaves an axis alone).
 *
 * @param dims      window size per axis (≥ 1)
 * @param strides   stride per axis (≥ 1)
 * @param padLow    padding before each axis (≥ 0), filled with the reduction's identity
 * @param padHigh   padding after each axis (≥ 0)
 * @param dilations window dilation per axis (≥ 1)
 */
public record WindowSpec(int[] dims, int[] strides, int[] padLow, int[] padHigh, int[] dilations) {
    public int rank() { return dims.length; }
}
