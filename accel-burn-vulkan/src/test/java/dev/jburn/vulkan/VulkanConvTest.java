package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.conformance.RandomConvs;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link ConvShader}'s two forms against the cpu engine, through the backend (f32 sums in another order than
 * the cpu engine's GEMMs, so within a tolerance): 1 to 3 spatial axes, strides, negative and positive padding,
 * input and kernel dilation, feature and batch groups, infinite and NaN weights, empty sums; and weight-gradient
 * shaped convolutions (a kernel as large as the input plane, the batch as channels) whose long sums take the
 * work-group form ({@link ConvKernels#LONG_SUM}). None may fall back.
 */
class VulkanConvTest {
    @Test
    void convolutionsMatchTheCpuEngine() {
        ConvKernels kernels = ((VulkanBackend) TestDevice.engine().backend()).convs;
        boolean gemm = kernels.gemm;
        try {
            kernels.gemm = false; // every case on the per-output kernels
            convolutionsMatchTheCpuEngine(false);
            boolean prefetch = kernels.prefetch;
            for (boolean pf : new boolean[] {false, true}) {
                kernels.gemm = true; // the ungrouped ones as implicit GEMMs, without and with loads a step ahead
                kernels.prefetch = pf;
                long before = kernels.gemmRuns();
                convolutionsMatchTheCpuEngine(true);
                assertTrue(kernels.gemmRuns() - before >= 6, "implicit GEMMs: " + (kernels.gemmRuns() - before));
            }
            kernels.prefetch = prefetch;
        } finally {
            kernels.gemm = gemm;
        }
    }

    private void convolutionsMatchTheCpuEngine(boolean gemm) {
        Engine vk = TestDevice.engine();
        Backend v = vk.backend(), cpu = Engine.select("cpu").backend();
        long fallbacksBefore = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
        Random rnd = new Random(1810);
        int longSums = 0, chunked = 0;
        for (int c = 0; c < 20; c++) {
            RandomConvs cs = c % 5 == 4 ? weightGradient(rnd) : RandomConvs.next(rnd, c);
            float[] xs = uniform(cs.input().size(), rnd), ks = uniform(cs.kernel().size(), rnd);
            boolean special = c % 4 == 2 && ks.length > 1;
            if (special) { // weights that turn the zeros of padding and dilation holes into NaN
                ks[0] = Float.POSITIVE_INFINITY;
                ks[ks.length - 1] = Float.NaN;
            }
            if (cs.productsPerOutput() >= ConvKernels.LONG_SUM) longSums++;
            if (cs.productsPerOutput() >= ConvKernels.LONG_SUM && cs.kernel().size() / cs.kernel().dim(0) / cs.kernel().dim(1) > ConvShader.TAP_CHUNK) chunked++;
            String what = "conv " + cs.describe() + (special ? " (Inf, NaN weights)" : "") + (gemm ? ", implicit GEMM" : "");
            assertMatchesCpu(what, cs, xs, ks, cpu, v);
        }
        assertTrue(longSums >= 4, "the work-group form ran " + longSums + " times");
        assertTrue(chunked >= 1, "a work group walked its taps in chunks " + chunked + " times");
        assertEquals(fallbacksBefore, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), "fallbacks: " + vk.fallbackCounts());
    }

    /**
     * The implicit GEMM ({@link ConvGemmShader}) past one tile each way: output channels across 64 (70), positions
     * across many column tiles, K over several 16-steps with a partial last one, taps fewer and more than 16,
     * strides and input dilation (an input cotangent's shape), three axes, a long plane whose taps do not fit the
     * shared table, and weight-gradient shapes split along K ({@link ConvKernels#splits}).
     */
    @Test
    void implicitGemmTilesAndSplitsMatchTheCpuEngine() {
        Engine vk = TestDevice.engine();
        ConvKernels kernels = ((VulkanBackend) vk.backend()).convs;
        Backend v = vk.backend(), cpu = Engine.select("cpu").backend();
        long gemmBefore = kernels.gemmRuns(), splitBefore = kernels.splitRuns.get();
        int[] one2 = {1, 1}, zero2 = {0, 0};
        List<RandomConvs> cases = List.of(
                new RandomConvs(Shape.of(6, 5, 13, 13), Shape.of(70, 5, 3, 3), new ConvSpec(one2, one2, one2, one2, one2, 1, 1)),
                new RandomConvs(Shape.of(3, 7, 9, 11), Shape.of(33, 7, 5, 5), new ConvSpec(new int[] {2, 1}, new int[] {2, -1}, new int[] {1, 2}, one2, new int[] {1, 2}, 1, 1)),
                new RandomConvs(Shape.of(4, 9, 6, 6), Shape.of(5, 9, 3, 3), new ConvSpec(one2, new int[] {2, 2}, new int[] {2, 2}, new int[] {2, 2}, one2, 1, 1)),
                new RandomConvs(Shape.of(2, 3, 5, 6, 7), Shape.of(66, 3, 2, 3, 2), new ConvSpec(new int[] {1, 2, 1}, new int[] {1, 0, 1}, new int[] {0, 1, 1}, new int[] {1, 1, 2}, new int[] {2, 1, 1}, 1, 1)),
                new RandomConvs(Shape.of(1, 130, 50), Shape.of(3, 130, 7), new ConvSpec(new int[] {1}, new int[] {3}, new int[] {3}, new int[] {1}, new int[] {1}, 1, 1)),
                // weight gradients: [C, N, s, s] * [O, N, o, o], K = N × o² long, outputs few: split along K
                new RandomConvs(Shape.of(3, 20, 13, 13), Shape.of(70, 20, 11, 11), new ConvSpec(one2, zero2, zero2, one2, one2, 1, 1)),
                new RandomConvs(Shape.of(1, 16, 48, 48), Shape.of(4, 16, 46, 46), new ConvSpec(one2, zero2, zero2, one2, one2, 1, 1)),
                new RandomConvs(Shape.of(2, 8, 27, 27), Shape.of(5, 8, 13, 13), new ConvSpec(one2, zero2, zero2, one2, new int[] {2, 2}, 1, 1)));
        boolean prefetch = kernels.prefetch;
        try {
            for (boolean pf : new boolean[] {false, true}) for (ConvGemmShader.Order order : ConvGemmShader.Order.values()) {
                kernels.prefetch = pf; // loads a step ahead or not
                kernels.orderOverride = order; // each order must be right for any layout, not only the one it is picked for
                Random rnd = new Random(1811);
                for (int c = 0; c < cases.size(); c++) {
                    RandomConvs cs = cases.get(c);
                    float[] xs = uniform(cs.input().size(), rnd), ks = uniform(cs.kernel().size(), rnd);
                    if (c == 1) {
                        ks[0] = Float.POSITIVE_INFINITY; // on padding: NaN, as pad-then-convolve gives
                        ks[ks.length - 1] = Float.NaN;
                    }
                    if (c == 2) xs[7] = Float.NEGATIVE_INFINITY;
                    String what = "conv " + cs.describe() + ", " + order + (pf ? ", prefetch" : "");
                    assertMatchesCpu(what, cs, xs, ks, cpu, v);
                }
            }
        } finally {
            kernels.orderOverride = null;
            kernels.prefetch = prefetch;
        }
        assertEquals(4L * cases.size(), kernels.gemmRuns() - gemmBefore, "implicit GEMMs run");
        assertEquals(4L * 4, kernels.splitRuns.get() - splitBefore, "split along K");
    }

    @Test
    void aConvOrderPropertyIsReadOrRefusedByName() {
        assertEquals(null, ConvKernels.orderProperty(null));
        assertEquals(ConvGemmShader.Order.TAP_MAJOR, ConvKernels.orderProperty(" tap_major"));
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.jburn.JBurnException.class, () -> ConvKernels.orderProperty("rows"));
        assertTrue(e.getMessage().contains("channel_major or tap_major"), e.getMessage());
    }

    @Test
    void splitsOnlyFewLongProducts() {
        long any = Long.MAX_VALUE;
        assertEquals(1, ConvKernels.splits(128, 100_000, 256, any), "tiles enough");
        assertEquals(1, ConvKernels.splits(5, 511, 256, any), "short K");
        assertEquals(52, ConvKernels.splits(5, 15_488, 256, any)); // the small CNN's second weight gradient at batch 128
        assertEquals(256, ConvKernels.splits(1, 86_528, 256, any)); // its first
        assertEquals(205, ConvKernels.splits(5, 123_904, 1024, any)); // the second at batch 1024, aiming at 1024 groups
        assertEquals(60, ConvKernels.splits(5, 123_904, 1024, 60), "the copies' bound");
        assertEquals(60, ConvKernels.splits(5, 15_488, 1024, any), "shares of at least 256");
        long share = ConvKernels.share(15_488, 52);
        assertEquals(0, share % 16);
        assertTrue(share * 52 >= 15_488 && (share - 16) * 52 < 15_488, "share " + share);
    }

    /** {@code [C, N, s, s] * [O, N, o, o]}: a weight gradient's shape (the batch as channels), a long sum per output. */
    private static RandomConvs weightGradient(Random rnd) {
        // planes past ConvShader.TAP_CHUNK taps (34 x 34 and up) half the time: the work group walks them in chunks
        int n = 16 + rnd.nextInt(9), s = rnd.nextBoolean() ? 14 + rnd.nextInt(6) : 36 + rnd.nextInt(6), o = s - 2 + rnd.nextInt(2);
        int[] pad = {rnd.nextInt(2), rnd.nextInt(2)}, ones = {1, 1};
        return new RandomConvs(Shape.of(1 + rnd.nextInt(3), n, s, s), Shape.of(1 + rnd.nextInt(3), n, o, o),
                new ConvSpec(ones, pad, pad, ones, ones, 1, 1));
    }

    /**
     * {@code cs} on {@code xs} and {@code ks} by both backends: the same special values (NaN, ±Inf) where the cpu engine
     * gives one, else within a tolerance that grows with the products each output sums (values in [-1, 1)).
     */
    private static void assertMatchesCpu(String what, RandomConvs cs, float[] xs, float[] ks, Backend cpu, Backend v) {
        float[] want = conv(cpu, xs, ks, cs), got = conv(v, xs, ks, cs);
        assertEquals(want.length, got.length, what);
        double scale = cs.productsPerOutput();
        for (int i = 0; i < want.length; i++) {
            boolean same = Float.isNaN(want[i]) || Float.isInfinite(want[i]) ? Float.compare(want[i], got[i]) == 0
                    : Math.abs(want[i] - got[i]) <= 1e-6 * scale + 1e-5 * Math.abs(want[i]);
            if (!same) fail(what + ": element " + i + " is " + got[i] + ", the cpu engine's " + want[i]);
        }
    }

    private static float[] uniform(long n, Random rnd) {
        float[] a = new float[(int) n];
        for (int i = 0; i < a.length; i++) a[i] = rnd.nextFloat() * 2 - 1;
        return a;
    }

    private static float[] conv(Backend b, float[] x, float[] k, RandomConvs cs) {
        Buffer xb = b.upload(MemorySegment.ofArray(x)), kb = b.upload(MemorySegment.ofArray(k));
        Buffer out = b.conv(new Operand(xb, DType.F32, cs.input()), new Operand(kb, DType.F32, cs.kernel()), cs.spec(), DType.F32);
        try (Arena a = Arena.ofConfined()) {
            long n = out.byteSize() / 4;
            MemorySegment host = a.allocate(Math.max(4, 4 * n));
            if (n > 0) b.download(out, 0, host.asSlice(0, 4 * n));
            return host.asSlice(0, 4 * n).toArray(ValueLayout.JAVA_FLOAT);
        } finally {
            xb.release();
            kb.release();
            out.release();
        }
    }
}
