package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Losses;
import dev.jburn.train.TrainStep;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Element-wise groups that feed another group run with it as one kernel of several outputs ({@code FusedGraphs},
 * {@code ChainedFusedGroups}): Adam's {@code m'}, {@code v'} and parameter update are one dispatch, not three. The
 * results are the separate kernels' to the bit, NaN, ±0 and ±Inf included, and a training step dispatches two kernels
 * a parameter fewer.
 */
class VulkanChainedGroupsTest {
    private static final float[] SPECIAL = {0f, -0f, 1.5f, -2.25f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, -Float.MAX_VALUE, 3e-39f, 7f, -1e-3f};

    private static List<float[]> both(VulkanBackend b, java.util.function.Supplier<List<float[]>> run, boolean chain) {
        boolean was = b.fused.chain;
        b.fused.chain = chain;
        try {
            return run.get();
        } finally {
            b.fused.chain = was;
        }
    }

    @Test
    void aChainOfGroupsGivesTheSeparateKernelsBits() {
        Engine vk = TestDevice.engine();
        VulkanBackend b = (VulkanBackend) vk.backend();
        // m' = 0.9 m + 0.1 g, v' = 0.99 v + 0.01 g², p' = p - lr m' / (sqrt(v') + eps): outputs m', v' and p'
        // A function compiled per mode: the engine rewrites a graph into its kernels once, when it first runs it.
        java.util.function.Supplier<CompiledFunction> adamLike = () -> Jit.compileList(xs -> {
            Tensor p = xs.get(0), m = xs.get(1), v = xs.get(2), g = xs.get(3);
            Tensor m2 = m.multiply(0.9).add(g.multiply(0.1)), v2 = v.multiply(0.99).add(g.multiply(g).multiply(0.01));
            return List.of(p.subtract(m2.multiply(1e-3).divide(v2.sqrt().add(1e-8))), m2, v2);
        });
        List<Tensor> in = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            float[] a = new float[SPECIAL.length * SPECIAL.length];
            for (int i = 0; i < a.length; i++) a[i] = SPECIAL[(k == 0 ? i : k % 2 == 0 ? i / SPECIAL.length : i * 7 + k) % SPECIAL.length];
            in.add(Tensor.of(a).to(vk));
        }
        java.util.function.Supplier<List<float[]>> run = () -> adamLike.get().apply(in).stream().map(t -> {
            try (t) {
                return t.toFloatArray();
            }
        }).toList();
        long before = b.stats().dispatches();
        List<float[]> chained = both(b, run, true);
        long chainedDispatches = b.stats().dispatches() - before;
        before = b.stats().dispatches();
        List<float[]> separate = both(b, run, false);
        long separateDispatches = b.stats().dispatches() - before;
        for (int k = 0; k < 3; k++) {
            float[] want = separate.get(k), got = chained.get(k);
            for (int i = 0; i < want.length; i++) {
                assertEquals(Float.floatToRawIntBits(want[i]) , Float.floatToRawIntBits(got[i]), "output " + k + " element " + i + ": " + want[i] + " vs " + got[i]);
            }
        }
        assertEquals(1, chainedDispatches, "one kernel for the three outputs");
        assertEquals(3, separateDispatches, "one kernel per output without chaining");
        in.forEach(Tensor::close);
    }

    @Test
    void adamStepsDispatchTwoKernelsAParameterFewerWithTheSameBits() {
        Engine vk = TestDevice.engine();
        VulkanBackend b = (VulkanBackend) vk.backend();
        Model m = Model.input("x", Shape.of(-1, 10, 10, 1))
                .conv2d(4, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .flatten().dense(16, Activation.RELU).dense(10);
        Tensor x = Prng.uniform(Prng.key(5), Shape.of(8, 10, 10, 1), DType.F32, -1, 1).values().to(vk);
        Tensor y = Prng.randint(Prng.key(6), 0, 10, Shape.of(8), DType.S32).values().to(vk);
        long[] dispatches = new long[2];
        List<List<float[]>> results = new ArrayList<>();
        for (boolean chain : new boolean[] {false, true}) {
            results.add(both(b, () -> {
                TrainStep step = TrainStep.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-2));
                TrainStep.State s = step.init(m.init(Prng.key(0).to(vk)), Prng.key(1).to(vk));
                List<float[]> out = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    long d0 = b.stats().dispatches();
                    TrainStep.Result r = step.apply(s, x, y);
                    if (i == 2) dispatches[chain ? 1 : 0] = b.stats().dispatches() - d0;
                    out.add(r.loss().toFloatArray());
                    s = r.state();
                }
                for (Map.Entry<String, Tensor> p : s.model().params().entrySet()) out.add(p.getValue().toFloatArray());
                return out;
            }, chain));
        }
        assertEquals(results.get(0).size(), results.get(1).size());
        for (int i = 0; i < results.get(0).size(); i++) assertArrayEquals(results.get(0).get(i), results.get(1).get(i), "value " + i);
        int params = 8; // conv kernel and bias, batch norm scale and offset, two dense kernels and biases
        assertTrue(dispatches[0] - dispatches[1] >= 2 * params, "dispatches a step: " + dispatches[0] + " separate, " + dispatches[1] + " chained");
    }
}
