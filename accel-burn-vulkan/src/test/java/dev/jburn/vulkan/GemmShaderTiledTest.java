package dev.jburn.vulkan;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every generated f32 tiling ({@link GemmShaderTiled}) against an f64 oracle on shapes around its tile
 * edges (K and N multiples of 4, as wide loads need), batched, with NaN and ±Inf: what the device
 * bench may pick must be right first. On lavapipe in CI; on the GPU machine with the engine's tests.
 */
class GemmShaderTiledTest {
    /** The tilings the bench searches first: the classic one, with prefetch, other thread shapes, depths and tiles. */
    static final List<GemmShaderTiled.Tiling> TILINGS = GemmShaderTiled.Tiling.parseAll(
            "16x16/8x8/k16,16x16/8x8/k16/p,16x16/8x8/k8/p,16x16/8x8/k32,16x8/8x16/k16,8x16/16x8/k16/p,16x16/16x8/k8/p,16x16/4x8/k16/p,16x16/8x8/k16/w,16x16/8x8/k16/p/w/g8,8x16/8x16/k16/p/g4,16x16/8x8/k8/p/w/g3");

    private static VulkanBackend b;

    @BeforeAll
    static void requireDevice() {
        b = (VulkanBackend) TestDevice.engine().backend();
    }

    @Test
    void classicTilingIsGemmShadersLayout() {
        assertEquals(128, GemmShaderTiled.CLASSIC.tileM());
        assertEquals(128, GemmShaderTiled.CLASSIC.tileN());
        assertEquals(GemmShaderTiled.CLASSIC, GemmShaderTiled.Tiling.parse("16x16/8x8/k16"));
        assertEquals("16x16/8x8/k8/p", GemmShaderTiled.Tiling.parse(" 16x16/8x8/k8/p ").toString());
    }

    @Test
    void badTilingsAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GemmShaderTiled.Tiling.parse("16x16/6x8/k16"));
        assertTrue(e.getMessage().contains("multiples of 4"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GemmShaderTiled.Tiling.parse("64x32/8x8/k16"));
        assertTrue(e.getMessage().contains("1024 invocations"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GemmShaderTiled.Tiling.parse("16x2/8x8/k16/w"));
        assertTrue(e.getMessage().contains("warp lanes"), e.getMessage());
        assertEquals("16x16/8x8/k8/p/w/g3", GemmShaderTiled.Tiling.parse("16x16/8x8/k8/p/w/g3").toString());
        e = assertThrows(IllegalArgumentException.class, () -> GemmShaderTiled.Tiling.parse("16x16/8x8"));
        assertTrue(e.getMessage().contains("expected"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GemmShaderTiled.Tiling.parse("16x16/16x16/k64"));
        assertTrue(e.getMessage().contains("shared memory"), e.getMessage());
    }

    @Test
    void everyTilingMatchesTheOracleAtItsEdges() {
        int[][] shapes = {{1, 4, 4}, {17, 36, 68}, {129, 40, 136}, {260, 200, 132}, {64, 8, 256}};
        for (GemmShaderTiled.Tiling t : TILINGS) {
            for (int[] s : shapes) check(t, 1, s[0], s[1], s[2]);
            check(t, 3, 33, 40, 24);
        }
    }

    @Test
    void classicTilingKeepsGemmShadersBits() {
        int m = 260, k = 200, n = 132;
        float[] a = GemmRuns.random(m * k, 21), bb = GemmRuns.random(k * n, 22);
        DotKernels.Gemm old = new DotKernels.Gemm("gemm-f32-wide", java.util.List.of("gemm", false, true), () -> GemmShader.source(false, true), 128, 128);
        float[] want = GemmRuns.run(b, old, a, bb, 1, m, n, k);
        float[] got = GemmRuns.run(b, DotKernels.tiled(GemmShaderTiled.CLASSIC), a, bb, 1, m, n, k);
        for (int i = 0; i < want.length; i++) assertEquals(Float.floatToRawIntBits(want[i]), Float.floatToRawIntBits(got[i]), "element " + i);
        assertEquals(DotKernels.tiled(GemmShaderTiled.CLASSIC).name(), b.dots.gemm(dev.jburn.DType.F32, k, n).name(), "the engine's wide f32 kernel");
    }

    @Test
    void nanAndInfinityReachTheirOutputs() {
        for (GemmShaderTiled.Tiling t : TILINGS) GemmRuns.assertNonFiniteReachTheirOutputs(b, DotKernels.tiled(t));
    }

    private static void check(GemmShaderTiled.Tiling t, int batch, int m, int k, int n) {
        GemmRuns.assertMatchesOracle(b, DotKernels.tiled(t), batch, m, k, n);
    }
}
