package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * f32 {@code windowMax/Min} in one dispatch ({@link WindowExtremeKernels}) against the cpu engine bit for bit: ranks 1
 * to 4, windows, strides, low and high padding (windows of padding only among them), dilations; NaN, ±0 and ±Inf
 * among the values; eager and inside a compiled function with its gradient (the max pool of a training step). No
 * fallback, and no slices: one dispatch per window reduction.
 */
class VulkanWindowExtremeTest {
    private static final float[] SPECIAL = {Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1f, -1f};

    @Test
    void windowExtremesMatchTheCpuEngine() {
        Engine vk = TestDevice.engine();
        VulkanBackend b = (VulkanBackend) vk.backend();
        long fallbacks = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
        Random rnd = new Random(1206);
        int ran = 0, paddingOnly = 0;
        for (int c = 0; c < 60; c++) {
            int rank = 1 + rnd.nextInt(4);
            int[] dims = new int[rank], win = new int[rank], st = new int[rank], dil = new int[rank];
            int[][] pad = new int[rank][2];
            for (int d = 0; d < rank; d++) {
                dims[d] = 1 + rnd.nextInt(rank > 2 ? 5 : 9);
                win[d] = 1 + rnd.nextInt(3);
                st[d] = 1 + rnd.nextInt(3);
                dil[d] = 1 + rnd.nextInt(2);
                pad[d][0] = rnd.nextInt(4); // up to 3: past a window's reach, so some windows are padding only
                pad[d][1] = rnd.nextInt(3);
            }
            boolean fits = true;
            for (int d = 0; d < rank; d++) fits &= dims[d] + pad[d][0] + pad[d][1] >= (win[d] - 1) * dil[d] + 1;
            if (!fits) continue; // the API refuses windows larger than the padded input
            int n = Arrays.stream(dims).reduce(1, (x, y) -> x * y);
            float[] v = new float[n];
            for (int i = 0; i < n; i++) v[i] = rnd.nextInt(4) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextGaussian();
            WindowOptions o = WindowOptions.defaults().withStrides(st).withDilations(dil).withPadding(Padding.explicit(pad));
            boolean max = c % 2 == 0;
            String what = (max ? "windowMax " : "windowMin ") + Arrays.toString(dims) + " window " + Arrays.toString(win) + " strides "
                    + Arrays.toString(st) + " dilations " + Arrays.toString(dil) + " padding " + Arrays.deepToString(pad);
            try (Tensor x = Tensor.of(v).reshape(Shape.of(dims)); Tensor want = max ? x.windowMax(win, o) : x.windowMin(win, o);
                 Tensor xv = x.to(vk)) {
                long before = b.stats().dispatches();
                try (Tensor got = max ? xv.windowMax(win, o) : xv.windowMin(win, o)) {
                    if (want.size() > 0) assertEquals(1, b.stats().dispatches() - before, what + ": one dispatch");
                    same(what, want, got);
                    ran++;
                    for (float a : want.toFloatArray()) if (a == (max ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY)) paddingOnly++;
                }
            }
        }
        assertTrue(ran >= 30 && paddingOnly > 0, ran + " cases, " + paddingOnly + " identity results");
        assertEquals(fallbacks, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), "fallbacks: " + vk.fallbackCounts());
    }

    @Test
    void aCompiledMaxPoolAndItsGradientMatchTheCpuEngine() {
        Engine vk = TestDevice.engine();
        int[] win = {1, 2, 2, 1};
        WindowOptions o = WindowOptions.defaults().withStrides(1, 2, 2, 1);
        CompiledFunction f = Jit.compileList(xs -> {
            Tensor pooled = xs.get(0).windowMax(win, o);
            return java.util.List.of(pooled, dev.jburn.autodiff.Autodiff.grad((Tensor t) -> t.windowMax(win, o).multiply(xs.get(1)).sum()).apply(xs.get(0)));
        });
        Random rnd = new Random(7);
        float[] v = new float[4 * 6 * 6 * 3];
        for (int i = 0; i < v.length; i++) v[i] = (float) rnd.nextGaussian();
        float[] w = new float[4 * 3 * 3 * 3];
        for (int i = 0; i < w.length; i++) w[i] = (float) rnd.nextGaussian();
        try (Tensor x = Tensor.of(v).reshape(Shape.of(4, 6, 6, 3)); Tensor probe = Tensor.of(w).reshape(Shape.of(4, 3, 3, 3));
             Tensor xv = x.to(vk); Tensor pv = probe.to(vk)) {
            var want = f.apply(java.util.List.of(x, probe));
            var got = f.apply(java.util.List.of(xv, pv));
            same("pool", want.get(0), got.get(0));
            same("pool gradient", want.get(1), got.get(1));
            want.forEach(Tensor::close);
            got.forEach(Tensor::close);
        }
    }

    private static void same(String what, Tensor want, Tensor got) {
        assertEquals(want.shape(), got.shape(), what);
        float[] a = want.toFloatArray(), g = got.toFloatArray();
        for (int i = 0; i < a.length; i++) {
            boolean ok = Float.isNaN(a[i]) ? Float.isNaN(g[i]) : Float.floatToRawIntBits(a[i]) == Float.floatToRawIntBits(g[i]);
            if (!ok) fail(what + ": element " + i + " is " + g[i] + ", the cpu engine's " + a[i]);
        }
    }
}
