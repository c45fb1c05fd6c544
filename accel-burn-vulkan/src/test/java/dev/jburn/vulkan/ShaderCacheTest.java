package dev.jburn.vulkan;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** SPIR-V cache keys and the disk cache (shaderc runs on the host; no Vulkan device needed). */
class ShaderCacheTest {
    @Test
    void keyDependsOnSourceAndCompilerVersion() {
        String k = ShaderCompiler.cacheKey("void main() {}", "shaderc-1");
        assertEquals(64, k.length());
        assertEquals(k, ShaderCompiler.cacheKey("void main() {}", "shaderc-1"));
        assertNotEquals(k, ShaderCompiler.cacheKey("void main() { }", "shaderc-1"));
        assertNotEquals(k, ShaderCompiler.cacheKey("void main() {}", "shaderc-2"));
    }

    @Test
    void secondCompilerReadsTheDiskCache(@TempDir Path dir) throws Exception {
        String src = StridedCopyShader.source(4);
        ShaderCompiler first = new ShaderCompiler(dir);
        byte[] a = first.spirv("test", "copy4", src);
        assertEquals(1, first.compiled.get());
        assertEquals(0x07230203, (a[0] & 0xFF) | (a[1] & 0xFF) << 8 | (a[2] & 0xFF) << 16 | (a[3] & 0xFF) << 24, "SPIR-V magic");
        String key = ShaderCompiler.cacheKey(src, first.compilerVersion());
        assertTrue(Files.isRegularFile(dir.resolve(key + ".spv")));

        ShaderCompiler second = new ShaderCompiler(dir);
        assertArrayEquals(a, second.spirv("test", "copy4", src));
        assertEquals(0, second.compiled.get());
        assertEquals(1, second.diskHits.get());
    }

    @Test
    void compileErrorsNameTheOpAndShowTheSource(@TempDir Path dir) {
        ShaderCompiler c = new ShaderCompiler(dir);
        var e = assertThrows(dev.jburn.JBurnException.class, () -> c.spirv("exp", "broken", "#version 450\nvoid main() { undefined_thing(); }\n"));
        assertTrue(e.getMessage().contains("exp"), e.getMessage());
        assertTrue(e.getMessage().contains("GLSL compilation of broken failed"), e.getMessage());
    }

    @Test
    void everyShippedShaderCompiles(@TempDir Path dir) {
        ShaderCompiler c = new ShaderCompiler(dir);
        for (int w : new int[] {1, 2, 4, 8}) assertTrue(c.spirv("test", "copy" + w, StridedCopyShader.source(w)).length > 0);
        assertTrue(c.spirv("test", "gemm-f32", GemmShader.source(false, false)).length > 0);
        assertTrue(c.spirv("test", "gemm-f32-wide", GemmShader.source(false, true)).length > 0);
        assertTrue(c.spirv("test", "gemm-f64", GemmShader.source(true, false)).length > 0);
        assertTrue(c.spirv("test", "gemm-f32-db8", GemmShaderDoubleBuffered.source(false)).length > 0);
        assertTrue(c.spirv("test", "gemm-f32-db8-wide", GemmShaderDoubleBuffered.source(true)).length > 0);
    }
}
