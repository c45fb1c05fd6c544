package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.op.ReduceOp;
import dev.jburn.spi.Operand;

import java.util.List;

/** {@code argmax}/{@code argmin} on the device: the axis moved last by the copy shader, then {@link ArgReduceShader} per row. */
final class ArgReduceKernels {
    private final VulkanBackend b;

    ArgReduceKernels(VulkanBackend b) { this.b = b; }

    boolean supports(DType in, DType out) {
        return b.movement.supports(in) && ArgReduceShader.supports(in, out, b.dev.features);
    }

    /** The result; {@code null} to fall back (unsupported types, an empty axis, sizes past 32 bits). */
    DeviceBuffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out) {
        boolean max = op == ReduceOp.ARGMAX;
        if (op != ReduceOp.ARGMAX && op != ReduceOp.ARGMIN) return null;
        if (!supports(x.dtype(), out)) return null;
        int rank = x.shape().rank();
        long n = axis < 0 ? x.size() : x.shape().dim(axis);
        long rows = n == 0 ? 0 : x.size() / n;
        if (n == 0 || x.size() >= Integer.MAX_VALUE || rows >= 65535L * 65535L || !b.movement.bindable(x.buffer().byteSize())) return null;
        if (rows == 0) return b.memory.allocateUninitialized(op.opName(), 0); // an empty tensor along a non-empty axis
        DeviceBuffer moved = null;
        if (axis >= 0 && axis != rank - 1) {
            int[] perm = new int[rank];
            for (int d = 0, k = 0; d < rank; d++) if (d != axis) perm[k++] = d;
            perm[rank - 1] = axis;
            moved = b.movement.transpose(x, perm);
            if (moved == null) return null;
        }
        String name = op.opName();
        DeviceBuffer out0 = b.memory.allocateUninitialized(name, out.byteSize(rows));
        try {
            DeviceBuffer src = moved != null ? moved : VulkanBackend.device(x.buffer(), name);
            Pipelines.Pipeline p = b.pipelines.get(name, name, List.of("argReduce", x.dtype(), out, max, tieBreakHigh), () -> {
                String source = ArgReduceShader.source(x.dtype(), out, max, tieBreakHigh, b.dev.features);
                return x.dtype().isFloat() ? FloatControls.apply(source, b.dev.features) : source; // its isnan must not be assumed false
            }, 3, true);
            int gx = (int) Math.min(rows, 65535), gy = (int) ((rows + gx - 1) / gx);
            int[] params = {(int) rows, (int) n};
            b.queue.submit(name, r -> r.dispatch(name, p, List.of(src, out0), CommandQueue.writes(1), params, gx, gy, 1));
            return out0;
        } catch (RuntimeException e) {
            out0.release();
            throw e;
        } finally {
            if (moved != null) moved.release();
        }
    }
}
