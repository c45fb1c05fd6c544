package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link FakeObjc.Gpu} that runs each dispatched MSL kernel on the CPU: the source the backend
 * compiled is built by clang++ against the {@code metal_stdlib} shim with the driver {@link MslHost}
 * uses ({@link MslUnit}: element-wise kernels one thread per element, reductions as threadgroups of
 * 256 fibers meeting at barriers), once per source, and called with the bound buffers' memory. So
 * the backend's whole path (flattening, broadcasts, bindings, grid sizes) runs on Linux. An MPS matrix
 * product it computes with a plain loop. Close it to unload and delete the libraries.
 */
final class ClangGpu implements FakeObjc.Gpu, AutoCloseable {
    private static final FunctionDescriptor RUN = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);

    private final Path work;
    private final Path shim;
    private final Arena arena = Arena.ofShared();
    private final Map<String, MethodHandle> built = new HashMap<>();
    /** Kernels compiled by clang++ (one per distinct source). */
    int compiled;

    ClangGpu() throws java.io.IOException {
        work = Files.createTempDirectory("jburn-clang-gpu");
        shim = Clang.shimDir(work);
    }

    @Override
    public void run(String source, String entry, List<MemorySegment> buffers, int n, long groups, long groupSize) {
        if (groupSize != MetalKernels.GROUP) throw new AssertionError("the kernels are written for groups of " + MetalKernels.GROUP);
        MethodHandle h = built.computeIfAbsent(source, s -> build(s, entry));
        boolean reduction = source.contains("threadgroup_position_in_grid");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pointers = a.allocate(ValueLayout.ADDRESS, buffers.size());
            for (int k = 0; k < buffers.size(); k++) pointers.setAtIndex(ValueLayout.ADDRESS, k, buffers.get(k));
            // Element-wise: the driver runs threads 0..n (the grid's threads past n return at the bounds check, as these would).
            h.invokeExact(pointers, n, (int) (reduction ? groups : 0));
        } catch (Throwable t) {
            throw new IllegalStateException("running " + entry + " on the CPU", t);
        }
    }

    /** MPS's product as a plain loop, accumulating in f32 (f16 operands converted exactly, the result rounded once). */
    @Override
    public void multiply(MemorySegment a, MemorySegment b, MemorySegment c, long m, long n, long k, int type) {
        boolean half = type == MetalGemm.MPS_FLOAT16;
        if (!half && type != MetalGemm.MPS_FLOAT32) throw new AssertionError("MPS data type " + Integer.toHexString(type));
        for (long i = 0; i < m; i++) {
            for (long j = 0; j < n; j++) {
                float acc = 0;
                for (long p = 0; p < k; p++) acc += element(a, i * k + p, half) * element(b, p * n + j, half);
                if (half) c.setAtIndex(ValueLayout.JAVA_SHORT, i * n + j, Float.floatToFloat16(acc));
                else c.setAtIndex(ValueLayout.JAVA_FLOAT, i * n + j, acc);
            }
        }
    }

    private static float element(MemorySegment s, long i, boolean half) {
        return half ? Float.float16ToFloat(s.getAtIndex(ValueLayout.JAVA_SHORT, i)) : s.getAtIndex(ValueLayout.JAVA_FLOAT, i);
    }

    private MethodHandle build(String source, String entry) {
        try {
            Path dir = Files.createDirectories(work.resolve("k" + built.size()));
            boolean reduction = source.contains("threadgroup_position_in_grid");
            MslUnit unit = new MslUnit(true);
            List<DType> types = bufferTypes(source);
            KernelSource k = new KernelSource(entry, source, types.subList(0, types.size() - 1), types.getLast());
            unit.add(entry, new MslCase(entry, k, List.of(), 0, 0, reduction ? 1 : 0, false, false, null), true);
            Path src = dir.resolve("kernel.metal.cpp"), lib = dir.resolve("libkernel.so");
            Files.writeString(src, unit.text);
            Clang.Result r = Clang.run(shim, src, "-O0", "-ffp-contract=off", "-fPIC", "-shared", "-w", "-o", lib.toString());
            if (!r.ok()) throw new AssertionError("clang++ could not build the kernel:\n" + r.log() + "\n" + source);
            compiled++;
            return Linker.nativeLinker().downcallHandle(SymbolLookup.libraryLookup(lib, arena).find("run_0").orElseThrow(), RUN);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final java.util.regex.Pattern BUFFER = java.util.regex.Pattern.compile("device (?:const )?(\\w+)\\* (in\\d+|out) \\[\\[buffer");

    /**
     * The dtypes of the kernel's buffers, read back from its signature (the fake sees only the source):
     * the driver casts each buffer to its declared storage type. Dtypes of one storage type (pred, u8) are alike here.
     */
    private static List<DType> bufferTypes(String source) {
        Map<String, DType> byStorage = new HashMap<>();
        for (DType t : DType.values()) if (t != DType.F64) byStorage.putIfAbsent(Dialect.METAL.storageType(t), t);
        List<DType> types = new ArrayList<>();
        java.util.regex.Matcher m = BUFFER.matcher(source);
        while (m.find()) types.add(byStorage.get(m.group(1)));
        if (types.isEmpty() || types.contains(null)) throw new AssertionError("cannot read the buffer types of:\n" + source);
        return types;
    }

    @Override
    public void close() throws java.io.IOException {
        arena.close();
        Clang.delete(work);
    }
}
