package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.kernels.SliceLayout;
import dev.jburn.spi.Operand;

import java.util.List;

/**
 * {@code indexedAdd} / {@code indexedPut} on the device ({@link IndexUpdateShader}): the target is
 * copied into the result, then the updates are added or written in row order.
 */
final class IndexUpdateKernels {
    private final VulkanBackend b;
    private final MovementKernels movement;

    IndexUpdateKernels(VulkanBackend b, MovementKernels movement) {
        this.b = b;
        this.movement = movement;
    }

    /** Whether an update of {@code t} runs here (the index type is checked per call). */
    boolean supports(DType t, boolean accumulate) {
        return movement.supports(t) && (!accumulate || IndexUpdateShader.accumulator(t, b.dev.features) != null);
    }

    /** The result; {@code null} to fall back (unsupported types, sizes past 32 bits, or an index out of range). */
    DeviceBuffer update(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        DType t = target.dtype();
        String op = accumulate ? "indexedAdd" : "indexedPut";
        if (!supports(t, accumulate) || !GatherKernels.supportsIndex(indices.dtype())) return null;
        long rows = indices.shape().dim(0);
        SliceLayout layout = SliceLayout.of(target.shape(), axes);
        long lim = Integer.MAX_VALUE;
        if (target.size() >= lim || updates.size() >= lim || indices.size() >= lim) return null;
        long bytes = t.byteSize(target.size());
        if (!movement.bindable(bytes) || !movement.bindable(updates.buffer().byteSize()) || !movement.bindable(indices.buffer().byteSize())) return null;
        DeviceBuffer out = b.memory.allocateUninitialized(op, bytes);
        if (bytes == 0) return out;
        DeviceBuffer flag = b.memory.allocate(op, 4);
        try {
            DeviceBuffer tgt = VulkanBackend.device(target.buffer(), op);
            DeviceBuffer upd = VulkanBackend.device(updates.buffer(), op);
            DeviceBuffer idx = VulkanBackend.device(indices.buffer(), op);
            IndexUpdateShader.Accumulator acc = accumulate ? IndexUpdateShader.accumulator(t, b.dev.features) : null;
            int width = t.byteSize(), indexWidth = indices.dtype().byteSize();
            boolean signed = indices.dtype().isSigned(), floats = t.isFloat();
            // found by what its source is generated from, so a call seen before generates no GLSL (Pipelines#get)
            Pipelines.Pipeline p = b.pipelines.get(op, op + width,
                    java.util.Arrays.asList("indexUpdate", acc, width, indexWidth, signed, floats), () -> {
                        String source = IndexUpdateShader.source(acc, width, indexWidth, signed);
                        return floats ? FloatControls.apply(source, b.dev.features) : source;
                    }, 5, true);
            int[] params = layout.params((int) layout.sliceSize(), (int) rows);
            int groups = (int) Math.max(1, Math.min((layout.sliceSize() + IndexUpdateShader.GROUP - 1) / IndexUpdateShader.GROUP,
                    Math.min(b.dev.features.maxWorkGroupCountX(), 65535)));
            b.queue.submit(op, r -> {
                r.keep(tgt);
                r.copy(tgt.handle(), 0, out.handle(), 0, bytes);
                if (rows > 0 && layout.sliceSize() > 0) r.dispatch(op, p, List.of(upd, idx, out, flag), CommandQueue.writes(2, 3), params, groups, 1, 1);
            });
            if (rows == 0 || layout.sliceSize() == 0) return out;
            return GatherKernels.keptUnlessFlagged(b, op, out, flag);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            flag.release();
        }
    }
}
