package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The double-buffered f32 GEMM ({@code -Djburn.vulkan.gemmDoubleBuffer=true}, {@link GemmShaderDoubleBuffered})
 * on a private engine: the K edge (K not a multiple of 8, K below one step), M and N edges, both load
 * kinds and a batch, against the cpu engine, with no fallback.
 */
class VulkanGemmDoubleBufferTest {
    private static Engine vk;

    @BeforeAll
    static void privateEngine() {
        TestDevice.require();
        vk = Engine.create(new EngineProvider() {
            @Override public String name() { return "vulkan"; }
            @Override public int priority() { return -100; }
            @Override public Availability availability() { return new VulkanProvider().availability(); }
            @Override public Backend create(EngineConfig c) { return new VulkanBackend(VulkanConfig.fromSystemProperties().withGemmDoubleBuffer(true)); }
        }, EngineConfig.defaults());
    }

    @AfterAll
    static void close() {
        if (vk != null) vk.backend().close();
    }

    @Test
    void matchesTheCpu() {
        VulkanBackend b = (VulkanBackend) vk.backend();
        assertEquals("gemm-f32-db8-wide", b.dots.gemm(DType.F32, 4096, 4096).name());
        assertEquals("gemm-f32-db8", b.dots.gemm(DType.F32, 65, 33).name());
        int[][] shapes = {{1, 1, 1}, {17, 33, 65}, {70, 5, 33}, {133, 68, 260}, {131, 70, 257}, {128, 8, 128}, {129, 16, 4}};
        for (int[] s : shapes) {
            try (Tensor a = GemmCheck.random(DType.F32, s[0], s[1], 5); Tensor c = GemmCheck.random(DType.F32, s[1], s[2], 6)) {
                assertClose(s[0] + "x" + s[1] + "x" + s[2], a, c, false);
            }
        }
        try (Tensor a = GemmCheck.random(DType.F32, 3 * 40, 36, 7); Tensor c = GemmCheck.random(DType.F32, 3 * 36, 24, 8);
             Tensor a3 = a.reshape(3, 40, 36); Tensor c3 = c.reshape(3, 36, 24)) {
            assertClose("batched 3x40x36x24", a3, c3, true);
        }
    }

    private static void assertClose(String what, Tensor a, Tensor c, boolean batched) {
        float[] got, want;
        long before = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
        try (Tensor av = a.to(vk); Tensor cv = c.to(vk);
             Tensor r = batched ? av.dot(new int[] {2}, new int[] {0}, cv, new int[] {1}, new int[] {0}) : av.dot(cv)) {
            got = r.toFloatArray();
        }
        assertEquals(before, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), what + " fell back");
        try (Tensor r = batched ? a.dot(new int[] {2}, new int[] {0}, c, new int[] {1}, new int[] {0}) : a.dot(c)) {
            want = r.toFloatArray();
        }
        assertEquals(want.length, got.length, what);
        for (int i = 0; i < want.length; i++) assertEquals(want[i], got[i], 1e-5 * (1 + Math.abs(want[i])), what + " element " + i);
    }
}
