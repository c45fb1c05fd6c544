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
import org.lwjgl.vulkan.VkCommandPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorBufferInfo;
import org.lwjgl.vulkan.VkDescriptorPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorPoolSize;
import org.lwjgl.vulkan.VkDescriptorSetAllocateInfo;
import org.lwjgl.vulkan.VkFenceCreateInfo;
import org.lwjgl.vulkan.VkMemoryBarrier;
import org.lwjgl.vulkan.VkQueryPoolCreateInfo;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkWriteDescriptorSet;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The one queue everything runs on. A {@link #submit} records commands into the single command
 * buffer, submits it and waits for its fence, all under one lock: submissions are serialized and
 * none is in flight when {@code submit} returns. That is what makes freeing memory simple
 * ({@link DeviceBuffer}): every buffer a submission binds is held strongly reachable until its
 * fence has signalled.
 *
 * <p>Kernel parameters (shapes, strides) go into a small persistently mapped ring buffer, bound as
 * each dispatch's last storage buffer; the ring and the descriptor pool are reset per submission.
 */
final class CommandQueue implements AutoCloseable {
    /** Bytes of kernel parameters one submission may use. */
    static final long PARAM_BYTES = 1 << 16;
    private static final int MAX_SETS = 64;
    private static final int MAX_BINDINGS = 16;
    private static final long FENCE_TIMEOUT_NS = 600L * 1_000_000_000L;

    private final VulkanDevice dev;
    private final ReentrantLock lock = new ReentrantLock();
    private final long commandPool;
    private final VkCommandBuffer cmd;
    private final long fence;
    private final long descriptorPool;
    private final long paramBuffer;
    private final long paramAllocation;
    private final MemorySegment paramMemory;
    final AtomicLong dispatches = new AtomicLong();
    final AtomicLong submissions = new AtomicLong();
    /**
     * Device time of the submissions made while {@link #timing} is on, from a timestamp at each
     * one's start and end (off by default: on lavapipe the query costs about as much as a small dispatch).
     */
    final AtomicLong deviceNanos = new AtomicLong();
    /** Host time spent in {@code vkQueueSubmit} plus {@code vkWaitForFences} while {@link #timing} is on. */
    final AtomicLong submitWaitNanos = new AtomicLong();
    volatile boolean timing;
    private final long queryPool;
    private volatile boolean lost;
    private boolean closed;

    CommandQueue(VulkanDevice dev) {
        this.dev = dev;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            VkCommandPoolCreateInfo pci = VkCommandPoolCreateInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT).queueFamilyIndex(dev.queueFamily);
            VulkanErrors.check(vkCreateCommandPool(dev.device, pci, null, lp), "vulkan", "vkCreateCommandPool");
            commandPool = lp.get(0);
            PointerBuffer pp = stack.mallocPointer(1);
            VkCommandBufferAllocateInfo cai = VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
                    .commandPool(commandPool).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1);
            VulkanErrors.check(vkAllocateCommandBuffers(dev.device, cai, pp), "vulkan", "vkAllocateCommandBuffers");
            cmd = new VkCommandBuffer(pp.get(0), dev.device);
            VulkanErrors.check(vkCreateFence(dev.device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, lp), "vulkan", "vkCreateFence");
            fence = lp.get(0);
            VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack)
                    .type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(MAX_SETS * MAX_BINDINGS);
            VkDescriptorPoolCreateInfo dpi = VkDescriptorPoolCreateInfo.calloc(stack).sType$Default().maxSets(MAX_SETS).pPoolSizes(sizes);
            VulkanErrors.check(vkCreateDescriptorPool(dev.device, dpi, null, lp), "vulkan", "vkCreateDescriptorPool");
            descriptorPool = lp.get(0);

            VkBufferCreateInfo bci = VkBufferCreateInfo.calloc(stack).sType$Default().size(PARAM_BYTES)
                    .usage(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT).sharingMode(VK_SHARING_MODE_EXCLUSIVE);
            VmaAllocationCreateInfo aci = VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO)
                    .flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_SEQUENTIAL_WRITE_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT);
            VmaAllocationInfo info = VmaAllocationInfo.calloc(stack);
            VulkanErrors.check(vmaCreateBuffer(dev.allocator, bci, aci, lp, pp, info), "vulkan", "vmaCreateBuffer(params)");
            paramBuffer = lp.get(0);
            paramAllocation = pp.get(0);
            paramMemory = MemorySegment.ofAddress(info.pMappedData()).reinterpret(PARAM_BYTES);
            if (dev.timestamps) {
                VkQueryPoolCreateInfo qpi = VkQueryPoolCreateInfo.calloc(stack).sType$Default().queryType(VK_QUERY_TYPE_TIMESTAMP).queryCount(2);
                VulkanErrors.check(vkCreateQueryPool(dev.device, qpi, null, lp), "vulkan", "vkCreateQueryPool");
                queryPool = lp.get(0);
            } else {
                queryPool = VK_NULL_HANDLE;
            }
        }
    }

    /** A compute pipeline as the recorder binds it. */
    interface Bindable {
        long pipeline();
        long layout();
        long setLayout();
        /** Storage buffers the shader declares, parameters included (the last one when {@link #usesParams()}). */
        int bindingCount();
        boolean usesParams();
        /** 32-bit push constants the shader declares (the {@code params} words when it takes no parameter buffer). */
        int pushWords();
    }

    /** Records the commands of one submission; barriers between commands are inserted for you. */
    final class Recorder {
        private final MemoryStack stack;
        private final List<Object> keepAlive = new ArrayList<>();
        private long paramOffset;
        private int sets;
        private boolean first = true;

        private Recorder(MemoryStack stack) { this.stack = stack; }

        /**
         * Dispatches {@code p} on {@code buffers} (binding {@code i} is {@code buffers[i]}) with
         * {@code params} (32-bit words, bound after the buffers as a storage buffer, or passed as
         * push constants when the pipeline declares them instead).
         */
        void dispatch(String op, Bindable p, List<DeviceBuffer> buffers, int[] params, int gx, int gy, int gz) {
            int n = buffers.size() + (p.usesParams() ? 1 : 0);
            if (n != p.bindingCount()) throw new IllegalStateException(op + ": pipeline takes " + p.bindingCount() + " bindings, got " + n);
            if (gx <= 0 || gy <= 0 || gz <= 0) return;
            if (++sets > MAX_SETS) throw new IllegalStateException(op + ": more than " + MAX_SETS + " dispatches in one submission");
            barrier();
            try (MemoryStack s = stack.push()) {
                LongBuffer set = s.mallocLong(1);
                VkDescriptorSetAllocateInfo ai = VkDescriptorSetAllocateInfo.calloc(s).sType$Default()
                        .descriptorPool(descriptorPool).pSetLayouts(s.longs(p.setLayout()));
                VulkanErrors.check(vkAllocateDescriptorSets(dev.device, ai, set), op, "vkAllocateDescriptorSets");
                VkWriteDescriptorSet.Buffer writes = VkWriteDescriptorSet.calloc(n, s);
                for (int i = 0; i < n; i++) {
                    VkDescriptorBufferInfo.Buffer info = VkDescriptorBufferInfo.calloc(1, s);
                    if (i < buffers.size()) {
                        DeviceBuffer b = buffers.get(i);
                        if (!b.isAlive()) throw new JBurnException(op, "operand buffer already freed");
                        keepAlive.add(b);
                        info.buffer(b.handle()).offset(0).range(VK_WHOLE_SIZE);
                    } else {
                        long bytes = Math.max(4, 4L * params.length);
                        if (paramOffset + bytes > PARAM_BYTES) throw new IllegalStateException(op + ": kernel parameters overflow");
                        MemorySegment.copy(params, 0, paramMemory, java.lang.foreign.ValueLayout.JAVA_INT, paramOffset, params.length);
                        info.buffer(paramBuffer).offset(paramOffset).range(bytes);
                        long align = Math.max(16, dev.features.minStorageBufferOffsetAlignment());
                        paramOffset += (bytes + align - 1) / align * align;
                    }
                    writes.get(i).sType$Default().dstSet(set.get(0)).dstBinding(i).descriptorCount(1)
                            .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).pBufferInfo(info);
                }
                vkUpdateDescriptorSets(dev.device, writes, null);
                vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline());
                vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout(), 0, set, null);
                if (p.pushWords() > 0) {
                    if (params.length != p.pushWords()) throw new IllegalStateException(op + ": " + p.pushWords() + " push constants expected");
                    vkCmdPushConstants(cmd, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, params);
                }
                vkCmdDispatch(cmd, gx, gy, gz);
            }
            dispatches.incrementAndGet();
        }

        /** Copies {@code size} bytes between buffers (raw handles: staging buffers are not tensors). */
        void copy(long src, long srcOffset, long dst, long dstOffset, long size) {
            if (size <= 0) return;
            barrier();
            try (MemoryStack s = stack.push()) {
                vkCmdCopyBuffer(cmd, src, dst, VkBufferCopy.calloc(1, s).srcOffset(srcOffset).dstOffset(dstOffset).size(size));
            }
        }

        /** Fills a whole buffer with zero bytes. */
        void zero(long buffer) {
            barrier();
            vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, 0);
        }

        /** Keeps {@code o} reachable until the submission has finished. */
        void keep(Object o) { keepAlive.add(o); }

        private void barrier() {
            if (first) {
                first = false;
                return;
            }
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

    /** Records {@code body}, submits it and waits until the device has finished it. */
    void submit(String op, Consumer<Recorder> body) {
        lock.lock();
        Recorder r = null;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            if (closed) throw new JBurnException(op, "the vulkan engine is closed");
            if (lost) throw new JBurnException(op, "the Vulkan device was lost earlier; restart the process");
            VulkanErrors.check(vkResetCommandBuffer(cmd, 0), op, "vkResetCommandBuffer");
            VulkanErrors.check(vkBeginCommandBuffer(cmd, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), op, "vkBeginCommandBuffer");
            r = new Recorder(stack);
            boolean timed = timing && queryPool != VK_NULL_HANDLE;
            try {
                if (timed) {
                    vkCmdResetQueryPool(cmd, queryPool, 0, 2);
                    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queryPool, 0);
                }
                body.accept(r);
                r.finish();
                if (timed) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queryPool, 1);
            } finally {
                VulkanErrors.check(vkEndCommandBuffer(cmd), op, "vkEndCommandBuffer");
            }
            if (r.paramOffset > 0) vmaFlushAllocation(dev.allocator, paramAllocation, 0, VK_WHOLE_SIZE);
            VkSubmitInfo si = VkSubmitInfo.calloc(stack).sType$Default().pCommandBuffers(stack.pointers(cmd));
            long t0 = System.nanoTime();
            int res = vkQueueSubmit(dev.queue, si, fence);
            if (res == VK_SUCCESS) res = vkWaitForFences(dev.device, stack.longs(fence), true, FENCE_TIMEOUT_NS);
            if (timed) submitWaitNanos.addAndGet(System.nanoTime() - t0);
            if (res == VK_ERROR_DEVICE_LOST) lost = true;
            VulkanErrors.check(res, op, "vkQueueSubmit/vkWaitForFences");
            VulkanErrors.check(vkResetFences(dev.device, stack.longs(fence)), op, "vkResetFences");
            submissions.incrementAndGet();
            if (timed) {
                LongBuffer ticks = stack.mallocLong(2);
                if (vkGetQueryPoolResults(dev.device, queryPool, 0, 2, ticks, 8, VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
                    deviceNanos.addAndGet((long) ((ticks.get(1) - ticks.get(0)) * (double) dev.timestampPeriod));
                }
            }
        } finally {
            vkResetDescriptorPool(dev.device, descriptorPool, 0);
            if (r != null) Reference.reachabilityFence(r.keepAlive);
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) return;
            closed = true;
            vkQueueWaitIdle(dev.queue);
            vmaDestroyBuffer(dev.allocator, paramBuffer, paramAllocation);
            if (queryPool != VK_NULL_HANDLE) vkDestroyQueryPool(dev.device, queryPool, null);
            vkDestroyDescriptorPool(dev.device, descriptorPool, null);
            vkDestroyFence(dev.device, fence, null);
            vkDestroyCommandPool(dev.device, commandPool, null);
        } finally {
            lock.unlock();
        }
    }
}
