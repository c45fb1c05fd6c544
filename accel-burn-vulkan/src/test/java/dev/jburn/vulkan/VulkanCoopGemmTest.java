package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.op.ContractionOp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * f16/bf16 dots on cooperative matrices where the device has them (NVIDIA's driver; lavapipe has
 * none, so there only the capability answers are checked): odd shapes that exercise every edge of
 * the staged tiles, against the cpu engine, with no fallback.
 */
class VulkanCoopGemmTest {
    private static Engine vk;
    private static VulkanBackend b;
    private static Engine cpu;

    @BeforeAll
    static void requireDevice() {
        vk = TestDevice.engine();
        b = (VulkanBackend) vk.backend();
        cpu = Engine.select("cpu");
    }

    @Test
    void capabilitiesFollowTheDevice() {
        for (DType t : List.of(DType.F16, DType.BF16)) {
            assertEquals(b.dots.coopConfig(t).isPresent(), vk.capabilities().supports(ContractionOp.DOT, t), t.toString());
        }
        assertTrue(b.dots.coopConfig(DType.F32).isEmpty(), "f32 stays on the exact f32 shader");
        assertEquals("gemm-f32-16x16-8x8-k16-wide", b.dots.gemm(DType.F32, 4096, 4096).name());
        assertEquals("gemm-f32", b.dots.gemm(DType.F32, 65, 33).name());
        if (!b.dev.coopMatrix.enabled()) assertFalse(vk.capabilities().supports(ContractionOp.DOT, DType.F16));
    }

    @Test
    void f16DotsMatchTheCpu() {
        assumeTrue(b.dots.coopConfig(DType.F16).isPresent(), () -> "no f16 cooperative matrices: " + b.dev.coopMatrix.describe());
        assertTrue(b.dots.gemm(DType.F16, 4096, 4096).name().startsWith("gemm-coopmat-f16"));
        check(DType.F16, 0x1p-9);
    }

    @Test
    void bf16DotsMatchTheCpu() {
        assumeTrue(b.dots.coopConfig(DType.BF16).isPresent(), () -> "no bf16 cooperative matrices: " + b.dev.coopMatrix.describe());
        check(DType.BF16, 0x1p-6);
    }

    /** {@code [m,k]·[k,n]} for shapes at and around the 128×128×32 tiles, and a batched product. */
    private static void check(DType t, double rel) {
        int[][] shapes = {{1, 1, 1}, {17, 33, 65}, {16, 16, 16}, {128, 32, 128}, {129, 40, 136}, {300, 200, 136}, {64, 8, 8}, {5, 1000, 3}};
        for (int[] s : shapes) {
            compare(t, rel, s[0] + "x" + s[1] + "x" + s[2], GemmCheck.random(t, s[0], s[1], 1), GemmCheck.random(t, s[1], s[2], 2), false);
        }
        compare(t, rel, "batched 3x33x40x24", GemmCheck.random(t, 3 * 33, 40, 3).reshape(3, 33, 40), GemmCheck.random(t, 3 * 40, 24, 4).reshape(3, 40, 24), true);
    }

    private static void compare(DType t, double rel, String what, Tensor a, Tensor bb, boolean batched) {
        try (a; bb; Tensor av = a.to(vk); Tensor bv = bb.to(vk)) {
            Map<String, Long> before = vk.fallbackCounts();
            float[] got, want;
            try (Tensor r = batched ? av.dot(new int[] {2}, new int[] {0}, bv, new int[] {1}, new int[] {0}) : av.dot(bv)) {
                assertEquals(t, r.dtype());
                got = r.toFloatArray();
            }
            assertEquals(before, vk.fallbackCounts(), what + " fell back");
            try (Tensor r = batched ? a.dot(new int[] {2}, new int[] {0}, bb, new int[] {1}, new int[] {0}) : a.dot(bb)) {
                want = r.toFloatArray();
            }
            assertEquals(want.length, got.length, what);
            for (int i = 0; i < want.length; i++) {
                double tol = rel * Math.abs(want[i]) + 1e-2;
                if (Math.abs(got[i] - want[i]) > tol) fail(t + " " + what + " element " + i + ": vulkan " + got[i] + ", cpu " + want[i]);
            }
        }
    }
}
