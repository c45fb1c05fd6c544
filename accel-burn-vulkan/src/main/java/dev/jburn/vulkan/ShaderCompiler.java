package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.shaderc.Shaderc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.lwjgl.util.shaderc.Shaderc.*;

/**
 * GLSL compute shaders to SPIR-V with shaderc, cached in memory and on disk. shaderc costs about
 * half a second per shader, so the SPIR-V is stored under the cache directory keyed by a SHA-256
 * of the source and the compiler's version ({@link #cacheKey}); a second run of the same program
 * compiles nothing.
 */
final class ShaderCompiler {
    private final Path cacheDir;
    private final String compilerVersion;
    private final Map<String, byte[]> memory = new ConcurrentHashMap<>();
    /** How many shaders shaderc actually compiled (cache misses), for tests and logs. */
    final AtomicLong compiled = new AtomicLong();
    /** How many came from the disk cache. */
    final AtomicLong diskHits = new AtomicLong();

    ShaderCompiler(Path cacheDir) {
        this.cacheDir = cacheDir;
        this.compilerVersion = shadercVersion();
    }

    /** shaderc's SPIR-V version and revision plus the LWJGL build, which pins the shaderc build. */
    static String shadercVersion() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer v = stack.mallocInt(1), r = stack.mallocInt(1);
            shaderc_get_spv_version(v, r);
            return "shaderc-spv" + Integer.toHexString(v.get(0)) + "r" + r.get(0) + "-lwjgl" + org.lwjgl.Version.getVersion();
        }
    }

    /** The disk cache key of {@code source}: hex SHA-256 of the compiler version, the target and the source. */
    static String cacheKey(String source, String compilerVersion) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(compilerVersion.getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update("vulkan1.2".getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(source.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** SPIR-V for {@code source}; {@code name} appears in error messages. */
    byte[] spirv(String op, String name, String source) {
        byte[] hit = memory.get(source);
        if (hit != null) return hit;
        String key = cacheKey(source, compilerVersion);
        byte[] code = readCache(key);
        if (code != null) {
            diskHits.incrementAndGet();
        } else {
            code = compile(op, name, source);
            writeCache(key, code);
        }
        memory.put(source, code);
        return code;
    }

    private byte[] compile(String op, String name, String source) {
        long compiler = shaderc_compiler_initialize();
        if (compiler == 0) throw new JBurnException(op, "shaderc could not be initialized");
        long options = shaderc_compile_options_initialize();
        try {
            shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
            shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
            long result = shaderc_compile_into_spv(compiler, source, shaderc_compute_shader, name + ".comp", "main", options);
            if (result == 0) throw new JBurnException(op, "shaderc returned no result for " + name);
            try {
                if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success) {
                    throw new JBurnException(op, "GLSL compilation of " + name + " failed: " + shaderc_result_get_error_message(result)
                            + "\n" + numbered(source));
                }
                ByteBuffer bytes = shaderc_result_get_bytes(result);
                byte[] out = new byte[bytes.remaining()];
                bytes.get(out);
                compiled.incrementAndGet();
                return out;
            } finally {
                shaderc_result_release(result);
            }
        } finally {
            shaderc_compile_options_release(options);
            shaderc_compiler_release(compiler);
        }
    }

    private static String numbered(String source) {
        StringBuilder b = new StringBuilder();
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) b.append(i + 1).append(": ").append(lines[i]).append('\n');
        return b.toString();
    }

    private byte[] readCache(String key) {
        if (cacheDir == null) return null;
        Path p = cacheDir.resolve(key + ".spv");
        try {
            if (!Files.isRegularFile(p)) return null;
            byte[] b = Files.readAllBytes(p);
            // A SPIR-V module starts with the magic number 0x07230203 (little-endian on disk here).
            boolean valid = b.length >= 20 && b.length % 4 == 0 && (b[0] & 0xFF) == 0x03 && (b[1] & 0xFF) == 0x02
                    && (b[2] & 0xFF) == 0x23 && (b[3] & 0xFF) == 0x07;
            return valid ? b : null;
        } catch (IOException e) {
            return null;
        }
    }

    private void writeCache(String key, byte[] code) {
        if (cacheDir == null) return;
        try {
            Files.createDirectories(cacheDir);
            Path tmp = Files.createTempFile(cacheDir, key, ".tmp");
            Files.write(tmp, code);
            Files.move(tmp, cacheDir.resolve(key + ".spv"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | UnsupportedOperationException e) {
            // The cache is an optimization: a read-only home directory only costs compile time.
        }
    }

    String compilerVersion() { return compilerVersion; }

    /** Keeps the class loaded for its constants (shaderc's natives load on first use). */
    static void touch() { Shaderc.getLibrary(); }
}
