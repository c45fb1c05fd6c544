package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Operand;

import java.util.List;

/**
 * {@code iota} on the device: one shape-independent shader writes the u32 counter
 * {@code (i / stride) % dim} of every element, then the shared emitter's cast (also
 * shape-independent) converts it to the wanted dtype with Nx cast semantics, which is what the
 * cpu engine's iota gives for counts below 2^32. {@code PRED} falls back.
 */
final class IotaKernels {
    private final VulkanBackend b;

    IotaKernels(VulkanBackend b) { this.b = b; }

    static final String SOURCE = """
            #version 450
            // jburn iota counter (u32)
            layout(local_size_x = 256) in;
            layout(std430, binding = 0) writeonly buffer Out { uint o[]; };
            layout(std430, binding = 1) readonly buffer Params { uint p[]; };
            void main() {
                uint n = p[0], dim = p[1], stride = p[2];
                uint step = gl_NumWorkGroups.x * 256u;
                for (uint i = gl_GlobalInvocationID.x; i < n; i += step) o[i] = (i / stride) % dim;
            }
            """;

    boolean supports(DType t) {
        return t != DType.PRED && (t == DType.U32 || b.elementwise.supportsCast(DType.U32));
    }

    /** The result, or {@code null} to fall back. */
    DeviceBuffer iota(Shape shape, DType dtype, int axis) {
        long n = shape.size();
        if (!supports(dtype) || n >= 0xFFFF_FFFFL || n * 8 > b.dev.features.maxStorageBufferRange()) return null;
        long dim = n, stride = 1;
        if (axis >= 0) {
            dim = shape.dim(axis);
            stride = 1;
            for (int d = axis + 1; d < shape.rank(); d++) stride *= shape.dim(d);
        }
        DeviceBuffer counter = b.memory.allocateUninitialized("iota", n * 4);
        if (n == 0) {
            if (dtype == DType.U32) return counter;
            counter.release();
            return b.memory.allocateUninitialized("iota", 0);
        }
        try {
            Pipelines.Pipeline p = b.pipelines.get("iota", "iota", SOURCE, 2, true);
            int[] params = {(int) n, (int) Math.max(1, dim), (int) Math.max(1, stride)};
            b.queue.submit("iota", r -> r.dispatch("iota", p, List.of(counter), CommandQueue.writes(0), params, b.movement.groups(n), 1, 1));
            if (dtype == DType.U32) return counter;
            DeviceBuffer out = b.elementwise.cast(new Operand(counter, DType.U32, Shape.of(n)), dtype);
            counter.release();
            return out;
        } catch (RuntimeException e) {
            counter.release();
            throw e;
        }
    }
}
