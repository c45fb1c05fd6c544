package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.HostFallbackBackend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cuda engine's kernels. Memory lives on the GPU ({@link CachingAllocator}, {@link CudaBuffer});
 * movement ops run as one strided-copy kernel, {@code dot} on cuBLAS, and every other primitive
 * through {@link HostFallbackBackend} on the cpu engine (counted in {@code fallbackCounts()}).
 * Work is queued on one stream and runs asynchronously; only downloads wait for it. Every entry
 * point takes the device's lock with its context current ({@link CudaDevice#enter()}), so the
 * engine may be used from several threads.
 */
final class CudaBackend extends HostFallbackBackend {
    private final CudaConfig config;
    private final CudaDevice device;
    private final CachingAllocator allocator;
    private final PinnedStaging staging;
    private final KernelCache kernels;
    private final Cublas cublas;
    private final MemorySegment cublasHandle;
    private final AtomicLong launches = new AtomicLong();
    private boolean closed;

    CudaBackend(CudaLibraries libs, CudaConfig config) {
        this.config = config;
        this.device = new CudaDevice(libs.driver(), config.device());
        CudaDriver d = libs.driver();
        this.allocator = new CachingAllocator(new DeviceMemory() {
            @Override public long allocate(long bytes) {
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment cell = a.allocate(java.lang.foreign.ValueLayout.JAVA_LONG);
                    int r = d.memAlloc(cell, bytes);
                    if (r == CudaResult.OUT_OF_MEMORY) return 0;
                    d.check(r, "cuMemAlloc_v2(" + bytes + " bytes)", "allocate");
                    return cell.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
                }
            }
            @Override public void free(long pointer) { d.memFree(pointer); }
            @Override public long[] info() { return d.memoryInfo(); }
            @Override public void synchronize() { device.synchronize("free"); }
        });
        this.staging = new PinnedStaging(d, device.stream);
        this.kernels = new KernelCache(device, libs.nvrtc(), config.cacheDir());
        this.cublas = libs.cublas();
        this.cublasHandle = cublas.createHandle(device.stream, config.tf32());
    }

    @Override public String name() { return CudaProvider.NAME; }

    @Override public Capabilities capabilities() { return NativeOps::supports; }

    /** The settings this engine was created with. */
    CudaConfig config() { return config; }

    /** The device, for benchmarks and tests (events, synchronization). */
    CudaDevice device() { return device; }

    /** Kernels launched so far (custom kernels and cuBLAS calls). */
    long launchCount() { return launches.get(); }

    void countLaunch() { launches.incrementAndGet(); }

    /** Bytes of device memory held by live buffers. */
    long liveBytes() {
        try (var e = device.enter()) { return allocator.liveBytes(); }
    }

    /** NVRTC compilations so far. */
    long compileCount() {
        try (var e = device.enter()) { return kernels.compiles(); }
    }

    /** Waits for every queued kernel and copy. */
    void synchronize() {
        try (var e = device.enter()) { device.synchronize("synchronize"); }
    }

    // ---- memory -----------------------------------------------------------------------------------

    /** A new buffer of {@code bytes} whose contents are undefined; caller holds the entry. */
    CudaBuffer newBuffer(long bytes, String op) {
        return new CudaBuffer(allocator, allocator.allocate(bytes, op), bytes);
    }

    static long ptr(Operand o) { return ((CudaBuffer) o.buffer()).pointer(); }

    @Override
    public Buffer allocate(long byteSize) {
        try (var e = device.enter()) {
            CudaBuffer b = newBuffer(byteSize, "allocate");
            if (byteSize > 0) device.driver.zero(b.pointer(), byteSize, device.stream, "allocate");
            return b;
        }
    }

    @Override
    public Buffer upload(MemorySegment host) {
        try (var e = device.enter()) {
            CudaBuffer b = newBuffer(host.byteSize(), "upload");
            if (host.byteSize() > 0) staging.upload(host, b.pointer(), "upload");
            return b;
        }
    }

    @Override
    public void download(Buffer src, long offset, MemorySegment dst) {
        if (offset < 0 || offset + dst.byteSize() > src.byteSize()) {
            throw new dev.jburn.JBurnException("download", "range [" + offset + ", " + (offset + dst.byteSize())
                    + ") outside a buffer of " + src.byteSize() + " bytes");
        }
        if (dst.byteSize() == 0) return;
        try (var e = device.enter()) {
            staging.download(((CudaBuffer) src).pointer() + offset, dst, "download");
        }
    }

    // ---- kernels ------------------------------------------------------------------------------------

    /** Launches {@code entry} of {@code source} over a 1-D grid; caller holds the entry. */
    void launch(String source, String entry, int blocks, int threads, int sharedBytes, KernelArgs args, String op) {
        MemorySegment f = kernels.function(source, entry, op);
        device.driver.launch(f, blocks, 1, 1, threads, 1, 1, sharedBytes, device.stream, args.segment(), op);
        launches.incrementAndGet();
    }

    /** Copies the view {@code v} of {@code x} into a new buffer. */
    private Buffer stridedCopy(Operand x, StridedView v, String op) {
        int es = x.dtype().byteSize();
        long n = v.size();
        try (var e = device.enter(); Arena a = Arena.ofConfined()) {
            CudaBuffer out = newBuffer(n * es, op);
            if (n == 0) return out;
            KernelArgs args = new KernelArgs(a).pointer(ptr(x)).pointer(out.pointer()).i64(n).i64(v.base())
                    .i32(v.dims().length).longs(StridedView.padded(v.dims())).longs(StridedView.padded(v.strides()));
            launch(StridedCopy.SOURCE, StridedCopy.entry(es), StridedCopy.blocks(n), StridedCopy.THREADS, 0, args, op);
            return out;
        }
    }

    private static boolean copyable(Operand x, int outRank) {
        return outRank <= StridedView.MAX_RANK && x.shape().rank() <= StridedView.MAX_RANK;
    }

    @Override
    public Buffer transpose(Operand x, int[] perm) {
        if (!copyable(x, perm.length)) return super.transpose(x, perm);
        return stridedCopy(x, StridedView.transpose(x.shape(), perm), "transpose");
    }

    @Override
    public Buffer broadcast(Operand x, Shape outShape, int[] axes) {
        if (!copyable(x, outShape.rank())) return super.broadcast(x, outShape, axes);
        return stridedCopy(x, StridedView.broadcast(x.shape(), outShape, axes), "broadcast");
    }

    @Override
    public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        if (!copyable(x, starts.length)) return super.slice(x, starts, lengths, strides);
        return stridedCopy(x, StridedView.slice(x.shape(), starts, lengths, strides), "slice");
    }

    @Override
    public Buffer reverse(Operand x, int[] axes) {
        if (!copyable(x, x.shape().rank())) return super.reverse(x, axes);
        return stridedCopy(x, StridedView.reverse(x.shape(), axes), "reverse");
    }

    @Override
    public Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) {
        GemmArgs.Precision p = CudaGemm.precision(out);
        if (p == null || a.shape().rank() > StridedView.MAX_RANK || b.shape().rank() > StridedView.MAX_RANK) {
            return super.dot(a, contractA, batchA, b, contractB, batchB, out);
        }
        DotPlan plan = DotPlan.of(a.shape(), contractA, batchA, b.shape(), contractB, batchB);
        if (!CudaGemm.fits(plan)) return super.dot(a, contractA, batchA, b, contractB, batchB, out);
        try (var e = device.enter()) {
            return new CudaGemm(this, cublas, cublasHandle).run(plan, a, b, p);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        try (var e = device.enter()) {
            device.synchronize("close");
            cublas.destroyHandle(cublasHandle);
            kernels.close();
            staging.close();
            allocator.close();
            device.close();
            closed = true;
        }
    }
}
