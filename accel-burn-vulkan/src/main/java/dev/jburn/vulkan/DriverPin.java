package dev.jburn.vulkan;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Keeps the driver libraries that opening a Vulkan device loaded mapped until the process ends.
 *
 * <p>Why: destroying the instance makes the loader {@code dlclose} the driver, but a driver may
 * have started worker threads with the device that outlive it. On the H200 (NVIDIA's EGL
 * library as the ICD) the JVM died with SIGSEGV at exit in such a thread, after all work was done,
 * whether or not the engine was closed first — the signature of code unmapped under a running
 * thread. Opening each new library once more, and never closing it, keeps its reference count
 * above zero, so the loader's {@code dlclose} no longer unmaps it.
 *
 * <p>Linux only (reads {@code /proc/self/maps}); elsewhere, and on any error, it does nothing.
 */
final class DriverPin {
    private DriverPin() {}

    /** The shared libraries mapped into this process now (empty where that cannot be read). */
    static Set<String> loadedLibraries() {
        Set<String> libs = new LinkedHashSet<>();
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) return libs;
        try (var lines = Files.lines(maps)) {
            lines.forEach(l -> {
                int slash = l.indexOf('/');
                if (slash < 0) return;
                String path = l.substring(slash).trim();
                if (path.contains(".so")) libs.add(path);
            });
        } catch (IOException | RuntimeException e) {
            libs.clear();
        }
        return libs;
    }

    /** Opens, for good, every library loaded since {@code before} was taken; returns how many. */
    static int pinLoadedSince(Set<String> before) {
        if (before.isEmpty()) return 0;
        int pinned = 0;
        for (String lib : loadedLibraries()) {
            if (before.contains(lib)) continue;
            try {
                SymbolLookup.libraryLookup(Path.of(lib), Arena.global());
                pinned++;
            } catch (RuntimeException e) {
                // A library that cannot be opened by path (deleted, or not dlopen-able) stays as it was.
            }
        }
        return pinned;
    }
}
