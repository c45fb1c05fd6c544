package dev.jburn.vulkan;

import dev.jburn.JBurnException;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.util.vma.VmaAllocationInfo;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkBufferCreateInfo;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferAllocateInfo;
import org.lwjgl.vulkan.VkCommandBufferBeginInfo;
import org.lwjgl.vulkan.VkCommandBufferInheritanceInfo;
import org.lwjgl.vulkan.VkCommandPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorBufferInfo;
import org.lwjgl.vulkan.VkDescriptorPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorPoolSize;
import org.lwjgl.vulkan.VkDescriptorSetAllocateInfo;
import org.lwjgl.vulkan.VkFenceCreateInfo;
import org.lwjgl.vulkan.VkMemoryBarrier;
import org.lwjgl.vulkan.VkQueryPoolCreateInfo;
import org.lwjgl.vulkan.VkSemaphoreCreateInfo;
import org.lwjgl.vulkan.VkSemaphoreTypeCreateInfo;
import org.lwjgl.vulkan.VkSemaphoreWaitInfo;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkTimelineSemaphoreSubmitInfo;
import org.lwjgl.vulkan.VkWriteDescriptorSet;

import java.lang.foreign.MemorySegment;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.KHRPushDescriptor.vkCmdPushDescriptorSetKHR;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK12.VK_SEMAPHORE_TYPE_TIMELINE;
import static org.lwjgl.vulkan.VK12.vkGetSemaphoreCounterValue;
import static org.lwjgl.vulkan.VK12.vkWaitSemaphores;

/**
 * The one queue everything runs on. A {@link #submit} records commands into the open one of a
 * few command buffers ("frames") and returns without waiting: the device runs them while the
 * caller goes on. The open frame is submitted to the device as soon as it holds work worth a
 * submission (a large dispatch or copy while the device is idle, or {@link #FLUSH_SETS} dispatches, 32 by default), or when the host
 * must see results ({@link #waitIdle}, which downloads call): a stream of small ops then costs one
 * {@code vkQueueSubmit} per batch instead of one per op (on the H200 a submission costs ~25 µs, and
 * the tiny kernel finished before the next op was recorded, so "submit when the device is idle"
 * batched almost nothing). A frame is waited for only when
 * it comes round again, or in {@link #waitIdle}. Recording is serialized under one lock and runs
 * in order; a command that touches a buffer an earlier command touched since the last barrier starts
 * with a barrier on everything before it ({@link BarrierTracker}); independent commands share one.
 *
 * <p>Lifetimes: every buffer a submission binds stays strongly reachable until its frame's fence
 * has signalled, and {@link DeviceMemory} defers freeing a released buffer until every
 * submission made before the release has finished ({@link #submittedSerial()},
 * {@link #completedSerial()}), so neither an explicit release nor the cleaner frees memory a
 * queued kernel still uses.
 *
 * <p>Kernel parameters (shapes, strides) go into a persistently mapped buffer, one region per
 * frame, bound as each dispatch's last storage buffer; a frame's region and descriptor pool are
 * reset when the frame is reused.
 */
final class CommandQueue implements AutoCloseable {
    /** Bytes of kernel parameters one submission may use. */
    static final long PARAM_BYTES = 1 << 16;
    /** The most bytes {@link Recorder#update} writes: {@code vkCmdUpdateBuffer}'s limit. */
    static final int MAX_INLINE_UPLOAD = 65536;
    /** Submissions that may be in flight at once ({@code -Djburn.vulkan.frames}, 2 to 64, for comparisons). */
    static final int FRAMES = Math.clamp(Integer.getInteger("jburn.vulkan.frames", 4), 2, 64);
    /** Descriptor sets (dispatches) one frame may hold. */
    private static final int MAX_SETS = 128;
    /** The most dispatches one {@link #submit} body records (concatenate's part limit); a frame is closed before it could overflow. */
    static final int MAX_SETS_PER_BODY = 48;
    /** A frame with this many dispatches is submitted ({@code -Djburn.vulkan.flushSets}, 1 to 80, for comparisons). */
    static final int FLUSH_SETS = Math.clamp(Integer.getInteger("jburn.vulkan.flushSets", 32), 1, MAX_SETS - MAX_SETS_PER_BODY);
    /**
     * A frame with this much work (work groups dispatched, or copied/filled bytes / 1024) is submitted at
     * once when the device is idle, so a large kernel starts while the host goes on: 256 groups of an
     * element-wise kernel are 64K elements. While earlier submissions still run, the frame keeps filling
     * ({@link #batchWhileBusy}): its work would only queue behind them, and the device is checked again
     * after each command recorded. A training step at batch 128 made ~54 submissions (~25 µs each on the
     * H200) for 164 dispatches when every large kernel was submitted at once.
     */
    static final long FLUSH_WORK = Math.max(1, Long.getLong("jburn.vulkan.flushWork", 256)); // -Djburn.vulkan.flushWork, for comparisons
    /** Whether a frame with {@link #FLUSH_WORK} is held back while the device is busy ({@link VulkanConfig#batchWhileBusy()}). */
    private final boolean batchWhileBusy;
    /**
     * How long a wait polls the fence before blocking in the driver; not on a CPU device such as lavapipe, whose own
     * threads need the cores a spinning host would hold. 20 ms, as CUDA's default synchronization spins: on an H100 a
     * waited-for 3.4 ms GEMM saw its fence 96-114 µs after the device finished when the spin (then 200 µs) had run out
     * and the driver's blocking wait woke the host, 1-8 µs while spinning (calibrated timestamps, {@link LatencyProbe},
     * 2026-12-07). A kernel longer than the spin still pays the wake-up.
     */
    private static final long SPIN_NS = Math.max(0, Long.getLong("jburn.vulkan.spinNanos", 20_000_000)); // -Djburn.vulkan.spinNanos
    private final long spinNs;
    /**
     * After the spin, how long the host sleeps between polls of the fence ({@code -Djburn.vulkan.pollNanos}; 0: block in
     * the driver at once), for up to {@link #POLL_FOR_NS}: a sleep's wake-up is the OS timer's (~50-80 µs on Linux),
     * which may beat a driver's blocking wait on a long kernel. Not on a CPU device.
     */
    private static final long POLL_NS = Math.max(0, Long.getLong("jburn.vulkan.pollNanos", 0));
    private static final long POLL_FOR_NS = 50_000_000L;
    private final long pollNs;
    /**
     * With {@link VulkanConfig#timelineWaits()} (where the device has timeline semaphores): the semaphore each
     * submission signals with its serial, whose counter waits read instead of a fence per frame (a fence is reset and
     * re-armed per submission, the counter is one read); {@code VK_NULL_HANDLE} when off.
     */
    private final long timeline;
    /**
     * Storage buffers one dispatch binds at most, whatever the device allows ({@link Pipelines#fitsBindings}):
     * each frame's descriptor pool holds this many for every one of its sets, so no frame can run out.
     */
    static final int MAX_BINDINGS = 64;
    private static final long FENCE_TIMEOUT_NS = 600L * 1_000_000_000L;

