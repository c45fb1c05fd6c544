package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.spi.Availability;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Availability never throws and says why the engine cannot run. */
class VulkanAvailabilityTest {
    /** Runs {@link AvailabilityProbeMain} in a child JVM with extra system properties; returns its PROBE line. */
    private static String probeInChild(String... props) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-Dorg.lwjgl.system.memoryBackend=ffm");
        cmd.addAll(List.of(props));
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(AvailabilityProbeMain.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe did not finish");
        assertEquals(0, p.exitValue(), out);
        return out.lines().filter(l -> l.startsWith("PROBE ")).findFirst().orElseThrow(() -> new AssertionError(out)).substring(6);
    }

    /** This JVM's class path, plus the jars of a launcher's class loader (the JUnit console launcher's {@code -cp}). */
    private static String classPath() {
        StringBuilder cp = new StringBuilder(System.getProperty("java.class.path"));
        if (VulkanAvailabilityTest.class.getClassLoader() instanceof URLClassLoader u) {
            for (URL url : u.getURLs()) {
                try {
                    cp.append(File.pathSeparator).append(Path.of(url.toURI()));
                } catch (URISyntaxException | IllegalArgumentException e) {
                    // not a file: cannot be on a child's class path
                }
            }
        }
        return cp.toString();
    }

    @Test
    void aMissingLoaderIsAReasonNotACrash() throws Exception {
        String line = probeInChild("-Dorg.lwjgl.vulkan.libname=/nonexistent/libvulkan.so.1");
        assertTrue(line.startsWith("false|no Vulkan loader"), line);
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
