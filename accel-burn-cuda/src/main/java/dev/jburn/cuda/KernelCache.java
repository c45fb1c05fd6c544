package dev.jburn.cuda;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kernels compiled once: CUDA C source → CUBIN (NVRTC, ~40 ms) → loaded module → function handle.
 * In memory per engine; on disk across runs under {@link CudaConfig#cacheDir()}, keyed by
 * {@link NvrtcOptions#cacheKey} (a disk problem only costs a recompile). Used under the engine's lock.
 */
final class KernelCache implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(KernelCache.class.getName());

    private final CudaDevice device;
    private final Nvrtc nvrtc;
    private final Path dir;
    private final List<String> options;
    private final String nvrtcVersion;
    /** Source text → entry → function. Callers pass the same source instances, whose hash is cached, so a hit costs no hashing. */
    private final Map<String, Map<String, MemorySegment>> functions = new HashMap<>();
    private final Map<String, MemorySegment> modules = new HashMap<>();
    private long compiles;

    KernelCache(CudaDevice device, Nvrtc nvrtc, Path dir) {
        this.device = device;
        this.nvrtc = nvrtc;
        this.dir = dir;
        this.options = NvrtcOptions.forDevice(device.ccMajor, device.ccMinor);
        this.nvrtcVersion = nvrtc.version();
    }

    /** The function {@code entry} of {@code source}, compiled and loaded on first use. */
    MemorySegment function(String source, String entry, String op) {
        Map<String, MemorySegment> entries = functions.computeIfAbsent(source, k -> new HashMap<>(4));
        MemorySegment f = entries.get(entry);
        if (f != null) return f;
        MemorySegment module = modules.get(source);
        if (module == null) {
            String key = NvrtcOptions.cacheKey(source, options, nvrtcVersion, device.arch());
            byte[] cubin = readDisk(key);
            if (cubin == null) {
                cubin = nvrtc.compileToCubin(source, entry + ".cu", options, op);
                compiles++;
                writeDisk(key, cubin);
            }
            module = device.driver.moduleLoad(cubin, op);
            modules.put(source, module);
        }
        f = device.driver.moduleFunction(module, entry, op);
        entries.put(entry, f);
        return f;
    }

    /** NVRTC compilations run by this engine (disk-cache hits excluded). */
    long compiles() { return compiles; }

    private byte[] readDisk(String key) {
        if (dir == null) return null;
        Path p = dir.resolve(key + ".cubin");
        try {
            return Files.isRegularFile(p) ? Files.readAllBytes(p) : null;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot read cached kernel " + p + ": " + e);
            return null;
        }
    }

    private void writeDisk(String key, byte[] cubin) {
        if (dir == null) return;
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, key, ".tmp");
            Files.write(tmp, cubin);
            Path target = dir.resolve(key + ".cubin");
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | SecurityException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot cache kernel in " + dir + ": " + e);
        }
    }

    @Override
    public void close() {
        for (MemorySegment m : modules.values()) device.driver.moduleUnload(m);
        modules.clear();
        functions.clear();
    }
}
