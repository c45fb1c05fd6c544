package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Losses;
import dev.jburn.train.TrainStep;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Compiled graphs recorded once and replayed ({@link ReplayedGraphs}) give what the ordinary run gives, bit for bit:
 * a CNN's Adam steps, a function's results kept across later replays (each replay copies its results out), graphs
 * that read device data on the host (never recorded), more graphs than the engine keeps recordings of, and inputs
 * of another size.
 */
class VulkanGraphReplayTest {
    private static Engine replaying;
    private static Engine ordinary;

    @BeforeAll
    static void engines() {
        TestDevice.require();
        replaying = VulkanHostPathTest.privateEngine(c -> c.withGraphs(true));
        ordinary = VulkanHostPathTest.privateEngine(c -> c.withGraphs(false));
    }

    @AfterAll
    static void close() {
        if (replaying != null) replaying.backend().close();
        if (ordinary != null) ordinary.backend().close();
    }

    private static long[] counts() { return ((VulkanBackend) replaying.backend()).graphCounts(); }

    /** Six compiled Adam steps of a small CNN (conv, batch norm, pooling, GEMMs, fused groups, reductions). */
    @Test
    void trainingStepsReplayedGiveTheSameBits() {
        Model m = TestModels.smallCnn();
        long[] before = counts();
        List<float[]> want = steps(m, ordinary), got = steps(m, replaying);
        long[] after = counts();
        assertEquals(1, after[0] - before[0], "the step is recorded once");
        assertTrue(after[1] - before[1] >= 3, "steps 3 to 6 are replays");
        assertEquals(before[2], after[2], "nothing refused");
        for (int i = 0; i < want.size(); i++) assertArrayEquals(want.get(i), got.get(i), "value " + i + " (losses, then parameters)");
    }

