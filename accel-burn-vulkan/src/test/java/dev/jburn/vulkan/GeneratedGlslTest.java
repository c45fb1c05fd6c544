package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.kernels.ReductionEmitter;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The generated GLSL the engine compiles: no contraction, shape independence, and that shaderc accepts it. */
class GeneratedGlslTest {
    private static final DeviceFeatures LAVAPIPE = new DeviceFeatures(true, true, true, true);

    @Test
    void floatValuesArePrecise() {
        String src = Emitter.emit(ElementwiseKernel.binary(BinaryOp.MULTIPLY, DType.F32, Shape.of(8), Shape.of(8), Shape.of(8), DType.F32),
                Dialect.GLSL, LAVAPIPE).code();
        String marked = ElementwiseKernels.noContraction(src);
        assertTrue(marked.contains("precise f32 v2 = "), marked);
        assertFalse(marked.contains("precise u32"), marked);
    }

    @Test
    void floatControlsCompileToTheSpirvExecutionModes(@TempDir Path dir) {
        String src = ElementwiseKernels.noContraction(Emitter.emit(
                ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(8), Shape.of(8), Shape.of(8), DType.F32), Dialect.GLSL, LAVAPIPE).code());
        assertEquals(src, FloatControls.apply(src, features(false, false)));
        int[][] both = modes(new ShaderCompiler(dir).spirv("add", "controls", FloatControls.apply(src, features(true, true))));
        assertArrayEquals(new int[] {1, 1}, both[0], "OpCapability DenormPreserve, SignedZeroInfNanPreserve");
        assertArrayEquals(new int[] {1, 1}, both[1], "OpExecutionMode DenormPreserve 32, SignedZeroInfNanPreserve 32");
        int[][] infNan = modes(new ShaderCompiler(dir).spirv("add", "controls", FloatControls.apply(src, features(false, true))));
        assertArrayEquals(new int[] {0, 1}, infNan[0]);
        assertArrayEquals(new int[] {0, 1}, infNan[1]);
    }

    private static VulkanFeatures features(boolean denorm32, boolean infNan32) {
        return new VulkanFeatures(true, true, true, true, true, true, true, 1L << 30, 32, 65535, 65535, 16, 1L << 30, denorm32, false, infNan32);
    }

    /** Counts of {capabilities, 32-bit execution modes} in SPIR-V: {DenormPreserve, SignedZeroInfNanPreserve}. */
    private static int[][] modes(byte[] spirv) {
        java.nio.IntBuffer words = java.nio.ByteBuffer.wrap(spirv).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int[] capabilities = new int[2], modes = new int[2];
        for (int i = 5; i < words.limit(); ) {
            int w = words.get(i), op = w & 0xFFFF, count = w >>> 16;
            if (op == 17 && words.get(i + 1) == FloatControls.DENORM_PRESERVE_CAPABILITY) capabilities[0]++; // OpCapability
            if (op == 17 && words.get(i + 1) == FloatControls.SIGNED_ZERO_INF_NAN_PRESERVE_CAPABILITY) capabilities[1]++;
            if (op == 16 && words.get(i + 2) == FloatControls.DENORM_PRESERVE_MODE && words.get(i + 3) == 32) modes[0]++; // OpExecutionMode
            if (op == 16 && words.get(i + 2) == FloatControls.SIGNED_ZERO_INF_NAN_PRESERVE_MODE && words.get(i + 3) == 32) modes[1]++;
            i += Math.max(count, 1);
        }
        return new int[][] {capabilities, modes};
    }

    @Test
    void rowReductionsDoNotDependOnTheShape(@TempDir Path dir) {
        String a = ReductionEmitter.emitRows(ReduceOp.SUM, DType.F32, DType.F32, Dialect.GLSL, LAVAPIPE).code();
        String marked = ElementwiseKernels.noContraction(a);
        assertTrue(marked.contains("precise f32 acc = "), marked);
        assertTrue(new ShaderCompiler(dir).spirv("sum", "rows", marked).length > 0);
    }

    @Test
    void flattenedBroadcastKernelsShareOneSource() {
        // What the engine builds for any shape: rank 1, operands full-size or a single element.
        String small = Emitter.emit(ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(6), Shape.of(1), Shape.of(6), DType.F32),
                Dialect.GLSL, LAVAPIPE).code();
        String big = Emitter.emit(ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(60000), Shape.of(1), Shape.of(60000), DType.F32),
                Dialect.GLSL, LAVAPIPE).code();
        assertEquals(small, big);
    }
}
