package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ContractionOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.ShapeOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Key f32 ops run on the device: the result matches the cpu engine and nothing is counted as fallback. */
class VulkanNativeKernelsTest {
    private static Engine vk;
    private static Engine cpu;

    @BeforeAll
    static void requireDevice() {
        vk = TestDevice.engine();
        cpu = Engine.select("cpu");
    }

    private static Tensor matrix(int rows, int cols, float scale) {
        float[] v = new float[rows * cols];
        for (int i = 0; i < v.length; i++) v[i] = (float) Math.sin(i * 0.37 + scale) * scale;
        return Tensor.of(v).reshape(rows, cols);
    }

    /** Runs {@code op} on both engines; asserts equal results (within {@code tol}) and no fallback on vulkan. */
    private static void assertNative(String what, Tensor[] inputs, Function<Tensor[], Tensor> op, double tol) {
        Tensor[] onVk = new Tensor[inputs.length];
        Tensor[] onCpu = new Tensor[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            onVk[i] = inputs[i].to(vk);
            onCpu[i] = inputs[i].to(cpu);
        }
        Map<String, Long> before = vk.fallbackCounts();
        float[] got;
        try (Tensor r = op.apply(onVk)) {
            assertSame(vk, r.engine());
            got = r.toFloatArray();
        }
        assertEquals(before, vk.fallbackCounts(), what + " fell back to the cpu");
        float[] want;
        try (Tensor r = op.apply(onCpu)) {
            assertSame(cpu, r.engine());
            want = r.toFloatArray();
        }
        assertEquals(want.length, got.length, what);
        for (int i = 0; i < want.length; i++) {
            if (tol == 0 || !Float.isFinite(want[i])) assertEquals(want[i], got[i], what + " at " + i);
            else assertEquals(want[i], got[i], tol * Math.max(1, Math.abs(want[i])), what + " at " + i);
        }
        for (int i = 0; i < inputs.length; i++) {
            if (onVk[i] != inputs[i]) onVk[i].close();
            if (onCpu[i] != inputs[i]) onCpu[i].close();
        }
    }

    @Test
    void f32AddExpSqrtMaxSumRunOnTheDevice() {
        Tensor x = matrix(33, 70, 1f);
        Tensor y = matrix(33, 70, 2f);
        assertNative("add", new Tensor[] {x, y}, t -> t[0].add(t[1]), 0);
        assertNative("broadcast add", new Tensor[] {x, matrix(1, 70, 3f)}, t -> t[0].add(t[1]), 0);
        assertNative("sqrt", new Tensor[] {x}, t -> t[0].abs().sqrt(), 1e-6);
        assertNative("exp", new Tensor[] {x}, t -> t[0].exp(), 1e-6);
        assertNative("max", new Tensor[] {x, y}, t -> t[0].maximum(t[1]), 0);
        assertNative("sum", new Tensor[] {x}, t -> t[0].sum(), 1e-5);
        assertNative("sum axis 0", new Tensor[] {x}, t -> t[0].sum(new int[] {0}), 1e-5);
    }

    @Test
    void f64SinFallsBackAndIsCounted() {
        // GLSL has no double-precision sin, and the emitter has none of its own for f64: it runs on the cpu.
        try (Tensor x = matrix(4, 5, 1f).asType(DType.F64).to(vk)) {
            long before = vk.fallbackCounts().getOrDefault("sin:f64", 0L);
            try (Tensor r = x.sin()) {
                assertSame(vk, r.engine());
            }
            assertEquals(before + 1, vk.fallbackCounts().get("sin:f64"));
        }
    }

