package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Finds out whether the device's f32 arithmetic keeps subnormals, by running one multiply.
 *
 * <p>Vulkan leaves denormal handling to the driver unless a shader asks for a mode the device
 * reports ({@code shaderDenormPreserveFloat32}); where that is missing the behaviour can only be
 * observed. Lavapipe keeps subnormals; NVIDIA's driver (H200, 580) flushes them and does not offer
 * the preserve mode. The answer goes to {@code Capabilities.flushesF32Subnormals()}.
 */
final class SubnormalProbe {
    private SubnormalProbe() {}

    /** True when {@code x * 1} of the smallest and the largest f32 subnormal comes back as zero. */
    static boolean flushes(ElementwiseKernels k, DeviceMemory memory) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment x = a.allocate(8, 4);
            x.setAtIndex(ValueLayout.JAVA_INT, 0, 0x0000_0001);
            x.setAtIndex(ValueLayout.JAVA_INT, 1, 0x007F_FFFF);
            MemorySegment one = a.allocate(4, 4);
            one.set(ValueLayout.JAVA_FLOAT, 0, 1f);
            DeviceBuffer xs = memory.upload("probe", x), ones = memory.upload("probe", one);
            try {
                Buffer r = k.binary(BinaryOp.MULTIPLY, new Operand(xs, DType.F32, Shape.of(2)), new Operand(ones, DType.F32, Shape.of()),
                        Shape.of(2), DType.F32);
                if (r == null) return false; // no native f32 multiply: the cpu engine computes it, exactly
                try {
                    MemorySegment back = a.allocate(8, 4);
                    memory.download("probe", (DeviceBuffer) r, 0, back);
                    return back.getAtIndex(ValueLayout.JAVA_INT, 0) != 0x0000_0001 || back.getAtIndex(ValueLayout.JAVA_INT, 1) != 0x007F_FFFF;
                } finally {
                    r.release();
                }
            } finally {
                xs.release();
                ones.release();
            }
        }
    }
}