    private final VulkanDevice dev;
    private final ReentrantLock lock = new ReentrantLock();
    private final long commandPool;
    private final Frame[] frames = new Frame[FRAMES];
    private int nextFrame;
    private final long paramBuffer;
    private final long paramAllocation;
    private final MemorySegment paramMemory;
    /** Where each dispatch's parameters start in the parameter buffer: a multiple of this many bytes. */
    private final long paramAlign;
    private final long queryPool;
    final AtomicLong dispatches = new AtomicLong();
    /**
     * With {@code -Djburn.vulkan.dispatchNames=true}: dispatches by op name and work-group count (what a step spends its
     * dispatches on; {@code TrainStepBench} prints it). Off by default: a map update per dispatch.
     */
    static final boolean COUNT_NAMES = Boolean.getBoolean("jburn.vulkan.dispatchNames");
    final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.LongAdder> dispatchNames = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * With {@code -Djburn.vulkan.dispatchTimes=true}, while {@link #timing} is on: device time by op name, work-group
     * count (the names of {@link #dispatchNames}) and pipeline name in brackets, from a timestamp written after each dispatch (bottom of pipe: when every
     * command before it has finished). A dispatch is charged the time from the timestamp before it (the previous dispatch's,
     * or the frame's start) to its own, so the times of a frame add up to its device time; copies and updates recorded
     * between dispatches go to the next one, and dispatches that overlap on the device charge the later one. The first
     * {@link #TIMED_DISPATCHES} dispatches of a frame are timed, the rest charged to the frame's end ("(untimed)").
     * What a step's device time goes to ({@code TrainStepBench --device-time} prints it).
     */
    static final boolean TIME_DISPATCHES = Boolean.getBoolean("jburn.vulkan.dispatchTimes");
    /** Dispatches of one frame that {@link #TIME_DISPATCHES} times; its query pool holds this many per frame. */
    static final int TIMED_DISPATCHES = 1024;
    final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.LongAdder> dispatchNanos = new java.util.concurrent.ConcurrentHashMap<>();
    /** The per-dispatch timestamps of {@link #TIME_DISPATCHES} ({@link #TIMED_DISPATCHES} a frame), or null. */
    private final long dispatchPool;
    final AtomicLong submissions = new AtomicLong();
    /** Pipeline barriers recorded between commands (one before each command that depends on the ones before it). */
    final AtomicLong barrierCount = new AtomicLong();
    /** Which buffers the commands since the last barrier touched, across submissions (under the lock). */
    private final BarrierTracker barriers;
    /** The buffer handles of the command being recorded, for {@link Recorder#order} (under the lock). */
    private final long[] handles = new long[MAX_BINDINGS];
    /** {@link #waitIdle} calls that found work still queued: each stalls the host until the device has drained. */
    final AtomicLong hostWaits = new AtomicLong();
    /**
     * Device time of the submissions made while {@link #timing} is on, from a timestamp at each
     * one's start and end (off by default: on lavapipe the query costs about as much as a small dispatch).
     */
    final AtomicLong deviceNanos = new AtomicLong();
    /** Host time spent in {@code vkQueueSubmit} and waiting on fences while {@link #timing} is on. */
    final AtomicLong submitWaitNanos = new AtomicLong();
    /** Launch and completion latencies of timed submissions, where the device was opened with the probe ({@link LatencyProbe}). */
    final LatencyProbe latency;
    volatile boolean timing;
    /** The serial of the latest frame submitted to the device. */
    private volatile long submitted;
    /** The serial of the latest frame anything was recorded into: {@link #submitted}, or one more while a frame is open. */
    private volatile long recorded;
    private volatile long completed;
    /** The frame being recorded into, not yet submitted; null when none. */
    private Frame open;
    /** Called with the serial of each submission once it has finished (under the queue's lock). */
    private volatile java.util.function.LongConsumer onCompleted = s -> { };
    private volatile boolean lost;
    private boolean closed;
    /** The capture being recorded ({@link #beginCapture}), by the thread that holds the lock until it ends; null when none. */
    private Capture capture;
    /** Captures not destroyed yet, which {@link #close} frees before their command pool goes (under the lock). */
    private final List<Capture> captures = new ArrayList<>();
    /** The next command starts with a barrier whatever the tracker says (its window was cleared for a capture). */
    private boolean barrierDue;
    /** Dispatches one capture may hold. */
    static final int CAPTURE_SETS = 2048;
    /** Bytes of kernel parameters one capture may hold. */
    static final long CAPTURE_PARAM_BYTES = 1 << 19;

    /** One command buffer with what its submission holds until it has finished. */
    private final class Frame {
        final int index;
        final VkCommandBuffer cmd;
        final long fence;
        final long descriptorPool;
        final List<Object> keepAlive = new ArrayList<>();
        long serial;
        boolean pending;
        boolean timed;
        /** {@link System#nanoTime} just before this frame's {@code vkQueueSubmit}, when {@link #timed}. */
        long submitHostNanos;
        /** The names of the dispatches timed in this frame, in order ({@link #TIME_DISPATCHES}; empty otherwise). */
        final List<String> timedNames = new ArrayList<>();
        long paramOffset;
        int sets;
        long work;
        /** The compute pipeline bound last in this command buffer (0: none yet). */
        long boundPipeline;
        /** Where this frame's kernel parameters go: a region of {@code paramBuffer} ({@code paramMemory} maps the whole buffer). */
        final long paramBuffer;
        final MemorySegment paramMemory;
        final long paramBase;
        final long paramBytes;
        /** Dispatches (descriptor sets) this frame may hold. */
        final int maxSets;
        /** Submit this frame as soon as the current body is recorded (a replayed graph: a whole step, worth starting at once). */
        boolean flushNow;

        Frame(int index, VkCommandBuffer cmd, long fence, long descriptorPool, long paramBuffer, MemorySegment paramMemory,
              long paramBase, long paramBytes, int maxSets) {
            this.index = index;
            this.cmd = cmd;
            this.fence = fence;
            this.descriptorPool = descriptorPool;
            this.paramBuffer = paramBuffer;
            this.paramMemory = paramMemory;
            this.paramBase = paramBase;
            this.paramBytes = paramBytes;
            this.maxSets = maxSets;
        }
    }

    /**
     * Commands recorded once into a secondary command buffer ({@link #beginCapture}) and executed any number of times
     * ({@link Recorder#execute}): a compiled graph's whole run ({@link ReplayedGraphs}). It owns its descriptor pool and
     * parameter buffer (their contents are part of the recording) and keeps the pipelines and buffers it binds reachable.
     */
    final class Capture {
        private final Frame frame;
        private final long paramAllocation;
        /** Dispatches recorded. */
        private int dispatches;
        private boolean destroyed;
        /**
         * The buffers it binds that its graph's pool does not own (a kernel's cached table, a constant), each retained
         * once: their memory must outlive every replay, not just the recording's submission.
         */
        private final java.util.Set<DeviceBuffer> held = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

        private void hold(DeviceBuffer b) {
            if (b.alloc.pool == null && held.add(b)) b.retain();
        }

        private Capture(Frame frame, long paramAllocation) {
            this.frame = frame;
            this.paramAllocation = paramAllocation;
        }

        /** Dispatches recorded. */
        int dispatches() { return dispatches; }
    }

    /** A host-visible storage buffer that stays mapped: kernel parameters written by the host, read by dispatches. */
    private record MappedParams(long buffer, long allocation, MemorySegment memory) {}

    private MappedParams mappedParams(long bytes, String op, String call) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkBufferCreateInfo bci = VkBufferCreateInfo.calloc(stack).sType$Default().size(bytes)
                    .usage(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT).sharingMode(VK_SHARING_MODE_EXCLUSIVE);
            VmaAllocationCreateInfo aci = VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO)
                    .flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_SEQUENTIAL_WRITE_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT);
            VmaAllocationInfo info = VmaAllocationInfo.calloc(stack);
            LongBuffer lp = stack.mallocLong(1);
            PointerBuffer pa = stack.mallocPointer(1);
            VulkanErrors.check(vmaCreateBuffer(dev.allocator, bci, aci, lp, pa, info), op, call);
            return new MappedParams(lp.get(0), pa.get(0), MemorySegment.ofAddress(info.pMappedData()).reinterpret(bytes));
        }
    }

