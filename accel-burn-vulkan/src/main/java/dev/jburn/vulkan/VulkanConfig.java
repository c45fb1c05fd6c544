package dev.jburn.vulkan;

import java.nio.file.Path;

/**
 * How the Vulkan engine picks its device and where it caches compiled shaders. Immutable; read
 * from system properties in one place ({@link #fromSystemProperties()}).
 *
 * @param device        {@code null} for the automatic choice (discrete GPU, then integrated, then
 *                      virtual, then CPU), otherwise a device index ({@code "0"}) or a
 *                      case-insensitive substring of the device name ({@code "llvmpipe"})
 * @param cacheDir      where SPIR-V binaries and the pipeline cache are stored; {@code null} disables the disk cache
 * @param forceStaging  copy as to memory the host cannot map (small uploads inline in the command buffer, the rest
 *                      through a host-visible staging buffer) even when device memory is host visible
 *                      (exercises the discrete-GPU transfer path on integrated/CPU devices)
 * @param coopMatrix    use {@code VK_KHR_cooperative_matrix} for f16/bf16 GEMMs where the device offers it
 *                      ({@code -Djburn.vulkan.coopMatrix=true}; off by default until a GPU run has checked the kernel:
 *                      it has run only emulated on lavapipe; off, those dots run on the cpu as on a device without it)
 * @param gemmDoubleBuffer f32 GEMMs run {@code GemmShaderDoubleBuffered} (K steps of 8, two shared buffers) instead of the default
 *                      tiling ({@code -Djburn.vulkan.gemmDoubleBuffer}, default false: slower on an H100, kept to compare)
 * @param pushDescriptors bind each dispatch's buffers with {@code VK_KHR_push_descriptor} where the device offers it
 *                      (one command instead of allocating, writing and binding a descriptor set); default true,
 *                      {@code -Djburn.vulkan.pushDescriptors=false} to compare
 * @param hostCopies    small uploads keep a host copy that downloads read without waiting for the queue; default
 *                      true, {@code -Djburn.vulkan.hostCopies=false} to compare
 * @param dependencyBarriers a pipeline barrier only before a command that touches a buffer an earlier command
 *                      touched since the last barrier ({@code BarrierTracker}); default true,
 *                      {@code -Djburn.vulkan.dependencyBarriers=false} puts one before every command, as before
 * @param batchWhileBusy a recorded large kernel is submitted at once only when the device is idle; while earlier
 *                      submissions run it waits in the open frame for more commands (fewer submissions);
 *                      default true, {@code -Djburn.vulkan.batchWhileBusy=false} submits it at once, as before
 * @param timelineWaits submissions signal a timeline semaphore and waits read its counter, instead of a fence per
 *                      submission, where the device has timeline semaphores ({@code -Djburn.vulkan.timelineWaits=true};
 *                      default false until a GPU measures it faster)
 * @param graphs        a compiled graph (a Jit function, a training step) that has run twice without reading device data
 *                      on the host is recorded once into a secondary command buffer and replayed from then on (its inputs
 *                      copied in, its results out: {@code ReplayedGraphs}); default true, {@code -Djburn.vulkan.graphs=false}
 *                      runs every call the ordinary way
 * @param gemmTiling    the kernel of wide f32 products, as a tiling form ({@code 16x16/8x8/k16}, {@code GemmShaderTiled}) or
 *                      a warp-tiled one ({@code w128x128/k16/64x64/n2/8x8}, {@code GemmShaderWarpTiled});
 *                      {@code -Djburn.vulkan.gemmTiling}; {@code null} for the default ({@code 16x16/8x8/k16}). A bad form
 *                      stops the engine's start with the reason, before the device is opened
 */
