package dev.jburn.cuda;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NvrtcOptionsTest {
    @Test
    void compilesForTheDevicesOwnArchitecture() {
        List<String> h200 = NvrtcOptions.forDevice(9, 0);
        assertTrue(h200.contains("--gpu-architecture=sm_90"), h200.toString());
        assertTrue(NvrtcOptions.forDevice(8, 6).contains("--gpu-architecture=sm_86"));
        assertTrue(NvrtcOptions.forDevice(12, 0).contains("--gpu-architecture=sm_120"));
        assertTrue(h200.stream().noneMatch(o -> o.contains("fast-math") || o.contains("compute_")), "no PTX target, no fast math");
        assertTrue(h200.contains("--fmad=false"), "fused kernels must round like the ops one by one");
        assertThrows(IllegalArgumentException.class, () -> NvrtcOptions.forDevice(0, 0));
    }

    @Test
    void cacheKeyCoversSourceOptionsVersionAndArch() {
        List<String> o = NvrtcOptions.forDevice(9, 0);
        String k = NvrtcOptions.cacheKey("src", o, "13.0", "sm_90");
        assertEquals(64, k.length());
        assertEquals(k, NvrtcOptions.cacheKey("src", List.copyOf(o), "13.0", "sm_90"), "deterministic");
        assertNotEquals(k, NvrtcOptions.cacheKey("src2", o, "13.0", "sm_90"));
        assertNotEquals(k, NvrtcOptions.cacheKey("src", NvrtcOptions.forDevice(8, 0), "13.0", "sm_90"));
        assertNotEquals(k, NvrtcOptions.cacheKey("src", o, "12.8", "sm_90"));
        assertNotEquals(k, NvrtcOptions.cacheKey("src", o, "13.0", "sm_100"));
    }

    @Test
    void cacheKeyFieldsDoNotRunTogether() {
        assertNotEquals(NvrtcOptions.cacheKey("ab", List.of("c"), "1", "x"), NvrtcOptions.cacheKey("a", List.of("bc"), "1", "x"));
        assertNotEquals(NvrtcOptions.cacheKey("a", List.of("b", "c"), "1", "x"), NvrtcOptions.cacheKey("a", List.of("b c"), "1", "x"));
    }
}
