package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.KHRPushDescriptor;
import org.lwjgl.vulkan.VkComputePipelineCreateInfo;
import org.lwjgl.vulkan.VkDescriptorSetLayoutBinding;
import org.lwjgl.vulkan.VkDescriptorSetLayoutCreateInfo;
import org.lwjgl.vulkan.VkPipelineCacheCreateInfo;
import org.lwjgl.vulkan.VkPipelineLayoutCreateInfo;
import org.lwjgl.vulkan.VkPushConstantRange;
import org.lwjgl.vulkan.VkShaderModuleCreateInfo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.lwjgl.vulkan.VK10.*;

/**
 * Compute pipelines built from GLSL, cached per source text. The engine's fixed kernels (one
 * source per dtype or width, taking their sizes as parameters) live as long as the engine. Kernels
 * with shapes baked into their source ({@link #getReleasable}) are as many as the shapes a program
 * uses, so they are held weakly: a {@link Cleaner} destroys one once no cache, caller or queued
 * submission holds its {@link Pipeline} (the queue keeps what it binds until the submission has
 * finished), and a later request for its source builds it again. SPIR-V comes
 * from {@link ShaderCompiler} (disk cached); the driver's own compilation of SPIR-V to machine
 * code goes through a {@code VkPipelineCache} that is saved to the cache directory on close and
 * loaded on start (the driver ignores data from another device or driver version).
 */
final class Pipelines implements AutoCloseable {
    /**
     * One compiled compute pipeline: storage buffers at bindings {@code 0..bindingCount-1} of set 0, bound with push
     * descriptors when {@code pushDescriptors} (its set layout is then a push-descriptor layout, which no descriptor
     * set can be allocated with), else through a descriptor set per dispatch.
     */
    record Pipeline(String name, long pipeline, long layout, long setLayout, long module, int bindingCount, boolean usesParams,
                    int pushWords, boolean pushDescriptors) implements CommandQueue.Bindable {}

    private final VulkanDevice dev;
    private final ShaderCompiler compiler;
    private final Path cacheFile;
    private final long pipelineCache;
    private final Map<String, Pipeline> bySource = new ConcurrentHashMap<>();
    /** The same pipelines by what their sources were generated from ({@link #get(String, String, Object, Supplier, int, boolean)}). */
    private final Map<Object, Pipeline> byKey = new ConcurrentHashMap<>();
    /** The releasable pipelines, by source; an entry goes when its pipeline is destroyed. */
    private final Map<String, WeakReference<Pipeline>> releasable = new ConcurrentHashMap<>();
    /** Releasable pipelines not yet destroyed, so that {@link #close} destroys them before the device goes. */
    private final Set<Release> undestroyed = ConcurrentHashMap.newKeySet();
    private boolean closed;
    /** Pipelines created (one per distinct shader source, again after one was released), for tests. */
    final AtomicLong created = new AtomicLong();
    /** Releasable pipelines destroyed because nothing held them any more. */
    final AtomicLong released = new AtomicLong();

    private static final Cleaner CLEANER = Cleaner.create();

    Pipelines(VulkanDevice dev, ShaderCompiler compiler, Path cacheDir) {
        this.dev = dev;
        this.compiler = compiler;
        this.cacheFile = cacheDir == null ? null
                : cacheDir.resolve("pipelines-" + Integer.toHexString(dev.vendorId) + "-" + Integer.toHexString(dev.deviceId)
                + "-" + Integer.toHexString(dev.driverVersion) + ".bin");
        byte[] initial = null;
        try {
            if (cacheFile != null && Files.isRegularFile(cacheFile)) initial = Files.readAllBytes(cacheFile);
        } catch (IOException e) {
            initial = null;
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPipelineCacheCreateInfo ci = VkPipelineCacheCreateInfo.calloc(stack).sType$Default();
            ByteBuffer data = null;
            if (initial != null && initial.length > 0) {
                data = MemoryUtil.memAlloc(initial.length).put(initial).flip();
                ci.pInitialData(data);
            }
            LongBuffer lp = stack.mallocLong(1);
            try {
                int r = vkCreatePipelineCache(dev.device, ci, null, lp);
                if (r != VK_SUCCESS && data != null) {
                    ci.pInitialData(null);
                    r = vkCreatePipelineCache(dev.device, ci, null, lp);
                }
                VulkanErrors.check(r, "vulkan", "vkCreatePipelineCache");
            } finally {
                if (data != null) MemoryUtil.memFree(data);
            }
            pipelineCache = lp.get(0);
        }
    }

