package dev.jburn.kernels;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.spi.EngineConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostFallbackBackendTest {
    @Test
    void nativeOpsAreNotCountedAndFallbacksAreCountedByOpAndType() {
        Engine e = Engine.create(SimulatedDevice.PROVIDER, EngineConfig.defaults());
        SimulatedDevice device = (SimulatedDevice) e.backend();
        try (var scope = Tensor.scope()) {
            Tensor a = Tensor.of(new float[] {1, 2, 3}).to(e);
            Tensor b = Tensor.of(new float[] {10, 20, 30}).to(e);
            assertArrayEquals(new float[] {11, 22, 33}, a.add(b).toFloatArray());
            assertTrue(e.fallbackCounts().isEmpty(), e.fallbackCounts().toString());
            assertArrayEquals(new float[] {3, 2, 1}, a.sort(0, true).toFloatArray());
            assertArrayEquals(new float[] {-9, -18, -27}, a.subtract(b).toFloatArray());
            assertEquals(java.util.Map.of("sort:f32", 1L, "subtract:f32", 1L), e.fallbackCounts());
        }
        assertEquals(0, device.live.get(), "device buffers left after the scope closed");
    }

    @Test
    void primitivesTheDeviceLacksAreDecomposedIntoOnesItMayHaveEagerlyAndWhenCompiled() {
        Engine e = Engine.create(SimulatedDevice.PROVIDER, EngineConfig.defaults());
        Tensor x = Tensor.of(new float[] {1, 5, 2, 4, 3, 0}).to(e);
        assertArrayEquals(new float[] {5, 5, 4, 4, 3}, x.windowMax(new int[] {2}).toFloatArray());
        assertArrayEquals(new float[] {1, 6, 8, 12, 15, 15}, x.cumulativeSum().toFloatArray());
        Tensor img = Tensor.iota(dev.jburn.Shape.of(1, 2, 5, 5), dev.jburn.DType.F32).to(e);
        Tensor kernel = Tensor.iota(dev.jburn.Shape.of(3, 2, 2, 2), dev.jburn.DType.F32).to(e);
        var opts = dev.jburn.ConvOptions.defaults().withStrides(2, 1).withKernelDilation(1, 2);
        assertArrayEquals(img.to(Engine.select("cpu")).conv(kernel.to(Engine.select("cpu")), opts).toFloatArray(), img.conv(kernel, opts).toFloatArray());
        java.util.Set<String> ops = new java.util.TreeSet<>();
        e.fallbackCounts().keySet().forEach(k -> ops.add(k.substring(0, k.indexOf(':'))));
        assertTrue(!ops.contains("windowMax") && !ops.contains("cumulativeSum") && !ops.contains("conv")
                && ops.contains("slice") && ops.contains("pad") && ops.contains("dot"), ops.toString());
        // while tracing, the tracing engine answers with the target's capabilities: the graph holds the decomposition
        var f = dev.jburn.graph.Jit.compile(t -> t.windowMax(new int[] {2}));
        assertArrayEquals(new float[] {5, 5, 4, 4, 3}, f.apply(x).toFloatArray());
        String graph = f.graph().toString();
        assertTrue(!graph.contains("windowMax") && graph.contains("max"), graph);
    }

    /**
     * A conv whose kernel has more positions than its output (a kernel gradient, the cotangent as kernel) is
     * decomposed into one contraction per output position: the values of the cpu engine's conv (strides, dilation,
     * padding), and a compiled graph with as many dots as output positions rather than kernel positions.
     */
    @Test
    void aConvWithFewerOutputsThanKernelTapsContractsOncePerOutputPosition() {
        Engine e = Engine.create(SimulatedDevice.PROVIDER, EngineConfig.defaults());
        Engine cpu = Engine.select("cpu");
        Tensor img = dev.jburn.Prng.uniform(dev.jburn.Prng.key(3), dev.jburn.Shape.of(2, 3, 11, 9), dev.jburn.DType.F32, -1, 1).values();
        Tensor kernel = dev.jburn.Prng.uniform(dev.jburn.Prng.key(4), dev.jburn.Shape.of(4, 3, 5, 6), dev.jburn.DType.F32, -1, 1).values();
        var plain = dev.jburn.ConvOptions.defaults();                                          // out 7x4 = 28 < 30 taps
        var strided = plain.withStrides(2, 3).withKernelDilation(2, 1);                        // out 2x2
        var padded = plain.withPadding(dev.jburn.Padding.explicit(new int[] {1, 0}, new int[] {0, 2})).withStrides(3, 2);
        for (var opts : java.util.List.of(plain, strided, padded)) {
            float[] want = img.conv(kernel, opts).toFloatArray();
            float[] got = img.to(e).conv(kernel.to(e), opts).toFloatArray();
            assertEquals(want.length, got.length, opts.toString());
            for (int i = 0; i < want.length; i++) assertEquals(want[i], got[i], 1e-4 * Math.max(1, Math.abs(want[i])), opts + " [" + i + "]");
        }
        var f = dev.jburn.graph.Jit.compile((a, b) -> a.conv(b, strided));
        float[] compiled = f.apply(img.to(e), kernel.to(e)).toFloatArray();
        assertArrayEquals(img.conv(kernel, strided).toFloatArray(), compiled, 1e-4f);
        long dots = f.graph().toString().lines().filter(l -> l.contains("dot")).count();
        assertEquals(4, dots, "one contraction per output position (2x2), not per kernel position (30):\n" + f.graph());
        assertTrue(cpu.fallbackCounts().isEmpty());
    }
}
