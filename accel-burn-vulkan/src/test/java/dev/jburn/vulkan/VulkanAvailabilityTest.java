package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.spi.Availability;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Availability never throws and says why the engine cannot run. */
class VulkanAvailabilityTest {
    /** Runs {@link AvailabilityProbeMain} in a child JVM with extra system properties; returns its PROBE line. */
    private static String probeInChild(String... props) throws IOException, InterruptedException {
        return probeInChild(java.util.Map.of(), props);
    }

    private static String probeInChild(java.util.Map<String, String> env, String... props) throws IOException, InterruptedException {
        ChildJvm.Result r = ChildJvm.run(AvailabilityProbeMain.class, env, List.of(props));
        assertEquals(0, r.exitCode(), r.output());
        String out = r.output();
        return out.lines().filter(l -> l.startsWith("PROBE ")).findFirst().orElseThrow(() -> new AssertionError(out)).substring(6);
    }

    @Test
    void aMissingLoaderIsAReasonNotACrash() throws Exception {
        String line = probeInChild("-Dorg.lwjgl.vulkan.libname=/nonexistent/libvulkan.so.1");
        assertTrue(line.startsWith("false|no Vulkan loader"), line);
    }

    @Test
    void noDriverVisibleSaysSoNotIncompatibleDriver() throws Exception {
        String line = probeInChild(java.util.Map.of("VK_DRIVER_FILES", "/nonexistent/none.json", "VK_ICD_FILENAMES", "/nonexistent/none.json"));
        assumeTrue(!line.startsWith("false|no Vulkan loader"), "no Vulkan loader here: " + line);
        assertTrue(line.startsWith("false|no Vulkan driver found (the loader found no driver manifest in VK_DRIVER_FILES=/nonexistent/none.json"), line);
    }

    @Test
    void anUnknownDeviceOverrideListsTheDevices() throws Exception {
        assumeTrue(new VulkanProvider().isAvailable(), "no Vulkan device");
        Availability a = VulkanProvider.probe(VulkanConfig.fromSystemProperties().withDevice("no-such-gpu-xyz"));
        assertFalse(a.available());
        assertTrue(a.reason().startsWith("no Vulkan device matches -Djburn.vulkan.device=no-such-gpu-xyz"), a.reason());
        String line = probeInChild("-Djburn.vulkan.device=no-such-gpu-xyz");
        assertTrue(line.startsWith("false|no Vulkan device matches"), line);
    }

    @Test
    void theEngineListsVulkanWithItsReason() {
        var info = Engine.available().stream().filter(e -> e.name().equals("vulkan")).findFirst().orElseThrow();
        assertFalse(info.reason().isBlank());
        assertEquals(new VulkanProvider().isAvailable(), info.available());
    }

    @Test
    void configReadsSystemProperties() {
        VulkanConfig c = new VulkanConfig(null, Path.of("/tmp/x"), false).withDevice("1").withForceStaging(true);
        assertEquals("1", c.device());
        assertTrue(c.forceStaging());
        assertEquals(Path.of("/tmp/x"), c.cacheDir());
        assertNull(c.withCacheDir(null).cacheDir());
    }
}
