package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
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

    /** The result; {@code null} to fall back (unsupported types, sizes past 32 bits, or an index out of range). */
    DeviceBuffer gather(Operand x, Operand indices, int[] axes) {
        DType t = x.dtype();
        if (!movement.supports(t) || !supportsIndex(indices.dtype())) return null;
        int[] id = indices.shape().dims();
        long rows = 1;
        for (int i = 0; i < id.length - 1; i++) rows *= id[i];
        long[] xs = CopyPlan.strides(x.shape());
        boolean[] gathered = new boolean[x.shape().rank()];
        for (int a : axes) gathered[a] = true;
        List<long[]> slice = new ArrayList<>();
        long sliceSize = 1;
        for (int i = 0; i < x.shape().rank(); i++) {
            if (gathered[i]) continue;
            slice.add(new long[] {x.shape().dim(i), xs[i]});
            sliceSize *= x.shape().dim(i);
        }
        long n = rows * sliceSize;
        long lim = Integer.MAX_VALUE;
        if (n >= lim || x.size() >= lim || indices.size() >= lim) return null;
        long outBytes = n * t.byteSize();
        if (!movement.bindable(outBytes) || !movement.bindable(x.buffer().byteSize()) || !movement.bindable(indices.buffer().byteSize())) return null;
        DeviceBuffer out = b.memory.allocateUninitialized("gather", outBytes);
        if (n == 0) return out;
        int k = axes.length;
        int[] params = new int[5 + 2 * k + 2 * slice.size()];
        params[0] = (int) n;
        params[1] = (int) rows;
        params[2] = (int) sliceSize;
        params[3] = k;
        params[4] = slice.size();
        for (int j = 0; j < k; j++) {
            params[5 + 2 * j] = x.shape().dim(axes[j]);
            params[6 + 2 * j] = (int) xs[axes[j]];
        }
        for (int d = 0; d < slice.size(); d++) {
            params[5 + 2 * k + 2 * d] = (int) slice.get(d)[0];
            params[6 + 2 * k + 2 * d] = (int) slice.get(d)[1];
        }
        DeviceBuffer flag = b.memory.allocate("gather", 4);
        try {
            DeviceBuffer src = VulkanBackend.device(x.buffer(), "gather");
            DeviceBuffer idx = VulkanBackend.device(indices.buffer(), "gather");
            Pipelines.Pipeline p = b.pipelines.get("gather", "gather" + t.byteSize(),
                    GatherShader.source(t.byteSize(), indices.dtype().byteSize(), indices.dtype().isSigned()), 5, true);
            b.queue.submit("gather", r -> r.dispatch("gather", p, List.of(src, idx, out, flag), params, movement.groups(n), 1, 1));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment f = arena.allocate(4);
                b.memory.download("gather", flag, 0, f);
                if (f.get(ValueLayout.JAVA_INT, 0) != 0) {
                    out.release();
                    return null;
                }
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            flag.release();
        }
    }
}