    /** Whether a pipeline may bind {@code bindingCount} storage buffers: within the device's limit and the queue's descriptor pools. */
    boolean fitsBindings(int bindingCount) { return bindingCount <= maxBindings(); }

    private int maxBindings() { return Math.min(dev.features.maxStorageBuffers(), CommandQueue.MAX_BINDINGS); }

    /** The pipeline for {@code source} with {@code bindingCount} storage buffers (parameters included). */
    Pipeline get(String op, String name, String source, int bindingCount, boolean usesParams) {
        return get(op, name, source, bindingCount, usesParams, 0);
    }

    /**
     * The pipeline for the source {@code source} generates, found by {@code key}: what the source is generated
     * from (this device's features aside, which never change), so that a dispatch of a kernel seen before
     * neither generates its GLSL again nor hashes its text (tens of microseconds for a transpose, more for a
     * GEMM, against a few for the whole dispatch otherwise). Keys of different kernels must differ: begin them
     * with the kernel's name.
     */
    Pipeline get(String op, String name, Object key, Supplier<String> source, int bindingCount, boolean usesParams) {
        Pipeline p = byKey.get(key);
        if (p != null) return p;
        p = get(op, name, source.get(), bindingCount, usesParams, 0);
        byKey.putIfAbsent(key, p);
        return p;
    }

    /**
     * The pipeline for {@code source}: {@code bindingCount} storage buffers (a parameter buffer
     * included when {@code usesParams}) and {@code pushWords} 32-bit push constants.
     */
    Pipeline get(String op, String name, String source, int bindingCount, boolean usesParams, int pushWords) {
        Pipeline p = bySource.get(source);
        if (p != null) return p;
        synchronized (this) {
            p = bySource.get(source);
            if (p == null) {
                p = build(op, name, source, bindingCount, usesParams, pushWords);
                if (created.get() % 16 == 0) save();
                bySource.put(source, p);
            }
            return p;
        }
    }

    /**
     * The pipeline for {@code source} (taking {@code pushWords} push constants, no parameter buffer),
     * held only as long as the caller holds it (see the class comment): for kernels whose source is
     * specific to a shape. Callers cache what they reuse.
     */
    Pipeline getReleasable(String op, String name, String source, int bindingCount, int pushWords) {
        Pipeline p = live(source);
        if (p != null) return p;
        synchronized (this) {
            p = live(source);
            if (p == null) {
                if (closed) throw new JBurnException(op, "the vulkan engine is closed");
                p = build(op, name, source, bindingCount, false, pushWords);
                WeakReference<Pipeline> ref = new WeakReference<>(p);
                Release r = new Release(source, ref, p);
                undestroyed.add(r);
                CLEANER.register(p, r);
                releasable.put(source, ref);
                if (created.get() % 16 == 0) save();
            }
            return p;
        }
    }

    private Pipeline live(String source) {
        WeakReference<Pipeline> ref = releasable.get(source);
        return ref == null ? null : ref.get();
    }

    /** Destroys a releasable pipeline's objects, once: when its {@link Pipeline} became unreachable, or on {@link #close}. */
    private final class Release implements Runnable {
        private final String source;
        private final WeakReference<Pipeline> ref;
        private final long pipeline, layout, setLayout, module;

        Release(String source, WeakReference<Pipeline> ref, Pipeline p) {
            this.source = source;
            this.ref = ref;
            this.pipeline = p.pipeline();
            this.layout = p.layout();
            this.setLayout = p.setLayout();
            this.module = p.module();
        }

        @Override
        public void run() {
            synchronized (Pipelines.this) {
                if (!undestroyed.remove(this)) return; // destroyed by close already
                releasable.remove(source, ref);
                destroy(pipeline, layout, setLayout, module);
                released.incrementAndGet();
            }
        }
    }

    private void destroy(long pipeline, long layout, long setLayout, long module) {
        vkDestroyPipeline(dev.device, pipeline, null);
        vkDestroyPipelineLayout(dev.device, layout, null);
        vkDestroyDescriptorSetLayout(dev.device, setLayout, null);
        vkDestroyShaderModule(dev.device, module, null);
    }

    /** Pipelines created and not destroyed yet. */
    long live() { return created.get() - released.get(); }