    private static List<float[]> steps(Model m, Engine e) {
        TrainStep step = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-2));
        TrainStep.State s = step.init(m.init(Prng.key(0).to(e)), Prng.key(1).to(e));
        List<float[]> out = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Tensor x = Prng.uniform(Prng.key(10 + i), Shape.of(8, 12, 12, 1), DType.F32, -1, 1).values().to(e);
            Tensor y = Prng.randint(Prng.key(20 + i), 0, 10, Shape.of(8), DType.S32).values().to(e);
            TrainStep.Result r = step.apply(s, x, y);
            out.add(r.loss().toFloatArray());
            s = r.state();
        }
        for (String name : new java.util.TreeSet<>(s.model().params().keySet())) out.add(s.model().get(name).toFloatArray());
        return out;
    }

    /** Results of earlier calls stay as they were while later calls replay the same recording. */
    @Test
    void eachReplaysResultsAreItsOwn() {
        CompiledFunction f = Jit.compile((Tensor a, Tensor b) -> a.multiply(b).add(a).exp().sum(0).add(b.sum(1).sum()));
        List<Tensor> results = new ArrayList<>();
        List<float[]> want = new ArrayList<>();
        long[] before = counts();
        for (int i = 0; i < 7; i++) {
            Tensor a = Prng.uniform(Prng.key(i), Shape.of(33, 17), DType.F32, -1, 1).values();
            Tensor b = Prng.uniform(Prng.key(100 + i), Shape.of(33, 17), DType.F32, -1, 1).values();
            results.add(f.apply(a.to(replaying), b.to(replaying)));
            want.add(f.apply(a.to(ordinary), b.to(ordinary)).toFloatArray());
        }
        for (int i = 0; i < results.size(); i++) assertArrayEquals(want.get(i), results.get(i).toFloatArray(), "call " + i);
        long[] after = counts();
        assertEquals(1, after[0] - before[0]);
        assertEquals(5, after[1] - before[1], "calls 3 to 7 replay");
    }

    /** Replays hold no memory beyond the recording's: the engine's live bytes are flat from the fourth call to the fortieth. */
    @Test
    void replaysKeepMemoryFlat() {
        // An engine of its own: the other tests leave unclosed tensors on the shared one, which a garbage collection
        // during this loop would free, moving its live bytes.
        Engine own = VulkanHostPathTest.privateEngine(c -> c.withGraphs(true));
        try {
            VulkanBackend b = (VulkanBackend) own.backend();
            CompiledFunction f = Jit.compile((Tensor a, Tensor w) -> a.dot(w).tanh().sum(0).add(a.sum()));
            Tensor a = Prng.uniform(Prng.key(7), Shape.of(64, 32), DType.F32, -1, 1).values().to(own);
            Tensor w = Prng.uniform(Prng.key(8), Shape.of(32, 16), DType.F32, -1, 1).values().to(own);
            long flat = 0;
            for (int i = 0; i < 40; i++) {
                f.apply(a, w).close();
                b.synchronize();
                if (i == 3) flat = b.stats().liveBytes();
                if (i > 3) assertEquals(flat, b.stats().liveBytes(), "live device bytes after call " + i);
            }
            assertTrue(b.graphCounts()[1] >= 30, "the calls replay: " + java.util.Arrays.toString(b.graphCounts()));
        } finally {
            own.backend().close();
        }
    }

    /** Two threads calling one compiled function (probes, the recording and replays interleaved): each result right. */
    @Test
    void threadsShareARecording() throws Exception {
        CompiledFunction f = Jit.compile((Tensor a, Tensor b) -> a.dot(b).add(a.sum(1).reshape(24, 1)).maximum(0.0));
        long[] before = counts();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 12; i++) {
                        Tensor a = Prng.uniform(Prng.key(thread * 100 + i), Shape.of(24, 16), DType.F32, -1, 1).values();
                        Tensor b = Prng.uniform(Prng.key(thread * 100 + 50 + i), Shape.of(16, 8), DType.F32, -1, 1).values();
                        float[] want = f.apply(a.to(ordinary), b.to(ordinary)).toFloatArray();
                        assertArrayEquals(want, f.apply(a.to(replaying), b.to(replaying)).toFloatArray(), "thread " + thread + ", call " + i);
                    }
                    return null;
                }));
            }
            for (var d : done) d.get();
        } finally {
            pool.shutdown();
        }
        long[] after = counts();
        assertEquals(1, after[0] - before[0], "recorded once");
        assertTrue(after[1] - before[1] >= 20, "the calls after the two probes replay: " + (after[1] - before[1]));
    }

    /** A graph whose run reads device data on the host (a loop's predicate) is not recorded, and stays right. */
    @Test
    void aGraphThatReadsBackIsNotRecorded() {
        CompiledFunction f = Jit.compile((Tensor x) -> x.multiply(x).add(1.0).log().sum().add(x.max()));
        CompiledFunction g = Jit.compile((Tensor x) -> x.sort(0).multiply(2.0).add(x));
        long[] before = counts();
        for (int i = 0; i < 5; i++) {
            Tensor x = Prng.uniform(Prng.key(40 + i), Shape.of(64), DType.F32, -3, 3).values();
            assertArrayEquals(f.apply(x.to(ordinary)).toFloatArray(), f.apply(x.to(replaying)).toFloatArray(), "f, call " + i);
            assertArrayEquals(g.apply(x.to(ordinary)).toFloatArray(), g.apply(x.to(replaying)).toFloatArray(), "g, call " + i);
        }
        long[] after = counts();
        assertTrue(after[0] - before[0] >= 1, "f is recorded");
        boolean gFallsBack = !replaying.fallbackCounts().isEmpty();
        if (gFallsBack) assertTrue(after[2] - before[2] >= 1, "g falls back to the cpu (a read-back): not recorded");
    }

    /**
     * A graph of one dispatch over large inputs is recorded once and dropped: copying its inputs and result would cost
     * more than the dispatch it saves. It keeps running the ordinary way, right, and the dropped recording leaks nothing.
     */
    @Test
    void aLargeElementwiseGraphIsNotReplayed() {
        // An engine of its own: other tests' tensors freed meanwhile would move the shared engine's live bytes.
        // 16 MiB to copy for a dispatch or two: more than a GPU's assumed 400 GB/s pays for (and a CPU device's 8 GB/s).
        Engine own = VulkanHostPathTest.privateEngine(c -> c.withGraphs(true));
        try {
            VulkanBackend b = (VulkanBackend) own.backend();
            CompiledFunction fma = Jit.compileList(in -> List.of(in.get(0).multiply(in.get(1)).add(in.get(2)).tanh().reshape(1024, 1024))); // a fused group and a reshape
            List<Tensor> xs = new ArrayList<>();
            for (int i = 0; i < 3; i++) xs.add(Prng.uniform(Prng.key(60 + i), Shape.of(1 << 20), DType.F32, -1, 1).values());
            float[] want = fma.apply(xs.stream().map(x -> x.to(ordinary)).toList()).getFirst().toFloatArray();
            List<Tensor> on = xs.stream().map(x -> x.to(own)).toList();
            b.synchronize();
            long live = b.stats().liveBytes();
            for (int call = 0; call < 5; call++) {
                try (Tensor r = fma.apply(on).getFirst()) {
                    assertArrayEquals(want, r.toFloatArray(), "call " + call);
                }
            }
            b.synchronize();
            assertArrayEquals(new long[] {0, 0, 1}, b.graphCounts(), "recorded (and dropped) once, never replayed, refused once");
            assertEquals(live, b.stats().liveBytes(), "the dropped recording's buffers are freed");
        } finally {
            own.backend().close();
        }
    }

    /** More graphs than the engine keeps recordings of, and a second input size: each call still right. */
    @Test
    void manyGraphsAndSizes() {
        List<CompiledFunction> fs = new ArrayList<>();
        for (int k = 0; k < ReplayedGraphs.MAX_GRAPHS + 3; k++) {
            double c = k + 0.5;
            fs.add(Jit.compile((Tensor x) -> x.multiply(c).add(x.multiply(x)).max(0).add(x.sum())));
        }
        long[] before = counts();
        for (int n : new int[] {40, 25}) {
            for (int k = 0; k < fs.size(); k++) {
                for (int call = 0; call < 4; call++) {
                    Tensor x = Prng.uniform(Prng.key(n * 1000 + k * 10 + call), Shape.of(n, 3), DType.F32, -1, 1).values();
                    assertArrayEquals(fs.get(k).apply(x.to(ordinary)).toFloatArray(), fs.get(k).apply(x.to(replaying)).toFloatArray(),
                            "graph " + k + ", size " + n + ", call " + call);
                }
            }
        }
        long[] after = counts();
        assertEquals(2 * fs.size(), after[0] - before[0], "each graph recorded once per input size (older recordings evicted)");
        assertEquals(4 * fs.size(), after[1] - before[1], "the third and fourth calls of each replay");
    }
}