    /**
     * {@code dependencyBarriers}: a barrier only before a command that depends on earlier ones (false: before every
     * command); {@code batchWhileBusy}: see {@link #FLUSH_WORK}; {@code timelineWaits}: see {@link #timeline}.
     */
    CommandQueue(VulkanDevice dev, boolean dependencyBarriers, boolean batchWhileBusy, boolean timelineWaits) {
        this.dev = dev;
        this.batchWhileBusy = batchWhileBusy;
        this.barriers = new BarrierTracker(dependencyBarriers);
        this.latency = new LatencyProbe(dev);
        this.spinNs = dev.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 0 : SPIN_NS;
        this.pollNs = dev.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 0 : POLL_NS;
        this.paramAlign = Math.max(16, dev.features.minStorageBufferOffsetAlignment());
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            VkCommandPoolCreateInfo pci = VkCommandPoolCreateInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT).queueFamilyIndex(dev.queueFamily);
            VulkanErrors.check(vkCreateCommandPool(dev.device, pci, null, lp), "vulkan", "vkCreateCommandPool");
            commandPool = lp.get(0);
            PointerBuffer pp = stack.mallocPointer(FRAMES);
            VkCommandBufferAllocateInfo cai = VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
                    .commandPool(commandPool).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(FRAMES);
            VulkanErrors.check(vkAllocateCommandBuffers(dev.device, cai, pp), "vulkan", "vkAllocateCommandBuffers");
            VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack)
                    .type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(MAX_SETS * MAX_BINDINGS);
            VkDescriptorPoolCreateInfo dpi = VkDescriptorPoolCreateInfo.calloc(stack).sType$Default().maxSets(MAX_SETS).pPoolSizes(sizes);

            if (timelineWaits && dev.timelineSemaphores) {
                VkSemaphoreTypeCreateInfo type = VkSemaphoreTypeCreateInfo.calloc(stack).sType$Default()
                        .semaphoreType(VK_SEMAPHORE_TYPE_TIMELINE).initialValue(0);
                VulkanErrors.check(vkCreateSemaphore(dev.device, VkSemaphoreCreateInfo.calloc(stack).sType$Default().pNext(type), null, lp),
                        "vulkan", "vkCreateSemaphore");
                timeline = lp.get(0);
            } else {
                timeline = VK_NULL_HANDLE;
            }

            MappedParams params = mappedParams(PARAM_BYTES * FRAMES, "vulkan", "vmaCreateBuffer(params)");
            paramBuffer = params.buffer();
            paramAllocation = params.allocation();
            paramMemory = params.memory();
            for (int f = 0; f < FRAMES; f++) {
                VulkanErrors.check(vkCreateFence(dev.device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, lp), "vulkan", "vkCreateFence");
                long fence = lp.get(0);
                VulkanErrors.check(vkCreateDescriptorPool(dev.device, dpi, null, lp), "vulkan", "vkCreateDescriptorPool");
                frames[f] = new Frame(f, new VkCommandBuffer(pp.get(f), dev.device), fence, lp.get(0), paramBuffer, paramMemory,
                        f * PARAM_BYTES, PARAM_BYTES, MAX_SETS);
            }
            if (dev.timestamps) {
                VkQueryPoolCreateInfo qpi = VkQueryPoolCreateInfo.calloc(stack).sType$Default().queryType(VK_QUERY_TYPE_TIMESTAMP).queryCount(2 * FRAMES);
                VulkanErrors.check(vkCreateQueryPool(dev.device, qpi, null, lp), "vulkan", "vkCreateQueryPool");
                queryPool = lp.get(0);
            } else {
                queryPool = VK_NULL_HANDLE;
            }
            if (dev.timestamps && TIME_DISPATCHES) {
                VkQueryPoolCreateInfo qpi = VkQueryPoolCreateInfo.calloc(stack).sType$Default().queryType(VK_QUERY_TYPE_TIMESTAMP)
                        .queryCount(TIMED_DISPATCHES * FRAMES);
                VulkanErrors.check(vkCreateQueryPool(dev.device, qpi, null, lp), "vulkan", "vkCreateQueryPool");
                dispatchPool = lp.get(0);
            } else {
                dispatchPool = VK_NULL_HANDLE;
            }
        }
    }

    /**
     * The serial the latest recorded work will complete under (0 before the first): a buffer released
     * now may still be used by everything up to it, submitted or still in the open frame.
     */
    long submittedSerial() { return recorded; }

    /** Every submission up to this serial has finished. */
    long completedSerial() { return completed; }

    /** Sets what runs when a submission has finished (the memory manager's deferred frees). */
    void onCompleted(java.util.function.LongConsumer c) { this.onCompleted = c; }

    /** A compute pipeline as the recorder binds it. */
    interface Bindable {
        /** What the kernel is, for device-time profiles ({@link #TIME_DISPATCHES}). */
        String name();
        long pipeline();
        long layout();
        long setLayout();
        /** Storage buffers the shader declares, parameters included (the last one when {@link #usesParams()}). */
        int bindingCount();
        boolean usesParams();
        /** 32-bit push constants the shader declares (the {@code params} words when it takes no parameter buffer). */
        int pushWords();
        /** Whether its buffers are bound with push descriptors ({@link PushDescriptors}) rather than a descriptor set. */
        boolean pushDescriptors();
    }

    /** A write mask naming every binding: the safe default when a kernel's writes are not given. */
    static final long ALL_WRITTEN = -1L;

    /** The write mask of a dispatch that writes exactly the bindings {@code indices}. */
    static long writes(int... indices) {
        long m = 0;
        for (int i : indices) m |= 1L << i;
        return m;
    }

    /** Records the commands of one submission; barriers before and between commands are inserted for you. */
    final class Recorder {
        private final MemoryStack stack;
        private final Frame frame;
        private final VkCommandBuffer cmd;

        private Recorder(MemoryStack stack, Frame frame) {
            this.stack = stack;
            this.frame = frame;
            this.cmd = frame.cmd;
        }

        /**
         * Dispatches {@code p} on {@code buffers} (binding {@code i} is {@code buffers[i]}) with
         * {@code params} (32-bit words, bound after the buffers as a storage buffer, or passed as
         * push constants when the pipeline declares them instead), counting every buffer as written.
         */
        void dispatch(String op, Bindable p, List<DeviceBuffer> buffers, int[] params, int gx, int gy, int gz) {
            dispatch(op, p, buffers, ALL_WRITTEN, params, gx, gy, gz);
        }

        /**
         * {@link #dispatch(String, Bindable, List, int[], int, int, int)} where the kernel writes only the buffers
         * whose bit is set in {@code writes} (bit {@code i}: {@code buffers[i]}; {@link #writes} builds the mask) and
         * only reads the others: commands that merely read the same buffers need no barrier between them.
         */
        void dispatch(String op, Bindable p, List<DeviceBuffer> buffers, long writes, int[] params, int gx, int gy, int gz) {
            int n = buffers.size() + (p.usesParams() ? 1 : 0);
            if (n != p.bindingCount()) throw new IllegalStateException(op + ": pipeline takes " + p.bindingCount() + " bindings, got " + n);
            if (gx <= 0 || gy <= 0 || gz <= 0) return;
            if (++frame.sets > frame.maxSets) throw new IllegalStateException(op + ": more than " + frame.maxSets + " dispatches in one submission");
            for (int i = 0; i < buffers.size(); i++) handles[i] = buffers.get(i).handle();
            order(handles, buffers.size(), writes);
            frame.keepAlive.add(p); // a releasable pipeline must outlive the submission that binds it
            try (MemoryStack s = stack.push()) {
                // One write covers every binding: consecutive bindings of one type roll over (VkWriteDescriptorSet).
                VkDescriptorBufferInfo.Buffer infos = VkDescriptorBufferInfo.malloc(n, s);
                for (int i = 0; i < buffers.size(); i++) {
                    DeviceBuffer b = buffers.get(i);
                    if (!b.isAlive()) throw new JBurnException(op, "operand buffer already freed");
                    frame.keepAlive.add(b);
                    if (capture != null && capture.frame == frame) capture.hold(b);
                    infos.get(i).buffer(b.handle()).offset(0).range(VK_WHOLE_SIZE);
                }
                if (p.usesParams()) {
                    long bytes = Math.max(4, 4L * params.length);
                    if (frame.paramOffset + bytes > frame.paramBytes) throw new IllegalStateException(op + ": kernel parameters overflow");
                    long at = frame.paramBase + frame.paramOffset;
                    MemorySegment.copy(params, 0, frame.paramMemory, java.lang.foreign.ValueLayout.JAVA_INT, at, params.length);
                    infos.get(n - 1).buffer(frame.paramBuffer).offset(at).range(bytes);
                    frame.paramOffset += (bytes + paramAlign - 1) / paramAlign * paramAlign;
                }
                VkWriteDescriptorSet.Buffer write = VkWriteDescriptorSet.calloc(1, s).sType$Default()
                        .dstBinding(0).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo(infos).descriptorCount(n);
                if (p.pushDescriptors()) {
                    vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, write);
                } else {
                    LongBuffer set = s.mallocLong(1);
                    VkDescriptorSetAllocateInfo ai = VkDescriptorSetAllocateInfo.calloc(s).sType$Default()
                            .descriptorPool(frame.descriptorPool).pSetLayouts(s.longs(p.setLayout()));
                    VulkanErrors.check(vkAllocateDescriptorSets(dev.device, ai, set), op, "vkAllocateDescriptorSets");
                    vkUpdateDescriptorSets(dev.device, write.dstSet(set.get(0)), null);
                    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, set, null);
                }
                if (frame.boundPipeline != p.pipeline()) { // a chain of the same kernel binds it once
                    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline());
                    frame.boundPipeline = p.pipeline();
                }
                if (p.pushWords() > 0) {
                    if (params.length != p.pushWords()) throw new IllegalStateException(op + ": " + p.pushWords() + " push constants expected");
                    vkCmdPushConstants(cmd, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, params);
                }
                vkCmdDispatch(cmd, gx, gy, gz);
                frame.work += (long) gx * gy * gz;
                if (frame.timed && dispatchPool != VK_NULL_HANDLE && frame.timedNames.size() < TIMED_DISPATCHES) {
                    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, dispatchPool, frame.index * TIMED_DISPATCHES + frame.timedNames.size());
                    frame.timedNames.add(op + " x" + (long) gx * gy * gz + " [" + p.name() + "]"); // the pipeline tells a fused kernel's kind
                }
            }
            dispatches.incrementAndGet();
            if (capture != null && capture.frame == frame) capture.dispatches++;
            if (COUNT_NAMES) dispatchNames.computeIfAbsent(op + " x" + (long) gx * gy * gz, k -> new java.util.concurrent.atomic.LongAdder()).increment();
        }

        /** Copies {@code size} bytes between buffers (raw handles: staging buffers are not tensors). */
        void copy(long src, long srcOffset, long dst, long dstOffset, long size) {
            if (size <= 0) return;
            handles[0] = src;
            handles[1] = dst;
            order(handles, 2, 0b10);
            try (MemoryStack s = stack.push()) {
                vkCmdCopyBuffer(cmd, src, dst, VkBufferCopy.calloc(1, s).srcOffset(srcOffset).dstOffset(dstOffset).size(size));
                frame.work += size >>> 10;
            }
        }

        /**
         * Writes {@code host}'s bytes (at most {@link #MAX_INLINE_UPLOAD}) at the start of {@code dst}, carried in
         * the command buffer itself ({@code vkCmdUpdateBuffer}): no staging buffer, and no wait for the copy.
         * The length is rounded up to 4 bytes (buffers are allocated in size classes of at least 256 bytes).
         */
        void update(long dst, MemorySegment host) {
            long n = (host.byteSize() + 3) & ~3L;
            if (n == 0) return;
            if (n > MAX_INLINE_UPLOAD) throw new IllegalStateException("inline upload of " + n + " bytes, more than " + MAX_INLINE_UPLOAD);
            handles[0] = dst;
            order(handles, 1, 0b1);
            java.nio.ByteBuffer data = org.lwjgl.system.MemoryUtil.memCalloc((int) n);
            try {
                MemorySegment.copy(host, 0, MemorySegment.ofBuffer(data), 0, host.byteSize());
                vkCmdUpdateBuffer(cmd, dst, 0, data); // copied into the command buffer here
            } finally {
                org.lwjgl.system.MemoryUtil.memFree(data);
            }
            frame.work += n >>> 10;
        }

        /** Fills a whole buffer with zero bytes. */
        void zero(long buffer) {
            handles[0] = buffer;
            order(handles, 1, 0b1);
            vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, 0);
            frame.work += FLUSH_WORK; // the size is the buffer's: count it as large
        }

        /**
         * Runs {@code c}'s recorded commands here, ordered after every command before them and before every command
         * after them (a barrier on each side: the tracker cannot see inside), and submits this frame once the current
         * body is recorded.
         */
        void execute(Capture c) {
            if (c.destroyed) throw new IllegalStateException("replay of a destroyed capture");
            if (frame == (capture == null ? null : capture.frame)) throw new IllegalStateException("a capture cannot replay another");
            barrier();
            try (MemoryStack s = stack.push()) {
                vkCmdExecuteCommands(cmd, s.pointers(c.frame.cmd));
            }
            barrier();
            barriers.barrier();
            barrierCount.addAndGet(2);
            frame.boundPipeline = VK_NULL_HANDLE; // a secondary command buffer leaves the primary's bound state undefined
            frame.keepAlive.add(c);
            frame.work += c.frame.work;
            frame.flushNow = true;
            dispatches.addAndGet(c.dispatches);
        }

        /** Keeps {@code o} reachable until the submission has finished (a capture: a buffer's memory as long as the capture lives). */
        void keep(Object o) {
            frame.keepAlive.add(o);
            if (o instanceof DeviceBuffer b && capture != null && capture.frame == frame) capture.hold(b);
        }

        /**
         * Orders a command touching {@code handles[0..n)} (writing those set in {@code writes}) after the earlier
         * commands it depends on: a barrier when it conflicts with one since the last barrier ({@link BarrierTracker}).
         */
        private void order(long[] handles, int n, long writes) {
            if (barrierDue || barriers.conflicts(handles, n, writes)) {
                barrier();
                barriers.barrier();
                barrierCount.incrementAndGet();
                barrierDue = false;
            }
            barriers.touch(handles, n, writes);
        }

        /**
         * Orders this command after every earlier one, in this submission and in those before it:
         * their writes become visible to it, and it writes only after they have read.
         */
        private void barrier() {
            try (MemoryStack s = stack.push()) {
                VkMemoryBarrier.Buffer b = VkMemoryBarrier.calloc(1, s).sType$Default()
                        .srcAccessMask(VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT)
                        .dstAccessMask(VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
                int stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
                vkCmdPipelineBarrier(cmd, stages, stages, 0, b, null, null);
            }
        }

        private void finish() {
            try (MemoryStack s = stack.push()) {
                VkMemoryBarrier.Buffer b = VkMemoryBarrier.calloc(1, s).sType$Default()
                        .srcAccessMask(VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT).dstAccessMask(VK_ACCESS_HOST_READ_BIT);
                vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, b, null, null);
            }
        }
    }

    /**
     * Records {@code body} into the open frame (opening one if needed) and returns without waiting for
     * the device; the frame goes to the device once it holds enough work (see the class comment).
     */
    void submit(String op, Consumer<Recorder> body) {
        lock.lock();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            if (closed) throw new JBurnException(op, "the vulkan engine is closed");
            if (lost) throw new JBurnException(op, "the Vulkan device was lost earlier; restart the process");
            if (capture != null) { // only the capturing thread gets here: it holds the lock for the whole capture
                body.accept(new Recorder(stack, capture.frame));
                return;
            }
            Frame f = open;
            if (f != null && (f.sets > MAX_SETS - MAX_SETS_PER_BODY || f.paramOffset > PARAM_BYTES / 2)) {
                flush(op);
                f = null;
            }
            if (f == null) f = begin(op);
            // Whatever happens in body, the frame stays consistent: a failed op leaves at most a barrier
            // and commands on buffers its recording keeps alive.
            body.accept(new Recorder(stack, f));
            if (f.flushNow || f.sets >= FLUSH_SETS || f.work >= FLUSH_WORK && (!batchWhileBusy || deviceIdle())) flush(op);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether the device has finished every submission so far (the newest one's fence has signalled; its frame is
     * reclaimed later, when waited for). Under the lock.
     */
    private boolean deviceIdle() {
        Frame newest = frames[(nextFrame + FRAMES - 1) % FRAMES];
        return !newest.pending || finished(newest) == VK_SUCCESS;
    }

    /** Opens the next frame for recording (waiting for its previous submission if still running). Under the lock. */
    private Frame begin(String op) {
        Frame f = frames[nextFrame];
        if (f.pending) await(op, f);
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VulkanErrors.check(vkResetCommandBuffer(f.cmd, 0), op, "vkResetCommandBuffer");
            VulkanErrors.check(vkResetDescriptorPool(dev.device, f.descriptorPool, 0), op, "vkResetDescriptorPool");
            VulkanErrors.check(vkBeginCommandBuffer(f.cmd, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), op, "vkBeginCommandBuffer");
        }
        f.sets = 0;
        f.work = 0;
        f.flushNow = false;
        f.boundPipeline = VK_NULL_HANDLE;
        f.paramOffset = 0;
        f.keepAlive.clear();
        f.timed = timing && queryPool != VK_NULL_HANDLE;
        f.timedNames.clear();
        if (f.timed) {
            vkCmdResetQueryPool(f.cmd, queryPool, 2 * f.index, 2);
            if (dispatchPool != VK_NULL_HANDLE) vkCmdResetQueryPool(f.cmd, dispatchPool, f.index * TIMED_DISPATCHES, TIMED_DISPATCHES);
            vkCmdWriteTimestamp(f.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queryPool, 2 * f.index);
        }
        f.serial = submitted + 1;
        recorded = f.serial;
        open = f;
        return f;
    }

    /** Ends the open frame and submits it to the device (nothing when none is open). Under the lock. */
    private void flush(String op) {
        Frame f = open;
        if (f == null) return;
        open = null;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            try {
                new Recorder(stack, f).finish();
                if (f.timed) vkCmdWriteTimestamp(f.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queryPool, 2 * f.index + 1);
            } finally {
                VulkanErrors.check(vkEndCommandBuffer(f.cmd), op, "vkEndCommandBuffer");
            }
            if (f.paramOffset > 0) vmaFlushAllocation(dev.allocator, paramAllocation, f.index * PARAM_BYTES, PARAM_BYTES);
            VkSubmitInfo si = VkSubmitInfo.calloc(stack).sType$Default().pCommandBuffers(stack.pointers(f.cmd));
            if (timeline != VK_NULL_HANDLE) {
                si.pSignalSemaphores(stack.longs(timeline)).pNext(VkTimelineSemaphoreSubmitInfo.calloc(stack).sType$Default()
                        .pSignalSemaphoreValues(stack.longs(f.serial)));
            }
            long t0 = System.nanoTime();
            f.submitHostNanos = t0;
            int res = vkQueueSubmit(dev.queue, si, timeline != VK_NULL_HANDLE ? VK_NULL_HANDLE : f.fence);
            if (f.timed) submitWaitNanos.addAndGet(System.nanoTime() - t0);
            if (res == VK_ERROR_DEVICE_LOST) lost = true;
            VulkanErrors.check(res, op, "vkQueueSubmit");
            f.pending = true;
            submitted = f.serial;
            nextFrame = (nextFrame + 1) % FRAMES;
            submissions.incrementAndGet();
        } catch (RuntimeException e) {
            // Not submitted, so nothing of it runs: drop what it held. The next frame takes the same serial
            // (submitted is unchanged), so frees deferred to this serial wait for that one instead.
            f.keepAlive.clear();
            throw e;
        }
    }

    /**
     * Starts recording every command this thread submits into a new {@link Capture} instead of the frames, until
     * {@link #endCapture}; other threads' submissions wait until then (the lock is held throughout). Nothing recorded
     * runs until a frame {@linkplain Recorder#execute executes} the capture; a {@link #waitIdle} meanwhile fails.
     */
    Capture beginCapture(String op) {
        lock.lock();
        Capture c = null;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            if (closed) throw new JBurnException(op, "the vulkan engine is closed");
            if (lost) throw new JBurnException(op, "the Vulkan device was lost earlier; restart the process");
            if (capture != null) throw new IllegalStateException(op + ": a capture is already being recorded");
            PointerBuffer pp = stack.mallocPointer(1);
            VulkanErrors.check(vkAllocateCommandBuffers(dev.device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
                    .commandPool(commandPool).level(VK_COMMAND_BUFFER_LEVEL_SECONDARY).commandBufferCount(1), pp), op, "vkAllocateCommandBuffers");
            VkCommandBuffer cmd = new VkCommandBuffer(pp.get(0), dev.device);
            LongBuffer lp = stack.mallocLong(1);
            long pool = VK_NULL_HANDLE, buffer = VK_NULL_HANDLE, allocation = 0;
            try {
                VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack)
                        .type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(CAPTURE_SETS * 8);
                VulkanErrors.check(vkCreateDescriptorPool(dev.device, VkDescriptorPoolCreateInfo.calloc(stack).sType$Default()
                        .maxSets(CAPTURE_SETS).pPoolSizes(sizes), null, lp), op, "vkCreateDescriptorPool");
                pool = lp.get(0);
                MappedParams params = mappedParams(CAPTURE_PARAM_BYTES, op, "vmaCreateBuffer(capture params)");
                buffer = params.buffer();
                allocation = params.allocation();
                Frame f = new Frame(-1, cmd, VK_NULL_HANDLE, pool, buffer, params.memory(), 0, CAPTURE_PARAM_BYTES, CAPTURE_SETS);
                c = new Capture(f, allocation);
                VkCommandBufferInheritanceInfo inherit = VkCommandBufferInheritanceInfo.calloc(stack).sType$Default();
                VulkanErrors.check(vkBeginCommandBuffer(cmd, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                        .flags(VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT).pInheritanceInfo(inherit)), op, "vkBeginCommandBuffer");
            } catch (RuntimeException e) {
                if (buffer != VK_NULL_HANDLE) vmaDestroyBuffer(dev.allocator, buffer, allocation);
                if (pool != VK_NULL_HANDLE) vkDestroyDescriptorPool(dev.device, pool, null);
                vkFreeCommandBuffers(dev.device, commandPool, cmd);
                throw e;
            }
            // The replay starts with a barrier on everything before it: inside, the tracker starts with an empty window.
            barriers.barrier();
            capture = c;
            captures.add(c);
            return c;
        } finally {
            if (c == null) lock.unlock();
        }
    }

    /**
     * Ends the capture this thread is recording; {@code keep} false (a failed recording) destroys it at once (it never
     * ran). The commands after it begin with a barrier: the tracker's window was given to the capture.
     */
    void endCapture(String op, Capture c, boolean keep) {
        if (capture != c || !lock.isHeldByCurrentThread()) throw new IllegalStateException(op + ": not the capture being recorded");
        try {
            capture = null;
            barriers.barrier();
            barrierDue = true;
            try {
                VulkanErrors.check(vkEndCommandBuffer(c.frame.cmd), op, "vkEndCommandBuffer");
                if (c.frame.paramOffset > 0) vmaFlushAllocation(dev.allocator, c.paramAllocation, 0, CAPTURE_PARAM_BYTES);
            } catch (RuntimeException e) {
                destroy(c);
                throw e;
            }
            if (!keep) destroy(c);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees a capture's command buffer, descriptor pool and parameters. Only once no submission that executes it can
     * still run: after {@link #waitIdle}, or when it was never executed.
     */
    void destroy(Capture c) {
        lock.lock();
        try {
            if (c.destroyed) return;
            c.destroyed = true;
            captures.remove(c);
            vkFreeCommandBuffers(dev.device, commandPool, c.frame.cmd);
            vkDestroyDescriptorPool(dev.device, c.frame.descriptorPool, null);
            vmaDestroyBuffer(dev.allocator, c.frame.paramBuffer, c.paramAllocation);
            c.frame.keepAlive.clear();
            c.held.forEach(DeviceBuffer::release); // frees are deferred past the submissions made so far
            c.held.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Records {@code body}, submits it and waits until the device has finished it (and everything before it). */
    void submitAndWait(String op, Consumer<Recorder> body) {
        submit(op, body);
        waitIdle(op);
    }

    /** Whether waits read a timeline semaphore's counter rather than fences. */
    boolean timelineWaits() { return timeline != VK_NULL_HANDLE; }

    /** Submits the open frame and waits until every submission so far has finished. */
    void waitIdle(String op) {
        lock.lock();
        try {
            if (capture != null) throw new JBurnException(op, "waits for the device while a graph is being recorded for replay");
            if (recorded > completed) hostWaits.incrementAndGet();
            flush(op);
            for (int k = 1; k <= FRAMES; k++) {
                Frame f = frames[(nextFrame + k - 1) % FRAMES]; // oldest first
                if (f.pending) await(op, f);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code VK_SUCCESS} when the device has finished {@code f}'s submission, {@code VK_NOT_READY} while not, or the
     * error: its fence's status, or whether the timeline's counter has reached its serial.
     */
    private int finished(Frame f) {
        if (timeline == VK_NULL_HANDLE) return vkGetFenceStatus(dev.device, f.fence);
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer value = stack.mallocLong(1);
            int res = vkGetSemaphoreCounterValue(dev.device, timeline, value);
            if (res != VK_SUCCESS) return res;
            return value.get(0) >= f.serial ? VK_SUCCESS : VK_NOT_READY;
        }
    }

    /** Waits for {@code f}'s submission to finish, then releases what it held (called under the lock). */
    private void await(String op, Frame f) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            long t0 = System.nanoTime();
            int res = finished(f);
            for (long until = t0 + spinNs; res == VK_NOT_READY && System.nanoTime() < until; res = finished(f)) {
                Thread.onSpinWait();
            }
            if (pollNs > 0) {
                for (long until = System.nanoTime() + POLL_FOR_NS; res == VK_NOT_READY && System.nanoTime() < until; res = finished(f)) {
                    java.util.concurrent.locks.LockSupport.parkNanos(pollNs);
                }
            }
            if (res == VK_NOT_READY) {
                res = timeline == VK_NULL_HANDLE ? vkWaitForFences(dev.device, stack.longs(f.fence), true, FENCE_TIMEOUT_NS)
                        : vkWaitSemaphores(dev.device, VkSemaphoreWaitInfo.calloc(stack).sType$Default()
                                .semaphoreCount(1).pSemaphores(stack.longs(timeline)).pValues(stack.longs(f.serial)), FENCE_TIMEOUT_NS);
            }
            long observed = System.nanoTime();
            if (f.timed) submitWaitNanos.addAndGet(observed - t0);
            if (res == VK_ERROR_DEVICE_LOST) lost = true;
            VulkanErrors.check(res, op, timeline == VK_NULL_HANDLE ? "vkWaitForFences" : "vkWaitSemaphores");
            if (timeline == VK_NULL_HANDLE) VulkanErrors.check(vkResetFences(dev.device, stack.longs(f.fence)), op, "vkResetFences");
            if (f.timed) {
                LongBuffer ticks = stack.mallocLong(2);
                if (vkGetQueryPoolResults(dev.device, queryPool, 2 * f.index, 2, ticks, 8, VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
                    deviceNanos.addAndGet((long) ((ticks.get(1) - ticks.get(0)) * (double) dev.timestampPeriod));
                    latency.record(f.submitHostNanos, ticks.get(0), ticks.get(1), observed);
                    if (!f.timedNames.isEmpty()) chargeDispatches(f, ticks.get(0), ticks.get(1));
                }
            }
            f.pending = false;
            f.keepAlive.clear();
            completed = Math.max(completed, f.serial);
            onCompleted.accept(completed);
        }
    }

    /**
     * Adds {@code f}'s per-dispatch device times to {@link #dispatchNanos}: each timed dispatch the ticks since the timestamp
     * before it, the frame's rest (from the last timed dispatch to {@code end}) to "(untimed)" when dispatches went untimed.
     */
    private void chargeDispatches(Frame f, long start, long end) {
        int n = f.timedNames.size();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer t = stack.mallocLong(n);
            if (vkGetQueryPoolResults(dev.device, dispatchPool, f.index * TIMED_DISPATCHES, n, t, 8, VK_QUERY_RESULT_64_BIT) != VK_SUCCESS) return;
            long prev = start;
            for (int i = 0; i < n; i++) {
                long at = t.get(i);
                if (at >= prev) {
                    dispatchNanos.computeIfAbsent(f.timedNames.get(i), k -> new java.util.concurrent.atomic.LongAdder())
                            .add((long) ((at - prev) * (double) dev.timestampPeriod));
                    prev = at;
                }
            }
            if (n == TIMED_DISPATCHES && end > prev) {
                dispatchNanos.computeIfAbsent("(untimed)", k -> new java.util.concurrent.atomic.LongAdder())
                        .add((long) ((end - prev) * (double) dev.timestampPeriod));
            }
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) return;
            closed = true;
            open = null; // recorded but never needed: nobody waited for it
            vkQueueWaitIdle(dev.queue);
            capture = null;
            for (Capture c : List.copyOf(captures)) destroy(c);
            for (Frame f : frames) {
                f.pending = false;
                f.keepAlive.clear();
                vkDestroyFence(dev.device, f.fence, null);
                vkDestroyDescriptorPool(dev.device, f.descriptorPool, null);
            }
            if (timeline != VK_NULL_HANDLE) vkDestroySemaphore(dev.device, timeline, null);
            completed = recorded;
            vmaDestroyBuffer(dev.allocator, paramBuffer, paramAllocation);
            if (queryPool != VK_NULL_HANDLE) vkDestroyQueryPool(dev.device, queryPool, null);
            if (dispatchPool != VK_NULL_HANDLE) vkDestroyQueryPool(dev.device, dispatchPool, null);
            vkDestroyCommandPool(dev.device, commandPool, null);
        } finally {
            lock.unlock();
        }
    }
}
