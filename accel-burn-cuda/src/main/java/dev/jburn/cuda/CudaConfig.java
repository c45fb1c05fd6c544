package dev.jburn.cuda;

import java.nio.file.Path;

/**
 * Settings of the CUDA engine, read once from system properties.
 *
 * @param device   device ordinal ({@code -Djburn.cuda.device}, else {@code $JBURN_CUDA_DEVICE}, which the data-parallel
 *                 {@code Launcher} sets to each process's local rank; default 0)
 * @param tf32     F32 GEMMs on TF32 tensor cores ({@code -Djburn.cuda.tf32=true}; off by default:
 *                 TF32 keeps 10 mantissa bits, so results differ from F32 at about 1e-3 relative)
 * @param cacheDir where compiled CUBINs are kept between runs ({@code -Djburn.cuda.cacheDir}, default
 *                 {@code ${user.home}/.cache/jburn/cuda}); {@code null} keeps them in memory only
 * @param graphs   compiled graphs (a Jit function, a training step) replayed as CUDA graphs once they have run
 *                 twice without host transfers ({@code -Djburn.cuda.graphs=false} turns it off; on by default)
 * @param col2im   channels-last transposed convs (input cotangents) as a GEMM and a col2im sum instead of an im2col
 *                 gather and a GEMM ({@code -Djburn.cuda.col2im=false} keeps im2col, for comparisons; on by default)
 * @param directConv channels-last convs of a small im2col depth (a first layer on one or three channels) and their
 *                 kernel cotangents as direct kernels instead of an im2col gather and a GEMM
 *                 ({@link ChannelsLastDirectConv}; on by default since 2026-12-07: on an H100 the small CNN's step at
 *                 batch 1024 ran 2.8% faster with them, 427-428K against 416K samples/s in two alternating rounds, and
 *                 the cuda kit passed with them on; {@code -Djburn.cuda.directConv=false} keeps im2col + GEMM)
 * @param splitK   F32/F64 GEMMs with few output tiles and a long contraction as partial products over contraction
 *                 slices and a sum where that measures faster, once per shape ({@link SplitK};
 *                 {@code -Djburn.cuda.splitK=true}; off by default: in the small CNN's and the MLP's steps on an H100
 *                 (2026-12-07) every candidate product measured faster as one cuBLAS GEMM, so the switch only adds the
 *                 measurement, and it makes which summation order a product gets depend on a timing)
 */
public record CudaConfig(int device, boolean tf32, Path cacheDir, boolean graphs, boolean col2im, boolean directConv, boolean splitK) {
    public CudaConfig {
        if (device < 0) throw new IllegalArgumentException("device ordinal must be >= 0, got " + device);
    }

    /** Defaults overridden by the {@code jburn.cuda.*} system properties. */
    public static CudaConfig fromSystemProperties() {
        String dir = System.getProperty("jburn.cuda.cacheDir");
        Path cache = dir != null ? (dir.isBlank() ? null : Path.of(dir))
                : Path.of(System.getProperty("user.home", "."), ".cache", "jburn", "cuda");
        return new CudaConfig(Integer.getInteger("jburn.cuda.device", deviceFromEnvironment()),
                Boolean.parseBoolean(System.getProperty("jburn.cuda.tf32", "false")), cache,
                Boolean.parseBoolean(System.getProperty("jburn.cuda.graphs", "true")),
                Boolean.parseBoolean(System.getProperty("jburn.cuda.col2im", "true")),
                Boolean.parseBoolean(System.getProperty("jburn.cuda.directConv", "true")),
                Boolean.parseBoolean(System.getProperty("jburn.cuda.splitK", "false")));
    }

    private static int deviceFromEnvironment() {
        String v = System.getenv("JBURN_CUDA_DEVICE");
        if (v == null || v.isBlank()) return 0;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("JBURN_CUDA_DEVICE must be a device ordinal, got '" + v + "'");
        }
    }

    public CudaConfig withDevice(int ordinal) { return new CudaConfig(ordinal, tf32, cacheDir, graphs, col2im, directConv, splitK); }

    public CudaConfig withTf32(boolean on) { return new CudaConfig(device, on, cacheDir, graphs, col2im, directConv, splitK); }

    public CudaConfig withGraphs(boolean on) { return new CudaConfig(device, tf32, cacheDir, on, col2im, directConv, splitK); }

    public CudaConfig withCol2im(boolean on) { return new CudaConfig(device, tf32, cacheDir, graphs, on, directConv, splitK); }

    public CudaConfig withDirectConv(boolean on) { return new CudaConfig(device, tf32, cacheDir, graphs, col2im, on, splitK); }

    public CudaConfig withSplitK(boolean on) { return new CudaConfig(device, tf32, cacheDir, graphs, col2im, directConv, on); }
}
