package dev.jburn.kernels;

/**
 * What a device's kernels may use beyond 32-bit integers and floats.
 *
 * <pre>{@code
 * DeviceFeatures appleGpu = new DeviceFeatures(false, true, true, true, true); // MSL: no double, has bfloat
 * }</pre>
 *
 * @param float64      double-precision arithmetic
 * @param int64        64-bit integer arithmetic
 * @param storage8     8-bit integer loads and stores
 * @param storage16    16-bit integer loads and stores (also F16/BF16 storage, kept as bits)
 * @param bfloat       a native {@code bfloat} type to declare BF16 buffers with (MSL 3.1 on the GPU
 *                     families that support it); only the Metal dialect reads it, and only for the
 *                     buffer's declared type: BF16 values are still converted bit-exactly in software
 */
public record DeviceFeatures(boolean float64, boolean int64, boolean storage8, boolean storage16, boolean bfloat) {
    /** Everything (CUDA devices). */
    public static final DeviceFeatures ALL = new DeviceFeatures(true, true, true, true, true);

    /** Features without a native bfloat type (every dialect but Metal ignores the flag). */
    public DeviceFeatures(boolean float64, boolean int64, boolean storage8, boolean storage16) {
        this(float64, int64, storage8, storage16, false);
    }
}
