package dev.jburn.cuda;

import java.nio.file.Path;

/**
 * Settings of the CUDA engine, read once from system properties.
 *
 * @param device   device ordinal ({@code -Djburn.cuda.device}, default 0)
 * @param tf32     F32 GEMMs on TF32 tensor cores ({@code -Djburn.cuda.tf32=true}; off by default:
 *                 TF32 keeps 10 mantissa bits, so results differ from F32 at about 1e-3 relative)
 * @param cacheDir where compiled CUBINs are kept between runs ({@code -Djburn.cuda.cacheDir}, default
 *                 {@code ${user.home}/.cache/jburn/cuda}); {@code null} keeps them in memory only
 */
public record CudaConfig(int device, boolean tf32, Path cacheDir) {
    public CudaConfig {
        if (device < 0) throw new IllegalArgumentException("device ordinal must be >= 0, got " + device);
    }

    /** Defaults overridden by the {@code jburn.cuda.*} system properties. */
    public static CudaConfig fromSystemProperties() {
        String dir = System.getProperty("jburn.cuda.cacheDir");
        Path cache = dir != null ? (dir.isBlank() ? null : Path.of(dir))
                : Path.of(System.getProperty("user.home", "."), ".cache", "jburn", "cuda");
        return new CudaConfig(Integer.getInteger("jburn.cuda.device", 0),
                Boolean.parseBoolean(System.getProperty("jburn.cuda.tf32", "false")), cache);
    }

    public CudaConfig withTf32(boolean on) { return new CudaConfig(device, on, cacheDir); }
}
