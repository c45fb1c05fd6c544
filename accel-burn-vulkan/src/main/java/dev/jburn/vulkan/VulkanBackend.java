package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Interpreter;
import dev.jburn.kernels.HostFallbackBackend;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemorySegment;
import java.util.List;

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
    final MovementKernels movement;
    final DotKernels dots;
    final GatherKernels gathers;
    final IndexUpdateKernels indexUpdates;
    final ArgReduceKernels argReductions;
    final ElementwiseKernels elementwise;
    final IotaKernels iotas;
    final WindowScatterKernels windowScatters;
    final WindowExtremeKernels windowExtremes;
    final ConvKernels convs;
    final ChannelsLastConvs channelsLast;
    final FusedGraphs fused;
    /** Compiled graphs recorded once and replayed ({@link VulkanConfig#graphs()}). */
    final ReplayedGraphs replayed = new ReplayedGraphs(this);
    /** Answers from the kernels' own checks (stateless, so one instance serves every call). */
    private final Capabilities capabilities = new VulkanCapabilities(this);
    /** Whether the device's f32 arithmetic flushes subnormals to zero, measured at start. */
    final boolean flushesF32Subnormals;
    private volatile boolean closed;

    /** Where the Vulkan objects are created and destroyed (NVIDIA's driver needs one thread for both). */
    private final DeviceThread owner = new DeviceThread();

    /** The objects that hold Vulkan handles, created together on the {@link #owner} thread. */
    private record Handles(VulkanDevice dev, CommandQueue queue, DeviceMemory memory, Pipelines pipelines) {}

    VulkanBackend(VulkanConfig config) {
        this.config = config;
        DotKernels.Gemm wideF32 = DotKernels.wideF32(config); // a bad -Djburn.vulkan.gemmTiling fails here, before any native call
        this.compiler = new ShaderCompiler(config.cacheDir());
        Handles h;
        try {
            h = owner.call(() -> {
                VulkanDevice d = VulkanDevice.open(config);
                try {
                    CommandQueue q = new CommandQueue(d, config.dependencyBarriers(), config.batchWhileBusy(), config.timelineWaits());
                    return new Handles(d, q, new DeviceMemory(d, q, config.forceStaging(), config.hostCopies()), new Pipelines(d, compiler, config.cacheDir()));
                } catch (RuntimeException e) {
                    d.close();
                    throw e;
                }
            });
        } catch (RuntimeException e) {
            owner.shutdown();
            throw e;
        }
        this.dev = h.dev();
        this.queue = h.queue();
        this.memory = h.memory();
        this.pipelines = h.pipelines();
        try {
            this.movement = new MovementKernels(this);
            this.dots = new DotKernels(this, movement, wideF32);
            this.gathers = new GatherKernels(this, movement);
            this.indexUpdates = new IndexUpdateKernels(this, movement);
            this.argReductions = new ArgReduceKernels(this);
            this.elementwise = new ElementwiseKernels(this);
            this.fused = new FusedGraphs(elementwise);
            this.iotas = new IotaKernels(this);
            this.windowScatters = new WindowScatterKernels(this);
            this.windowExtremes = new WindowExtremeKernels(this);
            this.convs = new ConvKernels(this);
            this.channelsLast = new ChannelsLastConvs(convs);
            this.flushesF32Subnormals = SubnormalProbe.flushes(elementwise, memory);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        // Close in order before the process's exit handlers run, so no cleaner frees into a dead device.
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "jburn-vulkan-shutdown"));
    }

    @Override public String name() { return "vulkan"; }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    /** The device this engine runs on, as one line. */
    public String deviceDescription() { return dev.describe(); }

    /** The immutable configuration the engine was created with. */
    public VulkanConfig config() { return config; }

    /** Counters: kernel dispatches, queue submissions, pipelines created and live, shaders compiled by shaderc, live buffers and bytes. */
    public Stats stats() {
        return new Stats(queue.dispatches.get(), queue.submissions.get(), pipelines.created.get(), pipelines.live(), compiler.compiled.get(),
                compiler.diskHits.get(), memory.liveBuffers.get(), memory.liveBytes.get(), queue.deviceNanos.get(),
                queue.submitWaitNanos.get(), queue.hostWaits.get(), memory.transfers.get(), queue.barrierCount.get(), memory.buffersCreated.get());
    }

    /** Dispatches so far by op name and work-group count; empty unless {@code -Djburn.vulkan.dispatchNames=true}. */
    public java.util.Map<String, Long> dispatchNames() {
        java.util.Map<String, Long> m = new java.util.TreeMap<>();
        queue.dispatchNames.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /**
     * Device nanoseconds so far by op name and work-group count (as {@link #dispatchNames}), measured while
     * {@link #measureDeviceTime} is on; empty unless {@code -Djburn.vulkan.dispatchTimes=true} (a timestamp after each
     * dispatch: each is charged the time since the one before it, so a frame's times add up to its device time).
     *
     * <pre>{@code
     * // java -Djburn.vulkan.dispatchTimes=true ...
     * b.measureDeviceTime(true);
     * step.apply(batch);
     * b.synchronize();
     * b.dispatchTimes().forEach((name, nanos) -> System.out.println(name + ": " + nanos / 1e3 + " us"));
     * }</pre>
     */
    public java.util.Map<String, Long> dispatchTimes() {
        java.util.Map<String, Long> m = new java.util.TreeMap<>();
        queue.dispatchNanos.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /**
     * Turns on (or off) measuring each submission's time on the device with GPU timestamps, summed
     * in {@link Stats#deviceNanos()}: for profiling, since the queries cost a little per dispatch.
     * Does nothing on a queue without timestamps.
     *
     * <pre>{@code
     * VulkanBackend b = (VulkanBackend) Engine.select("vulkan").backend();
     * b.measureDeviceTime(true);
     * long before = b.stats().deviceNanos();
     * x.add(y).close();
     * long kernelNanos = b.stats().deviceNanos() - before;
     * }</pre>
     */
    public void measureDeviceTime(boolean on) { queue.timing = on; }

    /**
     * VMA's view of device memory in use, with the bytes the engine keeps cached for reuse. Waits
     * for queued work first, so buffers released while a kernel still used them are counted as cached.
     */
    public synchronized MemoryStats memoryStats() {
        // After close the allocator is gone: asking it would read freed native memory.
        if (closed) throw new JBurnException("memoryStats", "the vulkan engine is closed");
        queue.waitIdle("memoryStats");
        return dev.memoryStats(memory.cachedBytes(), memory.cacheReuses());
    }

    /**
     * Waits until every kernel submitted so far has finished. Operations return once their work is
     * queued; reading a result waits by itself, so this is for timing and for measuring memory.
     *
     * <pre>{@code
     * long t0 = System.nanoTime();
     * Tensor y = x.multiply(x);
     * ((VulkanBackend) x.engine().backend()).synchronize();
     * long nanos = System.nanoTime() - t0;
     * }</pre>
     */
    @Override
    public void synchronize() { queue.waitIdle("synchronize"); }

    /**
     * Frees the buffers of closed tensors that the engine keeps for reuse (like
     * {@code torch.cuda.empty_cache()}): for another process, or before measuring memory. The
     * engine does this by itself when an allocation fails.
     *
     * <pre>{@code
     * ((VulkanBackend) Engine.select("vulkan").backend()).releaseCachedMemory();
     * }</pre>
     */
    public void releaseCachedMemory() {
        queue.waitIdle("releaseCachedMemory"); // buffers released while still queued become cached first
        memory.releaseCached();
    }

    /**
     * Engine counters.
     *
     * @param dispatches        compute dispatches recorded
     * @param submissions       queue submissions
     * @param pipelinesCreated  compute pipelines built (a shape-specific one again after it was released)
     * @param livePipelines     pipelines not destroyed yet: the engine's fixed kernels, and the shape-specific
     *                          ones its kernel cache (bounded) or a queued submission still holds
     * @param shadersCompiled   shaders compiled by shaderc (not found in the disk cache)
     * @param shaderDiskHits    shaders loaded from the disk cache
     * @param liveBuffers       device buffers not yet freed
     * @param liveBytes         their bytes as allocated (rounded up to a size class); buffers kept for reuse
     *                          ({@link MemoryStats#cachedBytes()}) are not counted
     * @param deviceNanos       device time of the submissions made while {@link #measureDeviceTime} was on (GPU timestamps)
     * @param submitWaitNanos   host time spent in {@code vkQueueSubmit} and waiting on those submissions' fences
     * @param hostWaits         times the host waited for the queue to drain (a read of device data, a staged upload)
     * @param transfers         copies between host and device memory (uploads and downloads; a small upload read back
     *                          from its host copy is none)
     * @param barriers          pipeline barriers recorded between commands: one before each command that touches a
     *                          buffer an earlier command touched since the last barrier
     * @param buffersCreated    device buffers created through VMA (the rest came from the engine's cache of freed ones)
     */
    public record Stats(long dispatches, long submissions, long pipelinesCreated, long livePipelines, long shadersCompiled,
                        long shaderDiskHits, long liveBuffers, long liveBytes, long deviceNanos, long submitWaitNanos,
                        long hostWaits, long transfers, long barriers, long buffersCreated) {}

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

    // ---- element-wise and reductions (GLSL from the shared emitter) ------------------------------

    @Override
    public Buffer unary(UnaryOp op, Operand x, DType out) {
        Buffer r = elementwise.unary(op, x, out);
        return r != null ? r : super.unary(op, x, out);
    }

    @Override
    public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        Buffer r = elementwise.binary(op, a, b, outShape, out);
        return r != null ? r : super.binary(op, a, b, outShape, out);
    }

    @Override
    public Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        Buffer r = elementwise.select(pred, onTrue, onFalse, outShape);
        return r != null ? r : super.select(pred, onTrue, onFalse, outShape);
    }

    @Override
    public Buffer cast(Operand x, DType to) {
        Buffer r = elementwise.cast(x, to);
        return r != null ? r : super.cast(x, to);
    }

    @Override
    public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) {
        Buffer r = elementwise.reduce(op, x, axes, out);
        return r != null ? r : super.reduce(op, x, axes, out);
    }

    /**
     * Interprets the graph, its channels-last conv groups each as one strided implicit GEMM ({@link ChannelsLastConvs})
     * and each Jit fusion group as one shader ({@link FusedGraphs}).
     */
    @Override
    public List<Buffer> execute(Graph graph, List<Operand> inputs) {
        // Per-dispatch device timing sees only dispatches recorded into frames, not inside a recording: profile ordinary runs.
        if (!config.graphs() || CommandQueue.TIME_DISPATCHES || graph.nodes().size() < 2) return interpret(rewrite(graph), inputs, null);
        return replayed.execute(graph, inputs, this::rewrite, this::interpret);
    }

    private Graph rewrite(Graph graph) {
        return fused.rewrite(channelsLast.rewrite(graph));
    }

    /** Runs a rewritten graph node by node; {@code constants} (may be null) supplies its uploaded constants. */
    private List<Buffer> interpret(Graph rewritten, List<Operand> inputs, java.util.Map<dev.jburn.graph.Node, Buffer> constants) {
        return Interpreter.execute(this, rewritten, inputs, new boolean[inputs.size()], (node, in, reusable) -> {
            if (constants != null && node.prim() instanceof dev.jburn.graph.Prim.Constant) {
                Buffer b = constants.get(node);
                if (b != null) return List.of(b.retain());
            }
            List<Buffer> r = channelsLast.run(node, in);
            return r != null ? r : fused.run(node, in, reusable);
        });
    }

    /**
     * {@code {recorded, replays, refused}}: compiled graphs recorded for replay so far, runs replayed, graphs left to
     * run the ordinary way ({@link VulkanConfig#graphs()}).
     */
    public long[] graphCounts() { return replayed.counts(); }

    /** {@link #execute(Graph, List)}; donated inputs are not reused (every kernel writes a new buffer). */
    @Override
    public List<Buffer> execute(Graph graph, List<Operand> inputs, boolean[] donated) {
        return execute(graph, inputs);
    }

    // ---- movement and contraction --------------------------------------------------------------

    @Override
    public Buffer transpose(Operand x, int[] perm) {
        Buffer r = movement.transpose(x, perm);
        return r != null ? r : super.transpose(x, perm);
    }

    @Override
    public Buffer broadcast(Operand x, Shape outShape, int[] axes) {
        Buffer r = movement.broadcast(x, outShape, axes);
        return r != null ? r : super.broadcast(x, outShape, axes);
    }

    @Override
    public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        Buffer r = movement.slice(x, starts, lengths, strides);
        return r != null ? r : super.slice(x, starts, lengths, strides);
    }

    @Override
    public Buffer putSlice(Operand x, int[] starts, Operand update) {
        Buffer r = movement.putSlice(x, starts, update);
        return r != null ? r : super.putSlice(x, starts, update);
    }

    @Override
    public Buffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        Buffer r = movement.pad(x, padValue, lo, hi, interior);
        return r != null ? r : super.pad(x, padValue, lo, hi, interior);
    }

    @Override
    public Buffer reverse(Operand x, int[] axes) {
        Buffer r = movement.reverse(x, axes);
        return r != null ? r : super.reverse(x, axes);
    }

    @Override
    public Buffer concatenate(List<Operand> parts, int axis) {
        Buffer r = movement.concatenate(parts, axis);
        return r != null ? r : super.concatenate(parts, axis);
    }

    @Override
    public Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) {
        Buffer r = dots.dot(a, contractA, batchA, b, contractB, batchB, out);
        return r != null ? r : super.dot(a, contractA, batchA, b, contractB, batchB, out);
    }

    /** On the device; an out-of-range index falls back so the cpu engine raises the exact error. */
    @Override
    public Buffer gather(Operand x, Operand indices, int[] axes) {
        Buffer r = gathers.gather(x, indices, axes);
        return r != null ? r : super.gather(x, indices, axes);
    }

    /** On the device: one work group per line, with the cpu engine's NaN and tie rules. */
    @Override
    public Buffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out) {
        Buffer r = argReductions.argReduce(op, x, axis, tieBreakHigh, out);
        return r != null ? r : super.argReduce(op, x, axis, tieBreakHigh, out);
    }

    /** On the device, in row order (exact sums, last write wins); an out-of-range index falls back like gather's. */
    @Override
    public Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        Buffer r = indexUpdates.update(target, indices, updates, axes, accumulate);
        return r != null ? r : super.indexedUpdate(target, indices, updates, axes, accumulate);
    }

    /**
     * Window max and min of f32 as one kernel ({@link WindowExtremeKernels}); the other window reductions are
     * decomposed by the front end into slices and element-wise ops before they get here.
     */
    @Override
    public Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec) {
        Buffer r = windowExtremes.reduce(op, x, spec);
        return r != null ? r : super.windowReduce(op, x, spec);
    }

    /**
     * Max-pool's gradient on the device: each window's element selected, then each output element sums the
     * sources that picked it, in window order ({@link WindowScatterShader}): the cpu engine's result, no atomics.
     */
    @Override
    public Buffer windowScatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        Buffer r = windowScatters.scatter(op, x, source, init, spec);
        return r != null ? r : super.windowScatter(op, x, source, init, spec);
    }

    /**
     * Convolution on the device, f32 ({@link ConvKernels}: an implicit GEMM, or a direct kernel for grouped convs): one
     * dispatch (two when split along K), where the decomposition made one per kernel tap.
     */
    @Override
    public Buffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        Buffer r = convs.conv(input, kernel, spec, out);
        return r != null ? r : super.conv(input, kernel, spec, out);
    }

    @Override
    public Buffer iota(Shape shape, DType dtype, int axis) {
        Buffer r = iotas.iota(shape, dtype, axis);
        return r != null ? r : super.iota(shape, dtype, axis);
    }

    static DeviceBuffer device(Buffer b, String op) {
        if (b instanceof DeviceBuffer d) return d;
        throw new JBurnException(op, "buffer of another engine (" + b.getClass().getSimpleName() + ") passed to the vulkan engine");
    }

    /** Whether {@link #close} has run. */
    boolean isClosed() { return closed; }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            owner.call(() -> {
                try {
                    replayed.close(); // before the queue: a recording's commands and buffers go with it
                } catch (RuntimeException e) {
                    // the device was lost or the queue closed: its objects go with the queue and the memory below
                }
                queue.close(); // waits for a submission in flight, then refuses new ones: nothing below races a kernel
                pipelines.close();
                memory.close();
                dev.close();
                return null;
            });
        } finally {
            owner.shutdown();
        }
    }
}
