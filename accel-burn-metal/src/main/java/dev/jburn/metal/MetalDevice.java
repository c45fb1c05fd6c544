package dev.jburn.metal;

import dev.jburn.JBurnException;
import dev.jburn.kernels.KernelSource;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One Metal GPU: the device and a command queue, shared-storage buffers, compute pipelines compiled
 * from generated MSL (cached by source), and synchronous dispatches. Owns every object it creates
 * and releases them in {@link #close()}. Never run on Apple hardware yet: its call sequence is
 * tested against a fake Objective-C runtime ({@code MetalDeviceTest}).
 *
 * <pre>{@code
 * try (MetalDevice gpu = MetalDevice.open(new Objc(Natives.system()))) {
 *     MetalDevice.SharedBuffer b = gpu.buffer(1024);
 *     b.contents().set(ValueLayout.JAVA_FLOAT, 0, 1f); // the CPU writes GPU memory directly
 * }
 * }</pre>
 */
final class MetalDevice implements AutoCloseable {
    /** {@code MTLResourceStorageModeShared}: one allocation the CPU and GPU both see (no copies on Apple silicon). */
    static final long STORAGE_SHARED = 0;
    /** {@code MTLCommandBufferStatusCompleted}. */
    static final long STATUS_COMPLETED = 4;

    private final Objc objc;
    private final MemorySegment device, queue;
    private final Map<String, MemorySegment> pipelines = new HashMap<>();
    /** Each pipeline's {@code maxTotalThreadsPerThreadgroup}, read once when it is built. */
    private final Map<MemorySegment, Long> maxThreads = new HashMap<>();
    private final List<SharedBuffer> buffers = new ArrayList<>();
    private boolean closed;

    private MetalDevice(Objc objc, MemorySegment device, MemorySegment queue) {
        this.objc = objc;
        this.device = device;
        this.queue = queue;
    }

    /** The system's default GPU; a JBurnException when there is none. */
    static MetalDevice open(Objc objc) {
        MethodHandle create = objc.function(Natives.Library.METAL, "MTLCreateSystemDefaultDevice", FunctionDescriptor.of(ADDRESS));
        MemorySegment device;
        try {
            device = (MemorySegment) create.invokeExact(); // +1: released in close()
        } catch (Throwable t) {
            throw new JBurnException("metal", "MTLCreateSystemDefaultDevice failed: " + t, t);
        }
        if (device.equals(MemorySegment.NULL)) throw new JBurnException("metal", "MTLCreateSystemDefaultDevice found no Metal GPU");
        MemorySegment queue = objc.id(device, Sel.NEW_COMMAND_QUEUE);
        if (queue.equals(MemorySegment.NULL)) {
            objc.release(device);
            throw new JBurnException("metal", "newCommandQueue returned nil");
        }
        return new MetalDevice(objc, device, queue);
    }

    /** The GPU's name ({@code "Apple M2"}). */
    String name() {
        try (Objc.Pool p = objc.pool()) {
            return objc.text(objc.id(device, Sel.NAME));
        }
    }

    /** Whether the GPU belongs to {@code family}, an {@code MTLGPUFamily} value ({@code supportsFamily:}, macOS 10.15+). */
    boolean supportsFamily(long family) {
        requireOpen("supportsFamily");
        return (boolean) objc.send(device, Sel.SUPPORTS_FAMILY, family);
    }

    /**
     * A shared-storage buffer of {@code bytes} (at least one byte: Metal refuses empty buffers),
     * readable and writable through {@link SharedBuffer#contents()}.
     */
    synchronized SharedBuffer buffer(long bytes) {
        requireOpen("buffer");
        if (bytes < 0) throw new JBurnException("metal.buffer", "negative size " + bytes);
        MemorySegment b = objc.id(device, Sel.NEW_BUFFER, Math.max(1, bytes), STORAGE_SHARED); // +1
        if (b.equals(MemorySegment.NULL)) throw new JBurnException("metal.buffer", "newBufferWithLength:" + bytes + " returned nil (out of GPU memory?)");
        SharedBuffer s = new SharedBuffer(b, objc.id(b, Sel.CONTENTS).reinterpret(bytes), bytes);
        buffers.add(s);
        return s;
    }

    /** Releases {@code b} now (its contents must not be used afterwards). */
    synchronized void free(SharedBuffer b) {
        if (buffers.remove(b)) objc.release(b.buffer);
    }

    /** The compute pipeline of {@code k} (compiled once per source, fast math off), its entry point {@code k.entry()}. */
    synchronized MemorySegment pipeline(KernelSource k) {
        requireOpen("pipeline");
        MemorySegment p = pipelines.get(k.code());
        if (p != null) return p;
        MemorySegment options = objc.id(objc.id(objc.cls("MTLCompileOptions"), Sel.ALLOC), Sel.INIT); // +1
        MemorySegment library = MemorySegment.NULL, function = MemorySegment.NULL;
        try (Objc.Pool pool = objc.pool(); Arena a = Arena.ofConfined()) {
            // Fast math lets the compiler reassociate and flush: JBurn's kernels spell out IEEE semantics and need it off.
            objc.send(options, Sel.SET_FAST_MATH, false);
            MemorySegment error = a.allocate(ADDRESS);
            library = objc.id(device, Sel.NEW_LIBRARY, objc.string(k.code()), options, error); // +1
            objc.check(error, "metal: compiling MSL " + k.entry());
            function = objc.id(library, Sel.NEW_FUNCTION, objc.string(k.entry())); // +1
            if (function.equals(MemorySegment.NULL)) throw new JBurnException("metal", "the compiled library has no function " + k.entry());
            p = objc.id(device, Sel.NEW_PIPELINE, function, error); // +1: released in close()
            objc.check(error, "metal: pipeline for " + k.entry());
        } finally {
            objc.release(function);
            objc.release(library);
            objc.release(options);
        }
        long limit;
        try {
            limit = (long) objc.send(p, Sel.MAX_THREADS);
        } catch (RuntimeException e) {
            objc.release(p);
            throw e;
        }
        pipelines.put(k.code(), p);
        maxThreads.put(p, limit);
        return p;
    }

    /**
     * The most threads a threadgroup of {@code pipeline} (from {@link #pipeline}) may have: Metal lowers it
     * below the device's 1024 for kernels that use many registers, and a dispatch with larger groups fails.
     */
    synchronized long maxThreads(MemorySegment pipeline) {
        Long m = maxThreads.get(pipeline);
        if (m == null) throw new JBurnException("metal", "not a pipeline of this device");
        return m;
    }

    /**
     * Runs {@code pipeline} over {@code groups} threadgroups of {@code groupSize} threads, with
     * {@code buffers} at indices 0.. and the element count {@code n} (a {@code constant uint&}) after
     * them, and waits for it; a JBurnException naming {@code op} when the GPU reports an error.
     */
    void dispatch(String op, MemorySegment pipeline, List<SharedBuffer> buffers, int n, long groups, long groupSize) {
        submit(op, (cb, a) -> {
            MemorySegment enc = objc.id(cb, Sel.COMPUTE_ENCODER); // autoreleased
            objc.send(enc, Sel.SET_PIPELINE, pipeline);
            for (int i = 0; i < buffers.size(); i++) objc.send(enc, Sel.SET_BUFFER, buffers.get(i).buffer, 0L, (long) i);
            objc.send(enc, Sel.SET_BYTES, a.allocateFrom(JAVA_INT, n), 4L, (long) buffers.size());
            objc.send(enc, Sel.DISPATCH_GROUPS, size(a, groups), size(a, groupSize));
            objc.send(enc, Sel.END_ENCODING);
        });
    }

    /** What a submission encodes into its command buffer; {@code arena} lives until the submission ends. */
    interface Encoding {
        void encode(MemorySegment commandBuffer, Arena arena);
    }

    /**
     * One command buffer: encoded by {@code encoding} inside an autorelease pool, committed and waited
     * for; a JBurnException naming {@code op} when the GPU reports an error.
     */
    void submit(String op, Encoding encoding) {
        requireOpen(op);
        try (Objc.Pool pool = objc.pool(); Arena a = Arena.ofConfined()) {
            MemorySegment cb = objc.id(queue, Sel.COMMAND_BUFFER); // autoreleased
            encoding.encode(cb, a);
            objc.send(cb, Sel.COMMIT);
            objc.send(cb, Sel.WAIT);
            long status = (long) objc.send(cb, Sel.STATUS);
            if (status != STATUS_COMPLETED) {
                MemorySegment err = objc.id(cb, Sel.ERROR);
                throw new JBurnException(op, "the GPU did not complete the command buffer (status " + status + "): "
                        + (err.equals(MemorySegment.NULL) ? "no error reported" : objc.text(objc.id(err, Sel.LOCALIZED_DESCRIPTION))));
            }
        }
    }

    /** The runtime this device talks through. */
    Objc objc() { return objc; }

    /** The {@code id<MTLDevice>}. */
    MemorySegment device() { return device; }

    private static MemorySegment size(Arena a, long width) {
        MemorySegment s = a.allocate(Objc.MTL_SIZE);
        s.set(JAVA_LONG, 0, width);
        s.set(JAVA_LONG, 8, 1L);
        s.set(JAVA_LONG, 16, 1L);
        return s;
    }

    private void requireOpen(String op) {
        if (closed) throw new JBurnException("metal." + op, "the Metal device is closed");
    }

    /** Releases every buffer, pipeline, the queue and the device. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (SharedBuffer b : buffers) objc.release(b.buffer);
        buffers.clear();
        for (MemorySegment p : pipelines.values()) objc.release(p);
        pipelines.clear();
        maxThreads.clear();
        objc.release(queue);
        objc.release(device);
    }

    /**
     * A shared-storage {@code MTLBuffer}.
     *
     * @param buffer   the {@code id<MTLBuffer>} (owned by the device until {@link #free} or {@link #close})
     * @param contents its memory as the CPU sees it
     * @param bytes    its size
     */
    record SharedBuffer(MemorySegment buffer, MemorySegment contents, long bytes) {}
}
