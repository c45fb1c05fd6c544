package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.conformance.ChannelsLastLayer;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A channels-last conv layer's compiled forward and both cotangents ({@link ChannelsLastConvs}: each group one strided
 * implicit GEMM, no layout moves) against the cpu engine: 1 to 3 spatial axes, one channel (traced as a reshape),
 * strides, asymmetric padding, kernel dilation, output channels across a tile, a weight gradient split along K. Every
 * group must run as a strided GEMM (forward conv and input cotangent as {@code FORWARD} groups, the kernel cotangent
 * as a {@code KERNEL_GRADIENT} group) with no fallback.
 */
class VulkanChannelsLastConvTest {
    private static Tensor random(Random rnd, int... dims) {
        int n = 1;
        for (int d : dims) n *= d;
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) rnd.nextGaussian();
        return Tensor.of(v).reshape(Shape.of(dims));
    }

    @Test
    void channelsLastLayersMatchTheCpuEngine() {
        Engine vk = TestDevice.engine();
        ChannelsLastConvs cl = ((VulkanBackend) vk.backend()).channelsLast;
        ConvKernels convs = ((VulkanBackend) vk.backend()).convs;
        long fallbacks = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
        List<ChannelsLastLayer> cases = List.of(
                new ChannelsLastLayer(new int[] {9, 11}, 5, 70, new int[] {3, 3}, new int[] {1, 1}, new int[][] {{1, 1}, {1, 1}}, new int[] {1, 1}),
                new ChannelsLastLayer(new int[] {12, 10}, 1, 6, new int[] {3, 2}, new int[] {2, 2}, new int[][] {{1, 0}, {0, 1}}, new int[] {2, 1}),
                new ChannelsLastLayer(new int[] {30}, 3, 4, new int[] {5}, new int[] {1}, new int[][] {{2, 2}}, new int[] {1}),
                new ChannelsLastLayer(new int[] {5, 6, 4}, 2, 3, new int[] {2, 3, 2}, new int[] {1, 2, 1}, new int[][] {{0, 1}, {1, 0}, {1, 1}}, new int[] {1, 1, 1}),
                new ChannelsLastLayer(new int[] {13, 13}, 32, 64, new int[] {3, 3}, new int[] {1, 1}, new int[][] {{0, 0}, {0, 0}}, new int[] {1, 1}));
        List<ConvGemmShader.Order> orders = new ArrayList<>(java.util.Arrays.asList(ConvGemmShader.Order.values()));
        orders.addFirst(null); // each layout's own order first, then every order on every layout
        long tapMajor = convs.orderRuns.get(ConvGemmShader.Order.TAP_MAJOR.ordinal());
        try {
            for (ConvGemmShader.Order order : orders) {
                convs.orderOverride = order;
                Random rnd = new Random(2611);
                for (ChannelsLastLayer c : cases) {
                    int batch = c == cases.getLast() ? 8 : 3;
                    Tensor x = random(rnd, c.inputDims(batch));
                    Tensor w = random(rnd, c.kernelDims());
                    Tensor probe;
                    try (Tensor y = x.conv(w, c.options())) {
                        probe = random(rnd, y.shape().dims());
                    }
                    List<Tensor> cpuIn = List.of(x, w, probe);
                    List<Tensor> want = Jit.compileList(c::step).apply(cpuIn);
                    List<Tensor> vkIn = new ArrayList<>();
                    for (Tensor t : cpuIn) vkIn.add(t.to(vk));
                    long fwd = cl.forwardRuns.get(), kg = cl.kernelGradientRuns.get(), splits = convs.splitRuns.get();
                    CompiledFunction f = Jit.compileList(c::step);
                    List<Tensor> got = f.apply(vkIn);
                    String what = "conv " + java.util.Arrays.toString(c.inputDims(batch)) + " * " + java.util.Arrays.toString(c.kernelDims())
                            + " strides " + java.util.Arrays.toString(c.strides()) + ", order " + (order == null ? "picked" : order);
                    assertEquals(2, cl.forwardRuns.get() - fwd, what + ": the forward conv and the input cotangent as strided GEMMs");
                    assertEquals(1, cl.kernelGradientRuns.get() - kg, what + ": the kernel cotangent as a strided GEMM");
                    if (c == cases.getLast()) assertTrue(convs.splitRuns.get() > splits, "the weight gradient split along K");
                    String[] names = {"output", "input cotangent", "kernel cotangent"};
                    for (int i = 0; i < 3; i++) {
                        assertEquals(want.get(i).shape(), got.get(i).shape(), what + " " + names[i]);
                        float[] a = want.get(i).toFloatArray(), b = got.get(i).toFloatArray();
                        double max = 0;
                        for (float v : a) max = Math.max(max, Math.abs(v));
                        for (int j = 0; j < a.length; j++) {
                            if (!(Math.abs(a[j] - b[j]) <= 1e-4 * (1 + max))) fail(what + " " + names[i] + ": element " + j + " is " + b[j] + ", the cpu engine's " + a[j]);
                        }
                    }
                    for (Tensor t : want) t.close();
                    for (Tensor t : got) t.close();
                    for (Tensor t : vkIn) t.close();
                    for (Tensor t : cpuIn) t.close();
                }
                if (order == null) {
                    // channels-last inputs of more than one channel read channel-contiguous
                    assertTrue(convs.orderRuns.get(ConvGemmShader.Order.TAP_MAJOR.ordinal()) - tapMajor >= 8, "tap-major GEMMs");
                }
            }
        } finally {
            convs.orderOverride = null;
        }
        assertEquals(fallbacks, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), "fallbacks: " + vk.fallbackCounts());
    }
}