public record VulkanConfig(String device, Path cacheDir, boolean forceStaging, boolean coopMatrix, boolean gemmDoubleBuffer,
                           boolean pushDescriptors, boolean hostCopies, boolean dependencyBarriers, boolean batchWhileBusy,
                           boolean timelineWaits, boolean graphs, String gemmTiling) {
    /** The defaults for the settings not given: cooperative matrices off, the single-buffered f32 GEMM. */
    public VulkanConfig(String device, Path cacheDir, boolean forceStaging) { this(device, cacheDir, forceStaging, false, false); }

    /** The defaults for the host-path settings not given: push descriptors, host copies, dependency barriers, batching while busy, replayed graphs. */
    public VulkanConfig(String device, Path cacheDir, boolean forceStaging, boolean coopMatrix, boolean gemmDoubleBuffer) {
        this(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, true, true, true, true, false, true, null);
    }

    /**
     * {@code -Djburn.vulkan.device}, {@code -Djburn.vulkan.cacheDir} (default {@code ~/.cache/jburn/vulkan}; {@code none} disables),
     * {@code -Djburn.vulkan.forceStaging}, {@code -Djburn.vulkan.coopMatrix}, {@code -Djburn.vulkan.gemmDoubleBuffer},
     * {@code -Djburn.vulkan.pushDescriptors}, {@code -Djburn.vulkan.hostCopies}, {@code -Djburn.vulkan.dependencyBarriers} and
     * {@code -Djburn.vulkan.batchWhileBusy} (all four default true), {@code -Djburn.vulkan.timelineWaits} (default false), {@code -Djburn.vulkan.graphs} (default true),
     * {@code -Djburn.vulkan.gemmTiling} (default: none given).
     */
    public static VulkanConfig fromSystemProperties() {
        String device = System.getProperty("jburn.vulkan.device");
        String tiling = System.getProperty("jburn.vulkan.gemmTiling");
        if (device != null && device.isBlank()) device = null;
        String dir = System.getProperty("jburn.vulkan.cacheDir");
        Path cache;
        if (dir == null || dir.isBlank()) {
            cache = Path.of(System.getProperty("user.home"), ".cache", "jburn", "vulkan");
        } else {
            cache = dir.equalsIgnoreCase("none") ? null : Path.of(dir);
        }
        return new VulkanConfig(device == null ? null : device.trim(), cache, Boolean.getBoolean("jburn.vulkan.forceStaging"),
                Boolean.getBoolean("jburn.vulkan.coopMatrix"),
                Boolean.getBoolean("jburn.vulkan.gemmDoubleBuffer"),
                !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.pushDescriptors")),
                !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.hostCopies")),
                !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.dependencyBarriers")),
                !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.batchWhileBusy")),
                Boolean.getBoolean("jburn.vulkan.timelineWaits"),
                !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.graphs")),
                tiling == null || tiling.isBlank() ? null : tiling.trim());
    }

    public VulkanConfig withDevice(String d) {
        return new VulkanConfig(d, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withCacheDir(Path p) {
        return new VulkanConfig(device, p, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withForceStaging(boolean on) {
        return new VulkanConfig(device, cacheDir, on, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withCoopMatrix(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, on, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withGemmDoubleBuffer(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, on, pushDescriptors, hostCopies, dependencyBarriers, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withPushDescriptors(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, on, hostCopies, dependencyBarriers, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withHostCopies(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, on, dependencyBarriers, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withDependencyBarriers(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, on, batchWhileBusy, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withBatchWhileBusy(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers, on, timelineWaits, graphs, gemmTiling);
    }

    public VulkanConfig withTimelineWaits(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers,
                batchWhileBusy, on, graphs, gemmTiling);
    }

    /** Compiled graphs recorded once and replayed ({@link #graphs()}). */
    public VulkanConfig withGraphs(boolean on) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers,
                batchWhileBusy, timelineWaits, on, gemmTiling);
    }

    /** The wide f32 GEMM kernel by its form ({@link #gemmTiling()}); {@code null} for the default. */
    public VulkanConfig withGemmTiling(String form) {
        return new VulkanConfig(device, cacheDir, forceStaging, coopMatrix, gemmDoubleBuffer, pushDescriptors, hostCopies, dependencyBarriers,
                batchWhileBusy, timelineWaits, graphs, form);
    }
}
