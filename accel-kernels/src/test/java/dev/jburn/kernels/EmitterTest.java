package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class EmitterTest {
    /** Where the GLSL compile checks write their shaders; JUnit deletes it afterwards. */
    @TempDir Path scratch;

    private static final DeviceFeatures NO_WIDE = new DeviceFeatures(false, false, true, true);

    @Test
    void cudaExpressesEveryOpAndCastOnEveryDtype() {
        for (ElementwiseKernel k : KernelCatalog.all()) {
            assertEquals(Optional.empty(), Emitter.unsupported(k, Dialect.CUDA, DeviceFeatures.ALL), k.toString());
        }
    }

    @Test
    void glslReportsWhatItCannotExpressExactly() {
        var fmod = ElementwiseKernel.binary(BinaryOp.REMAINDER, DType.F32, Shape.of(3), Shape.of(3), Shape.of(3), DType.F32);
        assertTrue(Emitter.unsupported(fmod, Dialect.GLSL, DeviceFeatures.ALL).orElseThrow().contains("fmod"));
        var pow = ElementwiseKernel.binary(BinaryOp.POW, DType.F32, Shape.of(3), Shape.of(3), Shape.of(3), DType.F32);
        assertEquals(Optional.empty(), Emitter.unsupported(pow, Dialect.GLSL, DeviceFeatures.ALL), "GlslPow's");
        assertTrue(Emitter.unsupported(pow, Dialect.GLSL, NO_WIDE).orElseThrow().contains("64-bit floats"));
        var sinF64 = ElementwiseKernel.unary(UnaryOp.SIN, DType.F64, DType.F64, Shape.of(3));
        assertTrue(Emitter.unsupported(sinF64, Dialect.GLSL, DeviceFeatures.ALL).isPresent(), "GLSL has no double sin");
        var expF64 = ElementwiseKernel.unary(UnaryOp.EXP, DType.F64, DType.F64, Shape.of(3));
        assertEquals(Optional.empty(), Emitter.unsupported(expF64, Dialect.GLSL, DeviceFeatures.ALL), "GlslMath64's");
        var addS64 = ElementwiseKernel.binary(BinaryOp.ADD, DType.S64, Shape.of(3), Shape.of(3), Shape.of(3), DType.S64);
        assertEquals(Optional.of("the device has no 64-bit integers"), Emitter.unsupported(addS64, Dialect.GLSL, NO_WIDE));
        assertThrows(Emitter.Unsupported.class, () -> Emitter.emit(addS64, Dialect.GLSL, NO_WIDE));
        var expF32 = ElementwiseKernel.unary(UnaryOp.EXP, DType.F32, DType.F32, Shape.of(3));
        assertEquals(Optional.empty(), Emitter.unsupported(expF32, Dialect.GLSL, NO_WIDE));
        var erfF32 = ElementwiseKernel.unary(UnaryOp.ERF, DType.F32, DType.F32, Shape.of(3));
        assertEquals(Optional.empty(), Emitter.unsupported(erfF32, Dialect.GLSL, DeviceFeatures.ALL));
        assertTrue(Emitter.unsupported(erfF32, Dialect.GLSL, NO_WIDE).orElseThrow().contains("64-bit floats"));
    }

    @Test
    void broadcastOperandsAreReadThroughCoordinatesAndSameShapeOnesByIndex() {
        var k = ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(4, 1), Shape.of(4, 3), Shape.of(4, 3), DType.F32);
        String code = Emitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL).code();
        assertTrue(code.contains("in0[c0]"), code);
        assertTrue(code.contains("in1[i]"), code);
    }

    /**
     * A spread sample (every 13th of the op × dtype × features catalog; all of it passes, but takes
     * minutes) of the kernels GLSL claims to express compiles with glslang, when it is installed.
     */
    @Test
    void everyExpressibleGlslKernelCompiles() throws Exception {
        assumeTrue(Glslang.installed(), "glslangValidator not installed");
        Path dir = Files.createTempDirectory(scratch, "jburn-glsl");
        List<Path> files = new ArrayList<>();
        for (DeviceFeatures f : List.of(DeviceFeatures.ALL, NO_WIDE)) {
            List<ElementwiseKernel> all = KernelCatalog.all();
            for (int n = f == NO_WIDE ? 6 : 0; n < all.size(); n += 13) {
                ElementwiseKernel k = all.get(n);
                if (Emitter.unsupported(k, Dialect.GLSL, f).isPresent()) continue;
                Path p = dir.resolve("k" + files.size() + ".comp");
                Files.writeString(p, Emitter.emit(k, Dialect.GLSL, f).code());
                files.add(p);
            }
        }
        assertTrue(files.size() > 40, "too few GLSL kernels: " + files.size());
        List<String> failures = Glslang.failures(files);
        assertTrue(failures.isEmpty(), String.join("\n----\n", failures.subList(0, Math.min(3, failures.size()))));
    }

    @SuppressWarnings("unused")
    private static void dump(String s) throws IOException { Files.writeString(Path.of("/tmp/kernel.txt"), s); }
}
