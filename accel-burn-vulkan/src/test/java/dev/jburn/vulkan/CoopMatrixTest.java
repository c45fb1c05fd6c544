package dev.jburn.vulkan;

import dev.jburn.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lwjgl.vulkan.KHRCooperativeMatrix;
import org.lwjgl.vulkan.KHRShaderBfloat16;

import java.nio.file.Path;
import java.util.List;

import static dev.jburn.vulkan.CoopMatrixSupport.BFLOAT16;
import static dev.jburn.vulkan.CoopMatrixSupport.FLOAT16;
import static dev.jburn.vulkan.CoopMatrixSupport.FLOAT32;
import static dev.jburn.vulkan.CoopMatrixSupport.SCOPE_SUBGROUP;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The cooperative-matrix GEMM without a device that has it (lavapipe has none): which listed
 * configuration is chosen, and that the shader compiles with shaderc for every variant the engine
 * may build, so a GLSL mistake fails here and not first on the GPU.
 */
class CoopMatrixTest {
    private static CoopMatrixSupport.Config cfg(int m, int n, int k, int in, int acc) {
        return new CoopMatrixSupport.Config(m, n, k, in, in, acc, acc, false, SCOPE_SUBGROUP);
    }

    /** Roughly what NVIDIA's driver lists on Hopper (f16 with f16 or f32 accumulators, bf16, 8-bit integers). */
    private static final List<CoopMatrixSupport.Config> NVIDIA_LIKE = List.of(
            cfg(16, 8, 16, FLOAT16, FLOAT16), cfg(16, 8, 8, FLOAT16, FLOAT32), cfg(16, 16, 16, FLOAT16, FLOAT16),
            cfg(16, 16, 16, FLOAT16, FLOAT32), cfg(16, 8, 16, FLOAT16, FLOAT32), cfg(16, 16, 16, BFLOAT16, FLOAT32),
            new CoopMatrixSupport.Config(16, 16, 32, 3, 3, 5, 5, false, SCOPE_SUBGROUP));

    @Test
    void constantsMatchVulkan() {
        assertEquals(KHRCooperativeMatrix.VK_COMPONENT_TYPE_FLOAT16_KHR, FLOAT16);
        assertEquals(KHRCooperativeMatrix.VK_COMPONENT_TYPE_FLOAT32_KHR, FLOAT32);
        assertEquals(KHRShaderBfloat16.VK_COMPONENT_TYPE_BFLOAT16_KHR, BFLOAT16);
        assertEquals(KHRCooperativeMatrix.VK_SCOPE_SUBGROUP_KHR, SCOPE_SUBGROUP);
    }

    @Test
    void picksSixteenCubedWithF32Accumulators() {
        CoopMatrixSupport s = new CoopMatrixSupport(true, true, 32, 49152, NVIDIA_LIKE);
        assertEquals(cfg(16, 16, 16, FLOAT16, FLOAT32), s.gemmConfig(DType.F16).orElseThrow());
        assertEquals(cfg(16, 16, 16, BFLOAT16, FLOAT32), s.gemmConfig(DType.BF16).orElseThrow());
        assertTrue(s.gemmConfig(DType.F32).isEmpty(), "f32 stays on the exact f32 shader");
        assertTrue(s.gemmConfig(DType.F64).isEmpty());
        assertTrue(s.describe().contains("16x16x16 f16->f32"), s.describe());
    }

    @Test
    void declinesWhatItCannotUse() {
        assertTrue(CoopMatrixSupport.NONE.gemmConfig(DType.F16).isEmpty());
        // bf16 matrices listed, but VK_KHR_shader_bfloat16 is not on: no bf16 type in shaders.
        assertTrue(new CoopMatrixSupport(true, false, 32, 49152, NVIDIA_LIKE).gemmConfig(DType.BF16).isEmpty());
        // Only f16 accumulators: the result would round at every step.
        assertTrue(new CoopMatrixSupport(true, true, 32, 49152, List.of(cfg(16, 16, 16, FLOAT16, FLOAT16))).gemmConfig(DType.F16).isEmpty());
        // Workgroup scope, saturating, or shapes the staging cannot tile.
        var wg = new CoopMatrixSupport.Config(16, 16, 16, FLOAT16, FLOAT16, FLOAT32, FLOAT32, false, 2);
        var sat = new CoopMatrixSupport.Config(16, 16, 16, FLOAT16, FLOAT16, FLOAT32, FLOAT32, true, SCOPE_SUBGROUP);
        assertTrue(new CoopMatrixSupport(true, true, 32, 49152, List.of(wg, sat, cfg(16, 12, 16, FLOAT16, FLOAT32))).gemmConfig(DType.F16).isEmpty());
        // The tiles do not fit the device's shared memory.
        assertTrue(new CoopMatrixSupport(true, true, 32, 16384, NVIDIA_LIKE).gemmConfig(DType.F16).isEmpty());
        // Without 16x16x16, the nearest listed f32-accumulating one.
        var only = new CoopMatrixSupport(true, true, 64, 65536, List.of(cfg(32, 32, 8, FLOAT16, FLOAT32), cfg(16, 8, 8, FLOAT16, FLOAT32)));
        assertEquals(cfg(16, 8, 8, FLOAT16, FLOAT32), only.gemmConfig(DType.F16).orElseThrow());
    }

    @Test
    void tilingOfSixteenCubed() {
        var g = CoopMatGemmShader.Tiling.of(cfg(16, 16, 16, FLOAT16, FLOAT32));
        assertEquals(128, g.bm());
        assertEquals(128, g.bn());
        assertEquals(32, g.bk());
        assertTrue(g.sharedBytes() <= 32 * 1024, "fits NVIDIA's 48 KB with room: " + g.sharedBytes());
        // The shader declares what the tiling says (it once declared the 64-row subgroup block as TM: 64x64 matrices).
        String src = CoopMatGemmShader.source(DType.F16, g, 32, true);
        assertTrue(src.contains("const uint LM = 16u, LN = 16u, LK = 16u, TM = 4u, TN = 4u, BK = 32u;"), src);
        assertTrue(src.contains("local_size_x = 128"), src);
        assertTrue(CoopMatGemmShader.wideLoads(4096, 4096));
        assertFalse(CoopMatGemmShader.wideLoads(65, 33));
        assertFalse(CoopMatGemmShader.wideLoads(4, 8));
    }

    @Test
    void everyVariantCompiles(@TempDir Path dir) {
        ShaderCompiler c = new ShaderCompiler(dir);
        for (var conf : List.of(cfg(16, 16, 16, FLOAT16, FLOAT32), cfg(16, 8, 8, FLOAT16, FLOAT32), cfg(32, 32, 8, FLOAT16, FLOAT32))) {
            var g = CoopMatGemmShader.Tiling.of(conf);
            for (DType t : List.of(DType.F16, DType.BF16)) {
                for (int subgroup : new int[] {32, 64}) {
                    for (boolean wide : new boolean[] {false, true}) {
                        String name = "coopmat-" + t.shortName() + "-" + conf.describe() + "-" + subgroup + (wide ? "-wide" : "");
                        assertTrue(c.spirv("test", name, CoopMatGemmShader.source(t, g, subgroup, wide)).length > 0, name);
                    }
                }
            }
        }
    }
}