    private Pipeline build(String op, String name, String source, int bindingCount, boolean usesParams, int pushWords) {
        // Past the device's limit the layout is invalid usage, which drivers need not report: lavapipe
        // overran its binding arrays and crashed later in its queue thread. Kernels check beforehand
        // (fitsBindings) and decline; this is the last line.
        if (!fitsBindings(bindingCount)) {
            throw new JBurnException(op, "internal: kernel '" + name + "' binds " + bindingCount + " storage buffers, more than the "
                    + maxBindings() + " this device allows");
        }
        byte[] spirv = compiler.spirv(op, name, source);
        // SPIR-V goes on the heap, not LWJGL's 64 KB thread stack: an unrolled GEMM or a long fused group is larger.
        ByteBuffer code = org.lwjgl.system.MemoryUtil.memAlloc(spirv.length).put(spirv).flip();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            try {
                VulkanErrors.check(vkCreateShaderModule(dev.device, VkShaderModuleCreateInfo.calloc(stack).sType$Default().pCode(code), null, lp),
                        op, "vkCreateShaderModule(" + name + ")");
            } finally {
                org.lwjgl.system.MemoryUtil.memFree(code);
            }
            long module = lp.get(0);
            VkDescriptorSetLayoutBinding.Buffer bindings = VkDescriptorSetLayoutBinding.calloc(bindingCount, stack);
            for (int i = 0; i < bindingCount; i++) {
                bindings.get(i).binding(i).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(1)
                        .stageFlags(VK_SHADER_STAGE_COMPUTE_BIT);
            }
            boolean push = bindingCount <= dev.maxPushDescriptors;
            VulkanErrors.check(vkCreateDescriptorSetLayout(dev.device, VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default()
                    .flags(push ? KHRPushDescriptor.VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0).pBindings(bindings), null, lp),
                    op, "vkCreateDescriptorSetLayout");
            long setLayout = lp.get(0);
            VkPipelineLayoutCreateInfo pli = VkPipelineLayoutCreateInfo.calloc(stack).sType$Default().pSetLayouts(stack.longs(setLayout));
            if (pushWords > 0) {
                pli.pPushConstantRanges(VkPushConstantRange.calloc(1, stack).stageFlags(VK_SHADER_STAGE_COMPUTE_BIT).offset(0).size(4 * pushWords));
            }
            VulkanErrors.check(vkCreatePipelineLayout(dev.device, pli, null, lp), op, "vkCreatePipelineLayout");
            long layout = lp.get(0);
            VkComputePipelineCreateInfo.Buffer ci = VkComputePipelineCreateInfo.calloc(1, stack).sType$Default().layout(layout)
                    .flags(dev.pipelineStatistics ? PipelineStatistics.createFlags() : 0);
            ci.stage().sType$Default().stage(VK_SHADER_STAGE_COMPUTE_BIT).module(module).pName(stack.UTF8("main"));
            VulkanErrors.check(vkCreateComputePipelines(dev.device, pipelineCache, ci, null, lp), op, "vkCreateComputePipelines(" + name + ")");
            created.incrementAndGet();
            return new Pipeline(name, lp.get(0), layout, setLayout, module, bindingCount, usesParams, pushWords, push);
        }
    }

    /** Writes the driver's pipeline cache to disk (best effort). */
    void save() {
        if (cacheFile == null) return;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer size = stack.mallocPointer(1);
            if (vkGetPipelineCacheData(dev.device, pipelineCache, size, null) != VK_SUCCESS || size.get(0) == 0) return;
            ByteBuffer data = MemoryUtil.memAlloc((int) size.get(0));
            try {
                if (vkGetPipelineCacheData(dev.device, pipelineCache, size, data) != VK_SUCCESS) return;
                byte[] bytes = new byte[(int) size.get(0)];
                data.get(0, bytes);
                Files.createDirectories(cacheFile.getParent());
                Path tmp = Files.createTempFile(cacheFile.getParent(), "pipelines", ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, cacheFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException | UnsupportedOperationException e) {
                // Best effort: without it the driver compiles the SPIR-V again next run.
            } finally {
                MemoryUtil.memFree(data);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        save();
        for (Pipeline p : bySource.values()) destroy(p.pipeline(), p.layout(), p.setLayout(), p.module());
        bySource.clear();
        byKey.clear();
        for (Release r : undestroyed) destroy(r.pipeline, r.layout, r.setLayout, r.module);
        released.addAndGet(undestroyed.size());
        undestroyed.clear();
        releasable.clear();
        vkDestroyPipelineCache(dev.device, pipelineCache, null);
    }
}
