package dev.jburn.vulkan;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every warp-tiled f32 layout the bench searches ({@link GemmShaderWarpTiled}) against an f64 oracle on shapes around
 * its tile edges (K and N multiples of 4), batched, with NaN and ±Inf. On lavapipe in CI; on the GPU machine with the
 * engine's tests.
 */
class GemmShaderWarpTiledTest {
    /** Boehm's A6000 layout (128 invocations, 128 results each), 256-invocation forms, prefetch, other tile shapes. */
    static final List<GemmShaderWarpTiled.Tiling> TILINGS = GemmShaderWarpTiled.Tiling.parseAll(String.join(",",
            "w128x128/k16/64x64/n4/8x4", "w128x128/k8/64x64/n4/8x4/p", "w128x128/k16/64x32/n2/8x4", "w128x128/k16/32x64/n4/4x4/p",
            "w64x128/k16/32x64/n1/8x8", "w128x64/k16/64x32/n2/8x4/p", "w128x256/k8/64x64/n4/8x4", "w128x128/k16/64x64/n2/8x8",
            "w128x128/k8/64x64/n4/8x4/d", "w128x128/k8/64x32/n2/8x4/d"));

    private static VulkanBackend b;

    @BeforeAll
    static void requireDevice() {
        b = (VulkanBackend) TestDevice.engine().backend();
    }

    @Test
    void layoutsParseAndDescribeThemselves() {
        GemmShaderWarpTiled.Tiling t = GemmShaderWarpTiled.Tiling.parse(" w128x128/k16/64x64/n4/8x4/p ");
        assertEquals("w128x128/k16/64x64/n4/8x4/p", t.toString());
        assertEquals(128, t.invocations());
        assertEquals(128, t.results());
        assertEquals(1, t.wmi());
        assertEquals(4, t.across());
        assertEquals(256, GemmShaderWarpTiled.Tiling.parse("w128x128/k16/64x32/n2/8x4").invocations());
        GemmShaderWarpTiled.Tiling d = GemmShaderWarpTiled.Tiling.parse("w128x128/k8/64x64/n4/8x4/d");
        assertTrue(d.doubleBuffer() && d.prefetch());
        assertEquals("w128x128/k8/64x64/n4/8x4/d", d.toString());
        assertEquals(2 * GemmShaderWarpTiled.Tiling.parse("w128x128/k8/64x64/n4/8x4").sharedBytes(), d.sharedBytes());
    }

    @Test
    void aKernelIsNamedByItsForm() {
        assertEquals("gemm-f32-w128x128-k16-64x64-n4-8x4-wide", DotKernels.byForm("w128x128/k16/64x64/n4/8x4").name());
        assertEquals(DotKernels.tiled(GemmShaderTiled.CLASSIC).name(), DotKernels.byForm(" 16x16/8x8/k16").name());
        assertEquals(DotKernels.wideF32Default().name(), b.dots.gemm(dev.jburn.DType.F32, 64, 64).name(), "no -Djburn.vulkan.gemmTiling in tests");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DotKernels.byForm("w128x128"));
        assertTrue(e.getMessage().contains("expected"), e.getMessage());
    }

    @Test
    void theConfigurationNamesTheKernelAndABadFormStopsTheEngineBeforeTheDevice() {
        VulkanConfig plain = new VulkanConfig(null, null, false);
        assertNull(plain.gemmTiling());
        assertEquals(DotKernels.wideF32Default().name(), DotKernels.wideF32(plain).name());
        assertEquals("gemm-f32-w128x128-k16-64x64-n2-8x8-wide", DotKernels.wideF32(plain.withGemmTiling("w128x128/k16/64x64/n2/8x8")).name());
        assertEquals("w128x128/k16/64x64/n2/8x8", plain.withGemmTiling("w128x128/k16/64x64/n2/8x8").withGraphs(false).gemmTiling(), "kept by the other settings");
        dev.jburn.JBurnException e = assertThrows(dev.jburn.JBurnException.class,
                () -> new VulkanBackend(VulkanConfig.fromSystemProperties().withGemmTiling("w128x128")));
        assertTrue(e.getMessage().contains("-Djburn.vulkan.gemmTiling=w128x128") && e.getMessage().contains("expected"), e.getMessage());
    }

    @Test
    void badLayoutsAreRefusedWithTheReason() {
        assertRefused("w128x128/k16/64x64/n4/6x4", "multiples of 4");
        assertRefused("w128x128/k16/48x64/n4/8x4", "divide the tile");
        assertRefused("w128x128/k16/64x64/n8/8x8", "sub-tile");
        assertRefused("w512x512/k8/64x64/n4/8x4", "1024 invocations");
        assertRefused("w128x128/k64/64x64/n4/8x4", "shared memory");
        assertRefused("w128x128/k32/64x64/n4/8x4/d", "shared memory");
        assertRefused("w128x128/16/64x64/n4/8x4", "expected");
    }

    @Test
    void everyLayoutMatchesTheOracleAtItsEdges() {
        int[][] shapes = {{1, 4, 4}, {17, 36, 68}, {129, 40, 136}, {260, 200, 132}, {64, 8, 256}};
        for (GemmShaderWarpTiled.Tiling t : TILINGS) {
            for (int[] s : shapes) GemmRuns.assertMatchesOracle(b, DotKernels.warpTiled(t), 1, s[0], s[1], s[2]);
            GemmRuns.assertMatchesOracle(b, DotKernels.warpTiled(t), 3, 33, 40, 24);
        }
    }

    @Test
    void nanAndInfinityReachTheirOutputs() {
        for (GemmShaderWarpTiled.Tiling t : TILINGS) GemmRuns.assertNonFiniteReachTheirOutputs(b, DotKernels.warpTiled(t));
    }

    private static void assertRefused(String form, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GemmShaderWarpTiled.Tiling.parse(form), form);
        assertTrue(e.getMessage().contains(reason), form + ": " + e.getMessage());
    }
}
