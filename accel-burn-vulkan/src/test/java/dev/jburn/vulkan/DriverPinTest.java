package dev.jburn.vulkan;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DriverPinTest {
    @Test
    void readsTheLibrariesOfThisProcess() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "no /proc/self/maps here");
        Set<String> libs = DriverPin.loadedLibraries();
        assertTrue(libs.stream().anyMatch(l -> l.contains("libjvm.so")), () -> "libjvm.so not among " + libs);
    }

    @Test
    void pinsOnlyWhatIsNew() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "no /proc/self/maps here");
        Set<String> all = DriverPin.loadedLibraries();
        assertEquals(0, DriverPin.pinLoadedSince(all));
        Set<String> allButJvm = new LinkedHashSet<>(all);
        allButJvm.removeIf(l -> l.contains("libjvm.so"));
        assertEquals(1, DriverPin.pinLoadedSince(allButJvm), "libjvm.so is pinned (opened once more)");
    }

    @Test
    void doesNothingWithoutASnapshot() {
        assertEquals(0, DriverPin.pinLoadedSince(Set.of()));
    }

    @Test
    void theConfigPinsByDefault() {
        assertTrue(new VulkanConfig(null, null, false).pinDriver());
        assertFalse(new VulkanConfig(null, null, false).withPinDriver(false).pinDriver());
    }
}
