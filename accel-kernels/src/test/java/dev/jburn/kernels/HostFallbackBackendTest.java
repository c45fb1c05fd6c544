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
}