    @Test
    void f64ExpLogFamilyRunsNatively() {
        org.junit.jupiter.api.Assumptions.assumeTrue(((VulkanBackend) vk.backend()).dev.features.float64(), "needs shaderFloat64");
        double[] v = {0, -0.0, 1e-300, 4.9e-324, -2.5e-310, 1e-17, -3e-9, 0.0078125, -0.01, 0.015625, 0.5, -0.75, 1, -1, 2.5, 20, -20,
                22.5, 40, -41, 100, -700, 705, 709.5, 710.2, -744.9, -746, 1e300, Double.MAX_VALUE, Double.MIN_NORMAL,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        Map<String, Function<Tensor, Tensor>> ops = Map.of("exp", Tensor::exp, "expm1", Tensor::expm1, "log", Tensor::log,
                "log1p", Tensor::log1p, "sinh", Tensor::sinh, "cosh", Tensor::cosh, "tanh", Tensor::tanh, "sigmoid", Tensor::sigmoid);
        try (Tensor host = Tensor.of(v).to(cpu); Tensor x = host.to(vk)) {
            long before = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
            for (var op : ops.entrySet()) {
                try (Tensor got = op.getValue().apply(x); Tensor want = op.getValue().apply(host)) {
                    double[] g = got.toDoubleArray(), w = want.toDoubleArray();
                    for (int i = 0; i < v.length; i++) {
                        String at = op.getKey() + "(" + v[i] + ") = " + g[i] + ", expected " + w[i];
                        if (Double.isNaN(w[i]) || Double.isInfinite(w[i]) || w[i] == 0) assertEquals(w[i], g[i], 0.0, at);
                        else assertTrue(Math.abs(g[i] - w[i]) <= Math.max(4 * Math.ulp(w[i]), 1e-13 * Math.abs(w[i])), at);
                    }
                }
            }
            assertEquals(before, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), vk.fallbackCounts().toString());
        }
    }

