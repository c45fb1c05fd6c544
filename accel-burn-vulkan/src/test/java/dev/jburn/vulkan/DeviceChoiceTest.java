package dev.jburn.vulkan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.jburn.vulkan.DeviceChoice.Kind.*;
import static org.junit.jupiter.api.Assertions.*;

/** Device choice and its reasons, without a device. */
class DeviceChoiceTest {
    private static DeviceChoice.Candidate dev(int i, String name, DeviceChoice.Kind kind) {
        return new DeviceChoice.Candidate(i, name, kind, true, true);
    }

    @Test
    void prefersDiscreteThenIntegratedThenCpu() {
        var cpu = dev(0, "llvmpipe (LLVM 15.0.7, 256 bits)", CPU);
        var igpu = dev(1, "Intel(R) UHD Graphics", INTEGRATED);
        var gpu = dev(2, "NVIDIA H200", DISCRETE);
        assertEquals("NVIDIA H200", DeviceChoice.choose(List.of(cpu, igpu, gpu), null).device().orElseThrow().name());
        assertEquals("Intel(R) UHD Graphics", DeviceChoice.choose(List.of(cpu, igpu), null).device().orElseThrow().name());
        assertEquals(0, DeviceChoice.choose(List.of(cpu), null).device().orElseThrow().index());
    }

    @Test
    void overrideByIndexOrNameSubstring() {
        var cpu = dev(0, "llvmpipe (LLVM 15.0.7, 256 bits)", CPU);
        var gpu = dev(1, "NVIDIA H200", DISCRETE);
        assertEquals(0, DeviceChoice.choose(List.of(cpu, gpu), "0").device().orElseThrow().index());
        assertEquals(0, DeviceChoice.choose(List.of(cpu, gpu), "LLVMPIPE").device().orElseThrow().index());
        var none = DeviceChoice.choose(List.of(cpu, gpu), "radeon");
        assertTrue(none.device().isEmpty());
        assertTrue(none.reason().contains("no Vulkan device matches -Djburn.vulkan.device=radeon"), none.reason());
        assertTrue(none.reason().contains("1:NVIDIA H200 (discrete)"), none.reason());
    }

    @Test
    void reasonsWhenNothingIsUsable() {
        assertTrue(DeviceChoice.choose(List.of(), null).reason().startsWith("no Vulkan physical device"));
        var noCompute = new DeviceChoice.Candidate(0, "display-only", DISCRETE, false, true);
        assertTrue(DeviceChoice.choose(List.of(noCompute), null).reason().startsWith("no device with a compute queue"));
        var old = new DeviceChoice.Candidate(0, "old gpu", DISCRETE, true, false);
        assertTrue(DeviceChoice.choose(List.of(old), null).reason().startsWith("no device with Vulkan 1.2"));
        assertTrue(DeviceChoice.choose(List.of(noCompute), "display").reason().contains("has no compute queue"));
    }
}
