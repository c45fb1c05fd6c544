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

    /**
     * A group that reads more buffers than one pipeline may bind runs op by op on the device and
     * equals eager evaluation; a narrower one is still one shader. (On lavapipe, which allows 32
     * storage buffers, a 49-binding group shader from a conv gradient overran the driver's binding
     * arrays and crashed the JVM in its queue thread.)
     */
    @Test
    void aGroupWiderThanAPipelineBindsRunsOpByOp() {
        VulkanBackend backend = (VulkanBackend) vk.backend();
        int wide = CommandQueue.MAX_BINDINGS + 6; // past the cap on every device, and past lavapipe's 32
        int narrow = 12;
        assertTrue(backend.pipelines.fitsBindings(narrow + 1) && !backend.pipelines.fitsBindings(wide + 1));
        for (int n : new int[] {narrow, wide}) {
            CompiledFunction f = Jit.compileList(in -> {
                Tensor s = in.get(0);
                for (int i = 1; i < in.size(); i++) s = s.add(in.get(i));
                return List.of(s);
            });
            try (var scope = Tensor.scope()) {
                List<Tensor> xs = new java.util.ArrayList<>();
                for (int i = 0; i < n; i++) xs.add(values(257, i));
                f.apply(xs).getFirst().close(); // trace and build
                long before = backend.stats().dispatches();
                float[] jit = f.apply(xs).getFirst().toFloatArray();
                long dispatches = backend.stats().dispatches() - before;
                assertEquals(n == narrow ? 1 : n - 1, dispatches, n + " inputs");
                Tensor s = xs.getFirst();
                for (int i = 1; i < n; i++) s = s.add(xs.get(i));
                assertArrayEquals(s.toFloatArray(), jit, n + " inputs");
            }
        }
    }

    /**
     * A rank-0 chain read by two groups (as Adam's bias corrections are read by every parameter's update) is
     * recomputed inside each group's shader: two dispatches, none for the scalar, and eager's bits.
     */
    @Test
    void aScalarChainReadByTwoGroupsRunsInsideEachShader() {
        VulkanBackend backend = (VulkanBackend) vk.backend();
        java.util.function.Function<List<Tensor>, List<Tensor>> fn = in -> {
            Tensor c = in.get(2).multiply(0.5).add(2.0).negate().add(1.0);
            return List.of(in.get(0).divide(c).add(in.get(1)), in.get(1).multiply(c).subtract(in.get(0)));
        };
        CompiledFunction f = Jit.compileList(fn);
        try (var scope = Tensor.scope()) {
            List<Tensor> in = List.of(values(10_001, 0), values(10_001, 1), Tensor.scalar(3f).to(vk));
            f.apply(in); // trace, optimize and build the pipelines
            assertEquals(List.of("fused", "fused"), f.graph().nodes().stream().map(n -> n.prim().name()).toList(), f.graph().toString());
            var fallbacks = vk.fallbackCounts();
            long before = backend.stats().dispatches();
            List<Tensor> jit = f.apply(in);
            float[] first = jit.get(0).toFloatArray(), second = jit.get(1).toFloatArray();
            assertEquals(2, backend.stats().dispatches() - before, "one shader per group, none for the scalar");
            assertEquals(fallbacks, vk.fallbackCounts());
            List<Tensor> eager = fn.apply(in);
            assertArrayEquals(eager.get(0).toFloatArray(), first);
            assertArrayEquals(eager.get(1).toFloatArray(), second);
        }
    }
}
