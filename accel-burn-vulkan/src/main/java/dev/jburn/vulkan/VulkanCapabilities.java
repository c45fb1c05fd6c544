package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ContractionOp;
import dev.jburn.op.ConvOp;
import dev.jburn.op.CreationOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ElementwiseOp;
import dev.jburn.op.IndexOp;
import dev.jburn.op.LinalgOp;
import dev.jburn.op.Op;
import dev.jburn.op.RandomOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.ShapeOp;
import dev.jburn.op.SortOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Capabilities;

/**
 * What runs natively on this device, op × dtype: the answer follows the kernels the backend
 * actually dispatches (and the device features they need); everything else runs on the cpu.
 * Data-dependent limits (a buffer past {@code maxStorageBufferRange}, indices past 32 bits) still
 * fall back at run time and are counted.
 */
final class VulkanCapabilities implements Capabilities {
    private final VulkanBackend b;

    VulkanCapabilities(VulkanBackend b) { this.b = b; }

    /** Measured when the engine starts ({@link SubnormalProbe}). */
    @Override
    public boolean flushesF32Subnormals() { return b.flushesF32Subnormals; }

    /**
     * A fused group ending in a sum over leading axes (batch norm's per-channel statistics of a channels-last
     * tensor) is one planned reduction ({@code ReductionPlan}): its columns form reads neighbouring channels
     * together, then a finishing pass folds the partial sums.
     */
    @Override
    public boolean fusesLeadingSums() { return true; }

    @Override
    public boolean supports(Op op, DType dtype) {
        return switch (op) {
            case UnaryOp u -> b.elementwise.supportsUnary(u, dtype);
            case BinaryOp o -> b.elementwise.supportsBinary(o, dtype);
            case ElementwiseOp e -> switch (e) {
                case SELECT -> b.elementwise.supportsSelect(dtype);
                case AS_TYPE -> b.elementwise.supportsCast(dtype);
                case CLIP -> b.elementwise.supportsBinary(BinaryOp.MIN, dtype) && b.elementwise.supportsBinary(BinaryOp.MAX, dtype);
                case BITCAST -> true; // a view: no kernel
            };
            case ReduceOp r -> switch (r) {
                case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY -> b.elementwise.supportsReduce(r, dtype);
                case MEAN -> b.elementwise.supportsReduce(ReduceOp.SUM, dtype) && b.elementwise.supportsBinary(BinaryOp.DIVIDE, dtype.toFloating());
                case ARGMAX, ARGMIN -> b.argReductions.supports(dtype, DType.S32); // the index type of Tensor.argmax
                case LOG_SUM_EXP -> false;
            };
            case ShapeOp s -> switch (s) {
                case RESHAPE, SQUEEZE, NEW_AXIS -> true; // views
                case TRANSPOSE, BROADCAST, SLICE, PUT_SLICE, CONCATENATE, STACK, PAD, REVERSE, TILE -> b.movement.supports(dtype);
            };
            case ContractionOp c -> switch (c) {
                case DOT -> b.dots.supports(dtype);
            };
            case CumulativeOp c -> false;
            case IndexOp i -> switch (i) {
                // dtype is the gathered tensor's; the index type is checked per call (32/64-bit run natively)
                case GATHER, TAKE, TAKE_ALONG_AXIS -> b.movement.supports(dtype);
                case INDEXED_ADD -> b.indexUpdates.supports(dtype, true);
                case INDEXED_PUT -> b.indexUpdates.supports(dtype, false);
            };
            case SortOp s -> false;
            case CreationOp c -> switch (c) {
                case IOTA -> b.iotas.supports(dtype);
                case FULL, EYE, ARANGE, LINSPACE -> false; // composites of other ops

            };
            case RandomOp r -> false;
            case WindowOp w -> switch (w) {
                case WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> b.windowScatters.supports(dtype);
                case WINDOW_MAX, WINDOW_MIN -> WindowExtremeKernels.supports(dtype); // f32; the rest decomposed as below
                case WINDOW_SUM, WINDOW_PRODUCT -> false; // decomposed into slices and element-wise ops
            };
            case ConvOp c -> ConvKernels.supports(dtype); // ConvShader, direct, f32
            case LinalgOp l -> false;
        };
    }
}