    @Test
    void inverseHyperbolicsCbrtAndErfInvRunNativelyWithinAnUlp() {
        org.junit.jupiter.api.Assumptions.assumeTrue(((VulkanBackend) vk.backend()).dev.features.float64(), "needs shaderFloat64");
        float[] v = {0f, -0f, 1e-30f, 1e-4f, -2e-4f, 0.001f, 0.25f, -0.4375f, 0.5f, 0.6875f, -0.99f, 0.99999994f, 1f, -1f, 1.0000001f,
                -2f, 1.1875f, 2.4375f, 27f, -8f, 100f, -1e20f, 3e8f, 3.4028235e38f, Float.MIN_NORMAL, Float.MIN_VALUE, -1.1754942e-38f,
                Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        assertNativeWithinAnUlp(v, Map.of("asinh", Tensor::asinh, "acosh", Tensor::acosh, "atanh", Tensor::atanh,
                "cbrt", Tensor::cbrt, "erfInv", Tensor::erfInv));
    }

    @Test
    void asinAcosAtanRunNativelyWithinAnUlp() {
        org.junit.jupiter.api.Assumptions.assumeTrue(((VulkanBackend) vk.backend()).dev.features.float64(), "needs shaderFloat64");
        float[] v = {0f, -0f, 1e-30f, 1e-4f, 0.25f, -0.4375f, 0.5f, 0.6875f, -0.99f, 0.99999994f, 1f, -1f, 1.0000001f, -2f, 1.1875f,
                2.4375f, 100f, -1e20f, 3.4028235e38f, Float.MIN_NORMAL, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        assertNativeWithinAnUlp(v, Map.of("asin", Tensor::asin, "acos", Tensor::acos, "atan", Tensor::atan));
    }

    @Test
    void sinCosTanRunNativelyWithinAnUlpOverTheWholeRange() {
        var f = ((VulkanBackend) vk.backend()).dev.features;
        org.junit.jupiter.api.Assumptions.assumeTrue(f.float64() && f.int64(), "needs shaderFloat64 and shaderInt64");
        float[] v = {0f, -0f, 1e-30f, 0.5f, -0.7853981f, 0.7853982f, 1.5707964f, -3.1415927f, 4.712389f, 6.2831855f, 100f,
                12345.678f, -103993f, 1e6f, 8.388608e6f, 1.6777216e7f, 3e9f, -1e20f, 1e30f, 3.4028235e38f, -3.4028235e38f,
                Float.MIN_NORMAL, 2.5e-5f, 710f, -88.7f, 1.0e15f, 7.1e22f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        assertNativeWithinAnUlp(v, Map.of("sin", Tensor::sin, "cos", Tensor::cos, "tan", Tensor::tan));
    }

    /** Each of {@code ops} (by name) on {@code v} runs on the device, without fallback, within an ulp of the cpu engine. */
    private static void assertNativeWithinAnUlp(float[] values, Map<String, Function<Tensor, Tensor>> ops) {
        // A device that flushes f32 subnormals (declared, as NVIDIA's driver does) sees them as zero: leave them out there.
        float[] v = values;
        if (vk.capabilities().flushesF32Subnormals()) {
            java.util.List<Float> normal = new java.util.ArrayList<>();
            for (float x : values) if (x == 0 || !(Math.abs(x) < Float.MIN_NORMAL)) normal.add(x);
            v = new float[normal.size()];
            for (int i = 0; i < v.length; i++) v[i] = normal.get(i);
        }
        // on the cpu explicitly: where vulkan is the default engine (a GPU), Tensor.of would put it there
        try (Tensor host = Tensor.of(v).to(cpu); Tensor x = host.to(vk)) {
            long before = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
            for (var op : ops.entrySet()) {
                try (Tensor got = op.getValue().apply(x); Tensor want = op.getValue().apply(host)) {
                    assertWithinAnUlp(want.toFloatArray(), got.toFloatArray(), v, op.getKey());
                }
            }
            assertEquals(before, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), vk.fallbackCounts().toString());
        }
    }

    private static void assertWithinAnUlp(float[] want, float[] got, float[] x, String fn) {
        for (int i = 0; i < want.length; i++) {
            if (Float.isNaN(want[i])) {
                assertTrue(Float.isNaN(got[i]), fn + "(" + x[i] + ") = " + got[i] + ", expected NaN");
                continue;
            }
            // a flushing device may give zero for a subnormal result (declared; the kit allows the same)
            if (got[i] == 0 && want[i] != 0 && Math.abs(want[i]) < Float.MIN_NORMAL && vk.capabilities().flushesF32Subnormals()) continue;
            int a = Float.floatToRawIntBits(want[i]), b = Float.floatToRawIntBits(got[i]);
            long ua = a < 0 ? (long) Integer.MIN_VALUE - a : a, ub = b < 0 ? (long) Integer.MIN_VALUE - b : b;
            assertTrue(Math.abs(ua - ub) <= 1, fn + "(" + x[i] + ") = " + got[i] + ", expected " + want[i]);
        }
    }

    /** Bases and exponents that meet every special case of {@code ScalarMath.pow}: ±0, ±1, ±Inf, NaN, odd and even integers, fractions. */
    private static final double[] POW_BASES = {0, -0.0, 1, -1, 2, -2, 0.5, -0.5, 3, -3, 10, 1e-3, 0.9, 1.5, -1.0000001, 3.4028234663852886e38,
            Float.MIN_NORMAL, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN};
    private static final double[] POW_EXPONENTS = {0, -0.0, 1, -1, 2, 3, -3, 0.5, -0.5, 2.5, 1e10, -1e10, 100, -100, 16777216, 16777215,
            -16777215, 37, -37, 150, 0.999, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN};

    @Test
    void powRunsNativelyWithTheCpuSpecialCases() {
        assumeTrue(((VulkanBackend) vk.backend()).dev.features.float64(), "needs shaderFloat64");
        for (DType t : new DType[] {DType.F32, DType.F64}) {
            // every base with every exponent: [bases, 1] ^ [1, exponents]
            try (Tensor hx = Tensor.of(POW_BASES).asType(t).reshape(POW_BASES.length, 1).to(cpu);
                 Tensor hy = Tensor.of(POW_EXPONENTS).asType(t).reshape(1, POW_EXPONENTS.length).to(cpu);
                 Tensor x = hx.to(vk); Tensor y = hy.to(vk)) {
                Map<String, Long> before = vk.fallbackCounts();
                double[] got, want;
                try (Tensor g = x.pow(y); Tensor w = hx.pow(hy)) {
                    got = g.toDoubleArray();
                    want = w.toDoubleArray();
                }
                assertEquals(before, vk.fallbackCounts(), "pow " + t + " fell back");
                for (int i = 0; i < want.length; i++) {
                    String at = "pow " + t + "(" + POW_BASES[i / POW_EXPONENTS.length] + ", " + POW_EXPONENTS[i % POW_EXPONENTS.length] + ") = "
                            + got[i] + ", expected " + want[i];
                    if (Double.isNaN(want[i])) assertTrue(Double.isNaN(got[i]), at);
                    else if (want[i] == 0 || Double.isInfinite(want[i])) assertEquals(Double.doubleToRawLongBits(want[i]), Double.doubleToRawLongBits(got[i]), at);
                    else if (t == DType.F32) assertEquals(want[i], got[i], Math.ulp((float) want[i]), at);
                    else assertEquals(want[i], got[i], Math.max(4 * Math.ulp(want[i]), 1e-12 * Math.abs(want[i])), at);
                }
            }
        }
        assertTrue(vk.capabilities().supports(BinaryOp.POW, DType.F32));
        assertTrue(vk.capabilities().supports(BinaryOp.POW, DType.F64));
    }

    @Test
    void logTanhSigmoidAndErfRunNativelyWithF64() {
        org.junit.jupiter.api.Assumptions.assumeTrue(((VulkanBackend) vk.backend()).dev.features.float64(), "needs shaderFloat64");
        try (Tensor x = matrix(4, 5, 1f).to(vk); Tensor host = matrix(4, 5, 1f).to(cpu)) {
            long before = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
            try (Tensor l = x.log(); Tensor t = x.tanh(); Tensor s = x.negate().sigmoid(); Tensor p = x.log1p(); Tensor e = x.erf()) {
                assertArrayEquals(host.erf().toFloatArray(), e.toFloatArray(), 1e-6f);
                assertArrayEquals(host.log().toFloatArray(), l.toFloatArray(), 1e-6f);
                assertArrayEquals(host.tanh().toFloatArray(), t.toFloatArray(), 1e-6f);
                assertArrayEquals(host.negate().sigmoid().toFloatArray(), s.toFloatArray(), 1e-6f);
                assertArrayEquals(host.log1p().toFloatArray(), p.toFloatArray(), 1e-6f);
            }
            assertEquals(before, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), vk.fallbackCounts().toString());
        }
    }

    @Test
    void expIsAccurateAtTheEdges() {
        float[] xs = {0f, -0f, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, Float.NaN, 1f, -1f, 88.7f, 88.72283f, 88.7229f,
                -87.3f, -90f, -100f, -103.9f, -103.98f, -104.5f, 1e-8f, 9.1835E-41f, 0.34657359f, -0.34657359f, 20.5f};
        assertNative("exp edges", new Tensor[] {Tensor.of(xs)}, t -> t[0].exp(), 0);
    }

    @Test
    void transposeSliceReversePadConcatenateRunOnTheDevice() {
        Tensor x = matrix(37, 53, 1f);
        assertNative("transpose", new Tensor[] {x}, t -> t[0].transpose(), 0);
        assertNative("slice", new Tensor[] {x}, t -> t[0].slice(new int[] {3, 5}, new int[] {20, 40}, new int[] {2, 3}), 0);
        assertNative("reverse", new Tensor[] {x}, t -> t[0].reverse(new int[] {1}), 0);
        assertNative("pad", new Tensor[] {x}, t -> t[0].pad(2.5, new int[][] {{1, -2, 1}, {-3, 4, 0}}), 0);
        assertNative("concatenate", new Tensor[] {x, matrix(37, 5, 2f)}, t -> Tensor.concatenate(1, t[0], t[1]), 0);
        assertNative("broadcast", new Tensor[] {matrix(1, 53, 3f)}, t -> t[0].broadcast(Shape.of(7, 53)), 0);
    }

    @Test
    void f32DotRunsOnTheDevice() {
        assertNative("dot", new Tensor[] {matrix(70, 33, 1f), matrix(33, 65, 2f)}, t -> t[0].dot(t[1]), 1e-5);
        assertNative("dot past one tile", new Tensor[] {matrix(131, 70, 1f), matrix(70, 257, 2f)}, t -> t[0].dot(t[1]), 1e-5);
        // K and N multiples of 4: the kernel with vec4 global loads (M, K and N still not multiples of the tile)
        assertNative("dot, wide loads", new Tensor[] {matrix(133, 68, 1f), matrix(68, 260, 2f)}, t -> t[0].dot(t[1]), 1e-5);
        Tensor aw = matrix(2 * 37, 20, 1f).reshape(2, 37, 20);
        Tensor bw = matrix(2 * 20, 36, 2f).reshape(2, 20, 36);
        assertNative("batched dot, wide loads", new Tensor[] {aw, bw}, t -> t[0].dot(new int[] {2}, new int[] {0}, t[1], new int[] {1}, new int[] {0}), 1e-5);
        // Batched with a contraction axis that is not last: the operands are transposed on the device first.
        Tensor a = matrix(3 * 9, 4, 1f).reshape(3, 9, 4);
        Tensor b = matrix(3 * 9, 5, 2f).reshape(3, 9, 5);
        assertNative("batched dot", new Tensor[] {a, b}, t -> t[0].dot(new int[] {1}, new int[] {0}, t[1], new int[] {1}, new int[] {0}), 1e-5);
    }

    @Test
    void gatherRunsOnTheDeviceAndOutOfRangeIndicesStillThrow() {
        Tensor x = matrix(9, 7, 1f);
        Tensor rows = Tensor.of(new int[] {4, 0, 8, 4}).reshape(4, 1);
        assertNative("gather", new Tensor[] {x, rows}, t -> t[0].gather(t[1], new int[] {0}), 0);
        Tensor pairs = Tensor.of(new long[] {1, 6, 8, 0, 3, 3}).reshape(3, 2);
        assertNative("gather s64", new Tensor[] {x, pairs}, t -> t[0].gather(t[1], new int[] {0, 1}), 0);
        try (Tensor xv = x.to(vk); Tensor bad = Tensor.of(new int[] {2, 9}).reshape(2, 1).to(vk)) {
            var e = assertThrows(dev.jburn.JBurnException.class, () -> xv.gather(bad, new int[] {0}).close());
            assertTrue(e.getMessage().contains("out of bounds"), e.getMessage());
        }
    }

    @Test
    void indexedAddAndPutRunOnTheDeviceInRowOrder() {
        Tensor x = matrix(9, 7, 1f);
        // duplicates: row 4 three times, so the sum order and the last write matter
        Tensor rows = Tensor.of(new int[] {4, 0, 8, 4, 4}).reshape(5, 1);
        Tensor upd = matrix(5, 7, 3f);
        assertNative("indexedAdd", new Tensor[] {x, rows, upd}, t -> t[0].indexedAdd(t[1], t[2]), 0);
        assertNative("indexedPut", new Tensor[] {x, rows, upd}, t -> t[0].indexedPut(t[1], t[2]), 0);
        Tensor cells = Tensor.of(new long[] {1, 6, 8, 0, 1, 6}).reshape(3, 2);
        Tensor three = Tensor.of(0.5f, -2f, 1e-3f);
        assertNative("indexedAdd s64 cells", new Tensor[] {x, cells, three}, t -> t[0].indexedAdd(t[1], t[2]), 0);
        Tensor cols = Tensor.of(new int[] {6, 1, 6}).reshape(3, 1);
        assertNative("indexedAdd on axis 1", new Tensor[] {x, cols, matrix(3, 9, 2f)}, t -> t[0].indexedAdd(t[1], t[2], new int[] {1}), 0);
        for (DType d : new DType[] {DType.S32, DType.U8, DType.S64, DType.S16}) {
            assertNative("indexedAdd " + d, new Tensor[] {x.multiply(Tensor.of(50f)).asType(d), rows, upd.multiply(Tensor.of(90f)).asType(d)},
                    t -> t[0].indexedAdd(t[1], t[2]), 0);
        }
        try (Tensor xv = x.to(vk); Tensor bad = Tensor.of(new int[] {2, 9}).reshape(2, 1).to(vk); Tensor u = matrix(2, 7, 1f).to(vk)) {
            var e = assertThrows(dev.jburn.JBurnException.class, () -> xv.indexedAdd(bad, u).close());
            assertTrue(e.getMessage().contains("out of bounds"), e.getMessage());
        }
    }

    @Test
    void argmaxAndArgminRunOnTheDeviceWithTheCpuTieAndNaNRules() {
        // ties (3 twice, ±0), NaNs (the last one wins), and a row longer than a work group
        float[] v = new float[3 * 700];
        for (int i = 0; i < v.length; i++) v[i] = (float) Math.floor(Math.sin(i * 1.7) * 3);
        v[5] = Float.NaN;
        v[700 + 9] = -0f;
        v[2 * 700 + 650] = Float.NaN;
        v[2 * 700 + 30] = Float.NaN;
        Tensor x = Tensor.of(v).reshape(3, 700);
        for (boolean high : new boolean[] {false, true}) {
            assertNative("argmax rows " + high, new Tensor[] {x}, t -> t[0].argmax(1, false, high), 0);
            assertNative("argmin rows " + high, new Tensor[] {x}, t -> t[0].argmin(1, false, high), 0);
            assertNative("argmax cols " + high, new Tensor[] {x}, t -> t[0].argmax(0, false, high), 0);
            assertNative("argmin flat", new Tensor[] {x}, t -> t[0].argmin(), 0);
            assertNative("argmax flat", new Tensor[] {x}, t -> t[0].argmax(), 0);
        }
        assertNative("argmax of an empty tensor", new Tensor[] {Tensor.zeros(Shape.of(2, 0, 3), DType.F32)}, t -> t[0].argmax(2), 0);
        for (DType d : new DType[] {DType.S32, DType.U8, DType.S64, DType.S16, DType.BF16, DType.F16}) {
            Tensor xd = matrix(5, 37, 40f).asType(d);
            assertNative("argmax " + d, new Tensor[] {xd}, t -> t[0].argmax(1, false, false), 0);
            assertNative("argmin " + d, new Tensor[] {xd}, t -> t[0].argmin(0, true, true), 0);
        }
    }

    @Test
    void windowScattersRunOnTheDeviceWithTheCpuTiesNaNsAndSums() {
        // ties (floored values), NaNs (the last one in a window wins), ±0
        float[] v = new float[2 * 6 * 7 * 3];
        for (int i = 0; i < v.length; i++) v[i] = (float) Math.floor(Math.sin(i * 1.3) * 2);
        v[4] = Float.NaN;
        v[40] = Float.NaN;
        v[43] = Float.NaN;
        v[61] = -0f;
        Tensor x = Tensor.of(v).reshape(2, 6, 7, 3);
        // max pooling, channels last (the CNN's gradient): disjoint 2×2 windows, one add per element
        int[] pool = {1, 2, 2, 1};
        WindowOptions strided = WindowOptions.defaults().withStrides(1, 2, 2, 1);
        Tensor pooled = matrix(2 * 3 * 3, 3, 1f).reshape(2, 3, 3, 3);
        assertNative("windowScatterMax pool", new Tensor[] {x, pooled}, t -> t[0].windowScatterMax(t[1], 0.0, pool, strided), 0);
        // disjoint windows over padding (the last column's windows are half padding) and a column no window covers
        WindowOptions stridedSame = strided.withPadding(Padding.SAME);
        Tensor pooledSame = matrix(2 * 3 * 4, 3, 5f).reshape(2, 3, 4, 3);
        assertNative("windowScatterMax pool same", new Tensor[] {x, pooledSame}, t -> t[0].windowScatterMax(t[1], 0.25, pool, stridedSame), 0);
        WindowOptions gaps = WindowOptions.defaults().withStrides(1, 3, 3, 1);
        Tensor pooledGaps = matrix(2 * 2 * 2, 3, 6f).reshape(2, 2, 2, 3);
        assertNative("windowScatterMin pool gaps", new Tensor[] {x, pooledGaps}, t -> t[0].windowScatterMin(t[1], -2.0, pool, gaps), 0);
        // overlapping windows with padding: several sources summed per element, in window order
        int[] big = {1, 3, 3, 2};
        WindowOptions same = WindowOptions.defaults().withPadding(Padding.SAME);
        Tensor full = matrix(2 * 6 * 7, 3, 2f).reshape(2, 6, 7, 3);
        assertNative("windowScatterMax same", new Tensor[] {x, full}, t -> t[0].windowScatterMax(t[1], 0.5, big, same), 0);
        assertNative("windowScatterMin same", new Tensor[] {x, full}, t -> t[0].windowScatterMin(t[1], -1.0, big, same), 0);
        WindowOptions padded = WindowOptions.defaults().withStrides(1, 2, 3, 1).withPadding(Padding.explicit(new int[] {0, 0}, new int[] {2, 1},
                new int[] {1, 1}, new int[] {0, 0}));
        Tensor fewer = matrix(2 * 4 * 3, 2, 3f).reshape(2, 4, 3, 2);
        assertNative("windowScatterMin padded", new Tensor[] {x, fewer}, t -> t[0].windowScatterMin(t[1], 0.0, big, padded), 0);
        for (DType d : new DType[] {DType.F64, DType.S32, DType.U8, DType.S16, DType.S64, DType.F16, DType.BF16, DType.U64, DType.U16,
                DType.U32, DType.S8, DType.PRED}) {
            Tensor xd = x.multiply(Tensor.of(3f)).asType(d);
            assertNative("windowScatterMax " + d, new Tensor[] {xd, full.multiply(Tensor.of(40f)).asType(d)},
                    t -> t[0].windowScatterMax(t[1], 1, big, same), 0);
            assertNative("windowScatterMin pool " + d, new Tensor[] {xd, pooled.multiply(Tensor.of(40f)).asType(d)},
                    t -> t[0].windowScatterMin(t[1], 0, pool, strided), 0);
        }
        assertTrue(vk.capabilities().supports(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, DType.F32));
        assertTrue(vk.capabilities().supports(dev.jburn.op.WindowOp.WINDOW_MAX, DType.F32), "f32 window extremes run on the device");
        assertFalse(vk.capabilities().supports(dev.jburn.op.WindowOp.WINDOW_MAX, DType.F64), "other types' window reductions are decomposed");
        assertFalse(vk.capabilities().supports(dev.jburn.op.WindowOp.WINDOW_SUM, DType.F32), "window sums are decomposed");
    }

    @Test
    void f64DotRunsOnTheDeviceWhenItHasF64() {
        assumeTrue(((VulkanBackend) vk.backend()).dev.features.float64(), "no shaderFloat64");
        Tensor a = matrix(67, 19, 1f).asType(DType.F64);
        Tensor b = matrix(19, 70, 2f).asType(DType.F64);
        assertNative("f64 dot", new Tensor[] {a, b}, t -> t[0].dot(t[1]), 1e-6);
    }

    @Test
    void iotaRunsOnTheDeviceAndMatchesTheCpu() {
        Shape shape = Shape.of(3, 300);
        for (DType t : new DType[] {DType.F32, DType.S32, DType.U8, DType.S64, DType.F16, DType.U32}) {
            for (int axis : new int[] {-1, 0, 1}) {
                Map<String, Long> before = vk.fallbackCounts();
                var got = vk.backend().iota(shape, t, axis);
                var want = cpu.backend().iota(shape, t, axis);
                try (var arena = java.lang.foreign.Arena.ofConfined()) {
                    long bytes = shape.size() * t.byteSize();
                    var g = arena.allocate(bytes);
                    var w = arena.allocate(bytes);
                    vk.backend().download(got, 0, g);
                    cpu.backend().download(want, 0, w);
                    assertEquals(-1L, g.mismatch(w), t + " axis " + axis);
                } finally {
                    got.release();
                    want.release();
                }
                assertEquals(before, vk.fallbackCounts(), "iota " + t + " fell back");
            }
        }
        assertTrue(vk.capabilities().supports(dev.jburn.op.CreationOp.IOTA, DType.F32));
        assertFalse(vk.capabilities().supports(dev.jburn.op.CreationOp.IOTA, DType.PRED));
    }

    @Test
    void capabilitiesAnswerWhatRunsNatively() {
        assertTrue(vk.capabilities().supports(ShapeOp.TRANSPOSE, DType.F32));
        assertTrue(vk.capabilities().supports(BinaryOp.ADD, DType.F32));
        assertTrue(vk.capabilities().supports(UnaryOp.SQRT, DType.F32));
        assertTrue(vk.capabilities().supports(ReduceOp.SUM, DType.F32));
        // f32 exp/log/tanh/asinh/cbrt are the emitter's double-precision versions, sin/cos/tan/atan GlslTrig's;
        // GLSL has no accurate f64 transcendentals (GlslPrecision): those run on the cpu, counted.
        var f = ((VulkanBackend) vk.backend()).dev.features;
        assertEquals(f.float64(), vk.capabilities().supports(UnaryOp.EXP, DType.F32));
        assertEquals(f.float64(), vk.capabilities().supports(UnaryOp.LOG, DType.F32));
        assertEquals(f.float64() && f.int64(), vk.capabilities().supports(UnaryOp.SIN, DType.F32));
        assertEquals(f.float64(), vk.capabilities().supports(UnaryOp.ATAN, DType.F32));
        assertEquals(f.float64(), vk.capabilities().supports(UnaryOp.ASINH, DType.F32));
        assertEquals(f.float64(), vk.capabilities().supports(UnaryOp.ERF_INV, DType.BF16));
        assertFalse(vk.capabilities().supports(UnaryOp.CBRT, DType.F64));
        assertFalse(vk.capabilities().supports(UnaryOp.SIN, DType.F64));
        assertEquals(f.float64(), vk.capabilities().supports(UnaryOp.EXP, DType.F64));
        assertFalse(vk.capabilities().supports(UnaryOp.BITWISE_NOT, DType.F32));
        assertTrue(vk.capabilities().supports(ContractionOp.DOT, DType.F32));
        assertFalse(vk.capabilities().supports(ContractionOp.DOT, DType.S32));
        assertTrue(vk.capabilities().supports(dev.jburn.op.IndexOp.INDEXED_ADD, DType.F32));
        assertTrue(vk.capabilities().supports(dev.jburn.op.IndexOp.INDEXED_PUT, DType.F32));
        assertFalse(vk.capabilities().supports(dev.jburn.op.IndexOp.INDEXED_ADD, DType.BF16), "bf16 sums round per add on the cpu");
    }
}
