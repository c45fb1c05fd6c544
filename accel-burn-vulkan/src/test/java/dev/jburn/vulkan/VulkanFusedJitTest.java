package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** A Jit-compiled element-wise chain runs on the device as one shader and equals eager evaluation. */
class VulkanFusedJitTest {
    private static Engine vk;

    @BeforeAll
    static void requireDevice() {
        vk = TestDevice.engine();
    }

    private static Tensor values(int n, float phase) {
        float[] v = new float[n];
        for (int i = 0; i < v.length; i++) v[i] = (float) Math.cos(i * 0.11 + phase) * 3;
        Tensor t = Tensor.of(v);
        if (t.engine() == vk) return t;
        try (t) {
            return t.to(vk);
        }
    }

    @Test
    void aTimesBPlusCIsOneDispatch() {
        VulkanBackend backend = (VulkanBackend) vk.backend();
        CompiledFunction f = Jit.compileList(in -> List.of(in.get(0).multiply(in.get(1)).add(in.get(2))));
        try (Tensor a = values(10_001, 0); Tensor b = values(10_001, 1); Tensor c = values(10_001, 2)) {
            f.apply(List.of(a, b, c)).getFirst().close(); // trace, optimize and build the pipeline
            var before = backend.stats();
            var fallbacks = vk.fallbackCounts();
            float[] jit;
            try (Tensor r = f.apply(List.of(a, b, c)).getFirst()) {
                jit = r.toFloatArray();
            }
            var after = backend.stats();
            assertEquals(1, after.dispatches() - before.dispatches(), "a*b+c should be one fused shader");
            assertEquals(0, after.pipelinesCreated() - before.pipelinesCreated());
            assertEquals(fallbacks, vk.fallbackCounts());
            float[] eager;
            try (Tensor ab = a.multiply(b); Tensor r = ab.add(c)) {
                eager = r.toFloatArray();
            }
            // One rounding per op in both: the fused shader rounds each node to f32 like the eager kernels.
            assertArrayEquals(eager, jit);
        }
    }

    @Test
    void aFusedReductionIsOneDispatch() {
        VulkanBackend backend = (VulkanBackend) vk.backend();
        CompiledFunction f = Jit.compile((Tensor a, Tensor b) -> a.multiply(b).sum());
        try (Tensor a = values(4096, 0); Tensor b = values(4096, 1)) {
            f.apply(a, b).close();
            long before = backend.stats().dispatches();
            float got;
            try (Tensor r = f.apply(a, b)) {
                got = r.toFloatArray()[0];
            }
            assertEquals(1, backend.stats().dispatches() - before, "sum(a*b) should be one fused shader");
            float want;
            try (Tensor ab = a.multiply(b); Tensor s = ab.sum()) {
                want = s.toFloatArray()[0];
            }
            assertEquals(want, got, 1e-3f * Math.max(1f, Math.abs(want)));
        }
    }
}
