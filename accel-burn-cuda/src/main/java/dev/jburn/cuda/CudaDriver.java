package dev.jburn.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The CUDA driver API ({@code libcuda.so.1}) through FFM: one method handle per call, bound once.
 * Versioned symbols ({@code cuMemAlloc_v2}, ...) are bound by their real names, as the headers'
 * macros would. Every wrapper checks the CUresult and names the JBurn op in the {@code JBurnException};
 * {@link #memAlloc} alone returns the raw code, so the allocator can trim its cache on out-of-memory.
 * Handles (context, stream, module, function, event) are opaque pointers; device pointers are {@code long}s.
 */
@SuppressWarnings("restricted") // pinned host memory and C strings from the driver are sized here
final class CudaDriver {
    static final int ATTR_MULTIPROCESSOR_COUNT = 16;
    static final int ATTR_COMPUTE_CAPABILITY_MAJOR = 75;
    static final int ATTR_COMPUTE_CAPABILITY_MINOR = 76;
    /** The oldest driver the engine accepts: CUDA 12.0 (NVRTC 12 and 13 CUBINs load on it or newer). */
    static final int MIN_DRIVER_VERSION = 12000;

    private static final FunctionDescriptor I_I = FunctionDescriptor.of(JAVA_INT, JAVA_INT);
    private static final FunctionDescriptor I_P = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    private static final FunctionDescriptor I_PP = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

    private final NativeLibrary lib;
    private final MethodHandle init, driverGetVersion, getErrorName, deviceGetCount, deviceGet, deviceGetAttribute,
            deviceGetName, deviceTotalMem, primaryCtxRetain, primaryCtxRelease, ctxSetCurrent,
            streamCreate, streamSynchronize, streamDestroy,
            memAlloc, memFree, memAllocHost, memFreeHost, memcpyHtoDAsync, memcpyDtoHAsync, memcpyDtoDAsync,
            memsetD8Async, memGetInfo, moduleLoadData, moduleGetFunction, moduleUnload, launchKernel,
            eventCreate, eventRecord, eventSynchronize, eventElapsedTime, eventDestroy,
            streamBeginCapture, streamEndCapture, graphInstantiate, graphLaunch, graphExecDestroy, graphDestroy;

    private CudaDriver(NativeLibrary lib) {
        this.lib = lib;
        init = lib.fn("cuInit", I_I);
        driverGetVersion = lib.fn("cuDriverGetVersion", I_P);
        getErrorName = lib.fn("cuGetErrorName", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        deviceGetCount = lib.fn("cuDeviceGetCount", I_P);
        deviceGet = lib.fn("cuDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        deviceGetAttribute = lib.fn("cuDeviceGetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        deviceGetName = lib.fn("cuDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        deviceTotalMem = lib.fn("cuDeviceTotalMem_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        primaryCtxRetain = lib.fn("cuDevicePrimaryCtxRetain", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        primaryCtxRelease = lib.fn("cuDevicePrimaryCtxRelease_v2", I_I);
        ctxSetCurrent = lib.fn("cuCtxSetCurrent", I_P);
        streamCreate = lib.fn("cuStreamCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        streamSynchronize = lib.fn("cuStreamSynchronize", I_P);
        streamDestroy = lib.fn("cuStreamDestroy_v2", I_P);
        memAlloc = lib.fn("cuMemAlloc_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        memFree = lib.fn("cuMemFree_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        memAllocHost = lib.fn("cuMemAllocHost_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        memFreeHost = lib.fn("cuMemFreeHost", I_P);
        memcpyHtoDAsync = lib.fn("cuMemcpyHtoDAsync_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
        memcpyDtoHAsync = lib.fn("cuMemcpyDtoHAsync_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        memcpyDtoDAsync = lib.fn("cuMemcpyDtoDAsync_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
        memsetD8Async = lib.fn("cuMemsetD8Async", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, ADDRESS));
        memGetInfo = lib.fn("cuMemGetInfo_v2", I_PP);
        moduleLoadData = lib.fn("cuModuleLoadData", I_PP);
        moduleGetFunction = lib.fn("cuModuleGetFunction", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        moduleUnload = lib.fn("cuModuleUnload", I_P);
        launchKernel = lib.fn("cuLaunchKernel", FunctionDescriptor.of(JAVA_INT, ADDRESS,
                JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        eventCreate = lib.fn("cuEventCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        eventRecord = lib.fn("cuEventRecord", I_PP);
        eventSynchronize = lib.fn("cuEventSynchronize", I_P);
        eventElapsedTime = lib.fnAny(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), "cuEventElapsedTime_v2", "cuEventElapsedTime");
        eventDestroy = lib.fn("cuEventDestroy_v2", I_P);
        streamBeginCapture = lib.fn("cuStreamBeginCapture_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        streamEndCapture = lib.fn("cuStreamEndCapture", I_PP);
        graphInstantiate = lib.fn("cuGraphInstantiateWithFlags", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        graphLaunch = lib.fn("cuGraphLaunch", I_PP);
        graphExecDestroy = lib.fn("cuGraphExecDestroy", I_P);
        graphDestroy = lib.fn("cuGraphDestroy", I_P);
    }

    /** Opens {@code libcuda.so.1} and binds every call; {@link CudaUnavailableException} when it or a symbol is missing. */
    static CudaDriver load() {
        return new CudaDriver(NativeLibrary.open(List.of("libcuda.so.1", "libcuda.so")));
    }

    String libraryName() { return lib.name(); }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    // ---- errors ---------------------------------------------------------------------------------

    /** The driver's name for a CUresult ({@code CUDA_ERROR_OUT_OF_MEMORY}). */
    String errorName(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int r = (int) getErrorName.invokeExact(code, out);
            MemorySegment s = out.get(ADDRESS, 0);
            if (r != CudaResult.SUCCESS || s.equals(MemorySegment.NULL)) return CudaResult.knownName(code);
            return s.reinterpret(256).getString(0, StandardCharsets.US_ASCII);
        } catch (Throwable t) {
            return CudaResult.knownName(code);
        }
    }

    void check(int result, String call, String op) {
        if (result != CudaResult.SUCCESS) CudaResult.check(result, call, op, this::errorName);
    }

    // ---- device and context ----------------------------------------------------------------------

    /** {@code cuInit(0)}'s raw result (the availability probe reports it). */
    int init() {
        try { return (int) init.invokeExact(0); } catch (Throwable t) { throw rethrow(t); }
    }

    int driverVersion() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check((int) driverGetVersion.invokeExact(v), "cuDriverGetVersion", "cuda");
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check((int) deviceGetCount.invokeExact(v), "cuDeviceGetCount", "cuda");
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int device(int ordinal) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check((int) deviceGet.invokeExact(v, ordinal), "cuDeviceGet", "cuda");
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int attribute(int attribute, int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check((int) deviceGetAttribute.invokeExact(v, attribute, device), "cuDeviceGetAttribute", "cuda");
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(256);
            check((int) deviceGetName.invokeExact(v, 256, device), "cuDeviceGetName", "cuda");
            return v.getString(0, StandardCharsets.US_ASCII);
        } catch (Throwable t) { throw rethrow(t); }
    }

    long totalMemory(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_LONG);
            check((int) deviceTotalMem.invokeExact(v, device), "cuDeviceTotalMem_v2", "cuda");
            return v.get(JAVA_LONG, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment primaryContextRetain(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check((int) primaryCtxRetain.invokeExact(v, device), "cuDevicePrimaryCtxRetain", "cuda");
            return v.get(ADDRESS, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    void primaryContextRelease(int device) {
        try { check((int) primaryCtxRelease.invokeExact(device), "cuDevicePrimaryCtxRelease_v2", "close"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void setCurrent(MemorySegment context) {
        try { check((int) ctxSetCurrent.invokeExact(context), "cuCtxSetCurrent", "cuda"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    // ---- streams and events ------------------------------------------------------------------------

    MemorySegment streamCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check((int) streamCreate.invokeExact(v, 0), "cuStreamCreate", "cuda");
            return v.get(ADDRESS, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    void streamSynchronize(MemorySegment stream, String op) {
        try { check((int) streamSynchronize.invokeExact(stream), "cuStreamSynchronize", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void streamDestroy(MemorySegment stream) {
        try { check((int) streamDestroy.invokeExact(stream), "cuStreamDestroy_v2", "close"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment eventCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check((int) eventCreate.invokeExact(v, 0), "cuEventCreate", "cuda");
            return v.get(ADDRESS, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    void eventRecord(MemorySegment event, MemorySegment stream, String op) {
        try { check((int) eventRecord.invokeExact(event, stream), "cuEventRecord", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void eventSynchronize(MemorySegment event, String op) {
        try { check((int) eventSynchronize.invokeExact(event), "cuEventSynchronize", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /** Milliseconds between two recorded events. */
    float eventElapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_FLOAT);
            check((int) eventElapsedTime.invokeExact(v, start, end), "cuEventElapsedTime", "bench");
            return v.get(JAVA_FLOAT, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    void eventDestroy(MemorySegment event) {
        try { check((int) eventDestroy.invokeExact(event), "cuEventDestroy_v2", "close"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    // ---- memory ------------------------------------------------------------------------------------

    /** {@code cuMemAlloc_v2}'s raw CUresult; the pointer lands in {@code out} (a JAVA_LONG cell). */
    int memAlloc(MemorySegment out, long bytes) {
        try { return (int) memAlloc.invokeExact(out, bytes); } catch (Throwable t) { throw rethrow(t); }
    }

    void memFree(long pointer) {
        try { check((int) memFree.invokeExact(pointer), "cuMemFree_v2", "free"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /** Page-locked host memory of {@code bytes}. */
    MemorySegment memAllocHost(long bytes, String op) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check((int) memAllocHost.invokeExact(v, bytes), "cuMemAllocHost_v2(" + bytes + " bytes)", op);
            return v.get(ADDRESS, 0).reinterpret(bytes);
        } catch (Throwable t) { throw rethrow(t); }
    }

    void memFreeHost(MemorySegment pinned) {
        try { check((int) memFreeHost.invokeExact(pinned), "cuMemFreeHost", "close"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void copyHostToDevice(long dst, MemorySegment src, long bytes, MemorySegment stream, String op) {
        try { check((int) memcpyHtoDAsync.invokeExact(dst, src, bytes, stream), "cuMemcpyHtoDAsync_v2", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void copyDeviceToHost(MemorySegment dst, long src, long bytes, MemorySegment stream, String op) {
        try { check((int) memcpyDtoHAsync.invokeExact(dst, src, bytes, stream), "cuMemcpyDtoHAsync_v2", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void copyDeviceToDevice(long dst, long src, long bytes, MemorySegment stream, String op) {
        try { check((int) memcpyDtoDAsync.invokeExact(dst, src, bytes, stream), "cuMemcpyDtoDAsync_v2", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void zero(long dst, long bytes, MemorySegment stream, String op) {
        try { check((int) memsetD8Async.invokeExact(dst, 0, bytes, stream), "cuMemsetD8Async", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code {free, total}} bytes of device memory. */
    long[] memoryInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG), total = a.allocate(JAVA_LONG);
            check((int) memGetInfo.invokeExact(free, total), "cuMemGetInfo_v2", "cuda");
            return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
        } catch (Throwable t) { throw rethrow(t); }
    }

    // ---- modules and launches ----------------------------------------------------------------------

    /** Loads a CUBIN image; the image may be freed afterwards. */
    MemorySegment moduleLoad(byte[] image, String op) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment img = a.allocate(image.length + 1L, 16);
            MemorySegment.copy(image, 0, img, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, image.length);
            MemorySegment v = a.allocate(ADDRESS);
            check((int) moduleLoadData.invokeExact(v, img), "cuModuleLoadData", op);
            return v.get(ADDRESS, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment moduleFunction(MemorySegment module, String name, String op) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check((int) moduleGetFunction.invokeExact(v, module, a.allocateFrom(name)), "cuModuleGetFunction(" + name + ")", op);
            return v.get(ADDRESS, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    void moduleUnload(MemorySegment module) {
        try { check((int) moduleUnload.invokeExact(module), "cuModuleUnload", "close"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code cuLaunchKernel} with {@code params} an array of pointers to the arguments. */
    void launch(MemorySegment function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                int sharedBytes, MemorySegment stream, MemorySegment params, String op) {
        try {
            check((int) launchKernel.invokeExact(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
                    stream, params, MemorySegment.NULL), "cuLaunchKernel", op);
        } catch (Throwable t) { throw rethrow(t); }
    }

    // ---- graphs (stream capture) ---------------------------------------------------------------------

    /** {@code CU_STREAM_CAPTURE_MODE_RELAXED}: the capturing thread may still allocate device memory. */
    static final int CAPTURE_MODE_RELAXED = 2;

    /** Starts recording {@code stream}'s work into a graph instead of running it. */
    void beginCapture(MemorySegment stream, String op) {
        try { check((int) streamBeginCapture.invokeExact(stream, CAPTURE_MODE_RELAXED), "cuStreamBeginCapture_v2", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /**
     * Ends a capture; the graph recorded, or {@link MemorySegment#NULL} when the capture was
     * invalidated (an operation that cannot be captured ran on the stream). Never throws for that
     * case, so a failed capture always leaves the stream usable.
     */
    MemorySegment endCapture(MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            v.set(ADDRESS, 0, MemorySegment.NULL);
            int r = (int) streamEndCapture.invokeExact(stream, v);
            MemorySegment g = v.get(ADDRESS, 0);
            if (r != CudaResult.SUCCESS && !g.equals(MemorySegment.NULL)) graphDestroy(g);
            return r == CudaResult.SUCCESS ? g : MemorySegment.NULL;
        } catch (Throwable t) { throw rethrow(t); }
    }

    /** An executable graph made from {@code graph} (which may be destroyed afterwards). */
    MemorySegment graphInstantiate(MemorySegment graph, String op) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            check((int) graphInstantiate.invokeExact(v, graph, 0L), "cuGraphInstantiateWithFlags", op);
            return v.get(ADDRESS, 0);
        } catch (Throwable t) { throw rethrow(t); }
    }

    void graphLaunch(MemorySegment exec, MemorySegment stream, String op) {
        try { check((int) graphLaunch.invokeExact(exec, stream), "cuGraphLaunch", op); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void graphExecDestroy(MemorySegment exec) {
        try { check((int) graphExecDestroy.invokeExact(exec), "cuGraphExecDestroy", "close"); }
        catch (Throwable t) { throw rethrow(t); }
    }

    void graphDestroy(MemorySegment graph) {
        try { check((int) graphDestroy.invokeExact(graph), "cuGraphDestroy", "close"); }
        catch (Throwable t) { throw rethrow(t); }
    }
}
