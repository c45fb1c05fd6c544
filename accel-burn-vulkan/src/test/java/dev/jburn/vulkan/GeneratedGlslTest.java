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
    void denormalPreservationCompilesToTheSpirvExecutionMode(@TempDir Path dir) {
        String src = ElementwiseKernels.noContraction(Emitter.emit(
                ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(8), Shape.of(8), Shape.of(8), DType.F32), Dialect.GLSL, LAVAPIPE).code());
        assertEquals(src, ElementwiseKernels.preserveDenormals(src, false));
        String kept = ElementwiseKernels.preserveDenormals(src, true);
        byte[] spirv = new ShaderCompiler(dir).spirv("add", "denorm", kept);
        java.nio.IntBuffer words = java.nio.ByteBuffer.wrap(spirv).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        boolean capability = false;
        int modes = 0;
        for (int i = 5; i < words.limit(); ) {
            int w = words.get(i), op = w & 0xFFFF, count = w >>> 16;
            if (op == 17 && words.get(i + 1) == ElementwiseKernels.DENORM_PRESERVE_CAPABILITY) capability = true; // OpCapability
            if (op == 16 && words.get(i + 2) == ElementwiseKernels.DENORM_PRESERVE_MODE && words.get(i + 3) == 32) modes++; // OpExecutionMode
            i += Math.max(count, 1);
        }
        assertTrue(capability, "OpCapability DenormPreserve");
        assertEquals(1, modes, "OpExecutionMode DenormPreserve 32");
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
