package dev.jburn.vulkan;

/**
 * The optional device features the kernels use, as queried from the device (and then enabled).
 *
 * @param float64          {@code shaderFloat64}: F64 arithmetic in shaders
 * @param int64            {@code shaderInt64}: 64-bit integers (S64/U64 and 64-bit index math)
 * @param int16            {@code shaderInt16}
 * @param float16          {@code shaderFloat16}
 * @param int8             {@code shaderInt8}
 * @param storage8         {@code storageBuffer8BitAccess}: U8/S8/PRED buffers
 * @param storage16        {@code storageBuffer16BitAccess}: U16/S16/F16/BF16 buffers
 * @param maxStorageBufferRange largest storage buffer a shader may bind, in bytes
 * @param maxStorageBuffers most storage buffers one compute pipeline may bind ({@code maxPerStageDescriptorStorageBuffers},
 *                          {@code maxDescriptorSetStorageBuffers} and {@code maxPerStageResources}, the smallest): 32 on
 *                          lavapipe, whose fixed binding arrays a larger layout overruns (it crashed the JVM, not an error)
 * @param maxWorkGroupCountX largest dispatch in x
 * @param maxWorkGroupCountZ largest dispatch in z
 * @param minStorageBufferOffsetAlignment alignment of a bound buffer range's offset
 * @param maxAllocation  largest single allocation the device allows ({@code maxMemoryAllocationSize}, capped by the largest heap)
 * @param denormPreserve32 shaders may ask to keep f32 subnormals ({@code shaderDenormPreserveFloat32})
 * @param denormPreserve64 the same for f64
 * @param infNanPreserve32 shaders may ask that f32 infinities, NaNs and signed zeros be kept
 *                         ({@code shaderSignedZeroInfNanPreserveFloat32}); without asking, a compiler may assume there are none
 */
record VulkanFeatures(boolean float64, boolean int64, boolean int16, boolean float16, boolean int8,
                      boolean storage8, boolean storage16, long maxStorageBufferRange, int maxStorageBuffers,
                      int maxWorkGroupCountX, int maxWorkGroupCountZ, long minStorageBufferOffsetAlignment,
                      long maxAllocation, boolean denormPreserve32, boolean denormPreserve64, boolean infNanPreserve32) {

    /** What the shared kernel emitter ({@code accel-kernels}) may use on this device. */
    dev.jburn.kernels.DeviceFeatures forEmitter() {
        return new dev.jburn.kernels.DeviceFeatures(float64, int64, storage8, storage16);
    }

    /** A short list of what is on, for the availability description and logs. */
    String describe() {
        StringBuilder b = new StringBuilder();
        if (float64) b.append(" f64");
        if (int64) b.append(" int64");
        if (int16) b.append(" int16");
        if (float16) b.append(" f16");
        if (int8) b.append(" int8");
        if (storage8) b.append(" storage8");
        if (storage16) b.append(" storage16");
        if (denormPreserve32) b.append(" denormPreserve32");
        if (denormPreserve64) b.append(" denormPreserve64");
        if (infNanPreserve32) b.append(" infNanPreserve32");
        return b.toString().trim();
    }
}
