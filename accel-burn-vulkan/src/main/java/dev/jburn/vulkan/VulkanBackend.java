package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import dev.jburn.kernels.HostFallbackBackend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;

import java.lang.foreign.MemorySegment;

/**
 * The Vulkan engine's backend: device memory through VMA, native kernels as GLSL compute shaders,
 * and everything else on the cpu engine through {@link HostFallbackBackend} (counted in
 * {@code Engine.fallbackCounts()}). Thread safe: kernels are recorded and submitted under the one
 * queue's lock ({@link CommandQueue}).
 */
public final class VulkanBackend extends HostFallbackBackend {
    private final VulkanConfig config;
    final VulkanDevice dev;
    final CommandQueue queue;
    final DeviceMemory memory;
    final ShaderCompiler compiler;
    final Pipelines pipelines;
    private volatile boolean closed;

    VulkanBackend(VulkanConfig config) {
        this.config = config;
        this.dev = VulkanDevice.open(config);
        try {
            this.queue = new CommandQueue(dev);
            this.memory = new DeviceMemory(dev, queue, config.forceStaging());
            this.compiler = new ShaderCompiler(config.cacheDir());
            this.pipelines = new Pipelines(dev, compiler, config.cacheDir());
        } catch (RuntimeException e) {
            dev.close();
            throw e;
        }
    }

    @Override public String name() { return "vulkan"; }

    @Override
    public Capabilities capabilities() {
        return (op, dtype) -> false;
    }

    /** The device this engine runs on, as one line. */
    public String deviceDescription() { return dev.describe(); }

    /** The immutable configuration the engine was created with. */
    public VulkanConfig config() { return config; }

    /** Counters: kernel dispatches, queue submissions, pipelines created, shaders compiled by shaderc. */
    public Stats stats() {
        return new Stats(queue.dispatches.get(), queue.submissions.get(), pipelines.created.get(), compiler.compiled.get(),
                compiler.diskHits.get(), memory.liveBuffers.get());
    }

    /** VMA's view of device memory in use. */
    public MemoryStats memoryStats() { return dev.memoryStats(); }

    /**
     * Engine counters.
     *
     * @param dispatches        compute dispatches recorded
     * @param submissions       queue submissions (each waited for)
     * @param pipelinesCreated  distinct compute pipelines built
     * @param shadersCompiled   shaders compiled by shaderc (not found in the disk cache)
     * @param shaderDiskHits    shaders loaded from the disk cache
     * @param liveBuffers       device buffers not yet freed
     */
    public record Stats(long dispatches, long submissions, long pipelinesCreated, long shadersCompiled, long shaderDiskHits, long liveBuffers) {}

    // ---- memory -----------------------------------------------------------------------------

    @Override
    public Buffer allocate(long byteSize) {
        return memory.allocate("allocate", byteSize);
    }

    @Override
    public Buffer upload(MemorySegment host) {
        return memory.upload("upload", host);
    }

    @Override
    public void download(Buffer src, long offset, MemorySegment dst) {
        memory.download("download", device(src, "download"), offset, dst);
    }

    static DeviceBuffer device(Buffer b, String op) {
        if (b instanceof DeviceBuffer d) return d;
        throw new JBurnException(op, "buffer of another engine (" + b.getClass().getSimpleName() + ") passed to the vulkan engine");
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        pipelines.close();
        queue.close();
        dev.close();
    }
}
