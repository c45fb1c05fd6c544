package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.kernels.DirectConvPlan;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.util.List;

/**
 * Convolution on the device, f32 ({@link ConvShader}): one dispatch per convolution, a work group per output
 * element for long sums ({@link #LONG_SUM}), else an invocation per output element. Returns {@code null}
 * (the cpu engine runs it, counted) past {@link DirectConvPlan#MAX_RANK} spatial axes, 32-bit indices or
 * a bindable buffer's size. Other float types are not offered in the capabilities, so the front end
 * decomposes them as before.
 */
final class ConvKernels {
    private final VulkanBackend b;

    /**
     * Products per output element from which a work group computes each one ({@link ConvShader#perGroup}): a weight
     * gradient's sums are this long, and its outputs too few to fill the device one invocation each.
     */
    static final long LONG_SUM = 2048;

    ConvKernels(VulkanBackend b) { this.b = b; }

    static boolean supports(DType t) { return t == DType.F32; }

    DeviceBuffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        if (!supports(out) || input.dtype() != out || kernel.dtype() != out) return null;
        int[] words = DirectConvPlan.params(input.shape(), kernel.shape(), spec);
        if (words == null) return null;
        long size = DirectConvPlan.outputSize(words);
        MovementKernels m = b.movement;
        if (!m.bindable(4 * size) || !m.bindable(input.buffer().byteSize()) || !m.bindable(kernel.buffer().byteSize())) return null;
        if (size == 0) return b.memory.allocateUninitialized("conv", 0);
        if (DirectConvPlan.productsPerOutput(words) == 0) return b.memory.allocate("conv", 4 * size); // empty sums: zeros
        DeviceBuffer x = VulkanBackend.device(input.buffer(), "conv"), k = VulkanBackend.device(kernel.buffer(), "conv");
        DeviceBuffer y = b.memory.allocateUninitialized("conv", 4 * size);
        try {
            if (DirectConvPlan.productsPerOutput(words) >= LONG_SUM && size <= 65535L * 65535L) {
                Pipelines.Pipeline p = b.pipelines.get("conv", "conv-f32-group", "conv-f32-group",
                        () -> FloatControls.apply(ConvShader.perGroup(), b.dev.features), 4, true);
                int gx = (int) Math.min(size, 65535), gy = (int) ((size + gx - 1) / gx);
                b.queue.submit("conv", r -> r.dispatch("conv", p, List.of(x, k, y), CommandQueue.writes(2), words, gx, gy, 1));
            } else {
                Pipelines.Pipeline p = b.pipelines.get("conv", "conv-f32", "conv-f32",
                        () -> FloatControls.apply(ConvShader.perOutput(), b.dev.features), 4, true);
                int gx = m.groups(size); // a grid-stride loop of work groups of 256, as the movement shaders'
                b.queue.submit("conv", r -> r.dispatch("conv", p, List.of(x, k, y), CommandQueue.writes(2), words, gx, 1, 1));
            }
            return y;
        } catch (RuntimeException e) {
            y.release();
            throw e;
        }
    }
}
