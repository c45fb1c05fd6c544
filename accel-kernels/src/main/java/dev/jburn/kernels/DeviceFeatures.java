package dev.jburn.kernels;

/**
 * What a device's kernels may use beyond 32-bit integers and floats.
 *
 * @param float64      double-precision arithmetic
 * @param int64        64-bit integer arithmetic
 * @param storage8     8-bit integer loads and stores
 * @param storage16    16-bit integer loads and stores (also F16/BF16 storage, kept as bits)
 */
public record DeviceFeatures(boolean float64, boolean int64, boolean storage8, boolean storage16) {
    /** Everything (CUDA devices). */
    public static final DeviceFeatures ALL = new DeviceFeatures(true, true, true, true);
}
