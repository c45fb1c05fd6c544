package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compiled functions replayed as CUDA graphs ({@link CapturedGraphs}): the replays give the values
 * of the cpu engine for inputs that change every call, the results stay valid after later replays,
 * and a graph with a host fallback is refused and still runs.
 */
@Tag("gpu")
class CudaGraphsTest {
    private static Engine gpu;
    private static CudaBackend backend;

    @BeforeAll
    static void needsCuda() {
        Assumptions.assumeTrue(CudaAvailability.get().available(), () -> "cuda unavailable: " + CudaAvailability.get().reason());
        gpu = Engine.select("cuda");
        backend = (CudaBackend) gpu.backend();
        Assumptions.assumeTrue(backend.config().graphs(), "graphs turned off");
    }

    private static float[] random(Random r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) r.nextGaussian();
        return v;
    }

    /** relu(x·w + b)·2 summed per row, and x·w itself: a dot (cuBLAS), fused chains, a constant, a reduction. */
    private static List<Tensor> step(List<Tensor> xs) {
        Tensor h = xs.get(0).dot(xs.get(1));
        Tensor y = h.add(xs.get(2)).maximum(0.0).multiply(2.0);
        return List.of(y.sum(new int[] {1}), h);
    }

    @Test
    void replaysMatchTheCpuEngineAndEarlierResultsSurvive() {
        CompiledFunction f = Jit.compileList(CudaGraphsTest::step);
        Random r = new Random(7);
        long[] before = backend.graphCounts();
        try (var _ = Tensor.scope()) {
            List<Tensor> kept = new java.util.ArrayList<>();
            List<float[]> expected = new java.util.ArrayList<>();
            for (int call = 0; call < 6; call++) {
                float[] x = random(r, 33 * 70), w = random(r, 70 * 19), b = random(r, 19);
                List<Tensor> cpuIn = List.of(Tensor.of(x).reshape(33, 70), Tensor.of(w).reshape(70, 19), Tensor.of(b));
                List<Tensor> want = step(cpuIn);
                List<Tensor> got = f.apply(cpuIn.stream().map(t -> t.to(gpu)).toList());
                kept.add(got.get(0));
                expected.add(want.get(0).toFloatArray());
                assertClose(want.get(1).toFloatArray(), got.get(1).toFloatArray(), "x·w, call " + call);
            }
            // Replays write into the same graph buffers; the results handed out earlier are copies and keep their values.
            for (int call = 0; call < kept.size(); call++) assertClose(expected.get(call), kept.get(call).toFloatArray(), "row sums, call " + call);
        }
        long[] after = backend.graphCounts();
        assertEquals(1, after[0] - before[0], "one graph captured");
        assertEquals(6 - CapturedGraphs.PROBE_RUNS, after[1] - before[1], "replays after the probe runs");
    }

    @Test
    void aGraphWithAHostFallbackIsRefusedAndStillRuns() {
        // Linear algebra runs on the cpu engine (a fallback): host traffic in the probe runs.
        CompiledFunction f = Jit.compileList(xs -> {
            Tensor l = dev.jburn.LinAlg.cholesky(xs.get(0).exp().reshape(1, 1));
            return List.of(l.multiply(l).add(1.0));
        });
        long[] before = backend.graphCounts();
        try (var _ = Tensor.scope()) {
            for (int call = 0; call < 4; call++) {
                float v = call;
                Tensor x = Tensor.of(new float[] {v}).to(gpu);
                assertEquals((float) Math.exp(v) + 1f, f.apply(List.of(x)).getFirst().toFloatArray()[0], 1e-4f * (float) Math.exp(v));
            }
        }
        long[] after = backend.graphCounts();
        assertEquals(0, after[0] - before[0], "nothing captured");
        assertEquals(1, after[2] - before[2], "refused once");
    }

    /** A large graph of a kernel or two is captured once and dropped: copying its inputs and result would cost more than it saves. */
    @Test
    void aLargeElementwiseGraphIsNotReplayed() {
        CompiledFunction f = Jit.compileList(in -> List.of(in.get(0).multiply(in.get(1)).add(in.get(2)).tanh().reshape(1024, 4096)));
        Random r = new Random(11);
        try (var _ = Tensor.scope()) {
            List<Tensor> cpuIn = List.of(Tensor.of(random(r, 1 << 22)), Tensor.of(random(r, 1 << 22)), Tensor.of(random(r, 1 << 22)));
            float[] want = f.apply(cpuIn).getFirst().toFloatArray();
            List<Tensor> in = cpuIn.stream().map(t -> t.to(gpu)).toList();
            backend.synchronize();
            long live = backend.liveBytes();
            long[] before = backend.graphCounts();
            for (int call = 0; call < 5; call++) {
                try (Tensor got = f.apply(in).getFirst()) {
                    assertClose(want, got.toFloatArray(), "call " + call);
                }
            }
            backend.synchronize();
            long[] after = backend.graphCounts();
            assertEquals(0, after[0] - before[0], "not kept as a graph");
            assertEquals(0, after[1] - before[1], "never replayed");
            assertEquals(1, after[2] - before[2], "refused once");
            assertEquals(live, backend.liveBytes(), "the dropped capture's buffers are freed");
        }
    }

    private static void assertClose(float[] want, float[] got, String what) {
        assertEquals(want.length, got.length, what);
        for (int i = 0; i < want.length; i++) {
            assertTrue(Math.abs(want[i] - got[i]) <= 1e-4f * (1 + Math.abs(want[i])), what + " [" + i + "]: " + want[i] + " vs " + got[i]);
        }
    }
}
