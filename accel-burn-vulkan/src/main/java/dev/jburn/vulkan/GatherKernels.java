package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.kernels.SliceLayout;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/** {@code gather} on the device ({@link GatherShader}); 32- and 64-bit indices, any element width the device can bind. */
final class GatherKernels {
    private final VulkanBackend b;
    private final MovementKernels movement;

    GatherKernels(VulkanBackend b, MovementKernels movement) {
        this.b = b;
        this.movement = movement;
    }

    static boolean supportsIndex(DType t) {
        return t.isInteger() && (t.byteSize() == 4 || t.byteSize() == 8);
    }

    /**
     * {@code out}, or {@code null} (and {@code out} released) when the kernel set {@code flag}: an index
     * was out of range, and the cpu engine is to raise the exact error. Reading the flag waits for the kernel.
     */
    static DeviceBuffer keptUnlessFlagged(VulkanBackend b, String op, DeviceBuffer out, DeviceBuffer flag) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment f = arena.allocate(4);
            b.memory.download(op, flag, 0, f);
            if (f.get(ValueLayout.JAVA_INT, 0) == 0) return out;
        }
        out.release();
        return null;
    }

    /** The result; {@code null} to fall back (unsupported types, sizes past 32 bits, or an index out of range). */
    DeviceBuffer gather(Operand x, Operand indices, int[] axes) {
        DType t = x.dtype();
        if (!movement.supports(t) || !supportsIndex(indices.dtype())) return null;
        int[] id = indices.shape().dims();
        long rows = 1;
        for (int i = 0; i < id.length - 1; i++) rows *= id[i];
        SliceLayout layout = SliceLayout.of(x.shape(), axes);
        long sliceSize = layout.sliceSize();
        long n = rows * sliceSize;
        long lim = Integer.MAX_VALUE;
        if (n >= lim || x.size() >= lim || indices.size() >= lim) return null;
        long outBytes = t.byteSize(n);
        if (!movement.bindable(outBytes) || !movement.bindable(x.buffer().byteSize()) || !movement.bindable(indices.buffer().byteSize())) return null;
        DeviceBuffer out = b.memory.allocateUninitialized("gather", outBytes);
        if (n == 0) return out;
        int[] params = layout.params((int) n, (int) rows, (int) sliceSize);
        DeviceBuffer flag = b.memory.allocate("gather", 4);
        try {
            DeviceBuffer src = VulkanBackend.device(x.buffer(), "gather");
            DeviceBuffer idx = VulkanBackend.device(indices.buffer(), "gather");
            int width = t.byteSize(), indexWidth = indices.dtype().byteSize();
            boolean signed = indices.dtype().isSigned();
            Pipelines.Pipeline p = b.pipelines.get("gather", "gather" + width, List.of("gather", width, indexWidth, signed),
                    () -> GatherShader.source(width, indexWidth, signed), 5, true);
            b.queue.submit("gather", r -> r.dispatch("gather", p, List.of(src, idx, out, flag), CommandQueue.writes(2, 3), params, movement.groups(n), 1, 1));
            return keptUnlessFlagged(b, "gather", out, flag);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            flag.release();
        }
    }
}
