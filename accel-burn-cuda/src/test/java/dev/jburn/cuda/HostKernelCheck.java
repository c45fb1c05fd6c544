package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.kernels.KernelSource;
import dev.jburn.kernels.ReductionPlan;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Runs the eager element-wise kernels the engine generates on the CPU, where there is no GPU: the
 * CUDA sources are compiled by the host C++ compiler with a few shims (the CUDA intrinsics they use,
 * one block of one thread, whose grid-stride loop then covers every element), loaded through FFM
 * and called with the same arguments the engine passes to {@code cuLaunchKernel}; their results are
 * compared with the cpu engine's on edge-case inputs (±0, ±Inf, NaN, subnormals, extremes). Host
 * math libraries differ from CUDA's by an ulp or two, so transcendental results are compared with a
 * tolerance; everything else must match bit for bit (any NaN matches any NaN). Reductions run as one
 * block of 256 fibers meeting at every barrier ({@link CudaHostShim#BLOCK}), so the shared-memory tree is
 * exercised as on the GPU. The kernel families run at once, so their host compiles (most of the time) overlap.
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED ... dev.jburn.cuda.HostKernelCheck [g++]}; prints each
 * mismatch. {@link HostKernelTest} runs it in the build wherever a host C++ compiler is installed.
 */
public final class HostKernelCheck {
    private record Case(String label, KernelSource source, List<DType> inputs, DType out, boolean approximate,
                        BiFunction<Backend, List<Operand>, Buffer> oracle) {}

    private HostKernelCheck() {}

    private static boolean transcendental(UnaryOp u) {
        return switch (u) {
            case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                 ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> true;
            default -> false;
        };
    }

    /**
     * Compiles {@code src} into the shared library {@code lib} ({@code cxx -O1 -shared -fPIC -w} plus
     * {@code flags}); on failure prints the compiler's first lines, naming {@code what}, and returns false.
     */
    static boolean compile(String cxx, Path src, Path lib, String what, String... flags) throws java.io.IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(cxx, "-O1"));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-shared", "-fPIC", "-w", "-o", lib.toString(), src.toString()));
        String log;
        int exit;
        ENGINE.unlock(); // other families may emit and run while this one's compiler runs
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            log = new String(p.getInputStream().readAllBytes());
            exit = p.waitFor();
        } finally {
            ENGINE.lock();
        }
        if (exit == 0) return true;
        System.out.println("host compile of " + what + " failed:\n" + log.lines().limit(40).reduce("", (a, b) -> a + b + "\n"));
        return false;
    }

    private static final List<Path> TEMP = java.util.Collections.synchronizedList(new ArrayList<>());

    /**
     * Held by a family while it emits sources, calls the cpu engine or runs kernels, released only while
     * its host compiler runs ({@link #compile}): the families run at once so that their compiles overlap,
     * but their Java side runs one at a time, as when they ran in turn.
     */
    private static final java.util.concurrent.locks.ReentrantLock ENGINE = new java.util.concurrent.locks.ReentrantLock();

    /** A temporary folder for sources and libraries, deleted when {@link #run} ends (a loaded library may be unlinked on Linux). */
    static Path tempDir(String prefix) throws java.io.IOException {
        Path d = Files.createTempDirectory(prefix);
        TEMP.add(d);
        return d;
    }

    public static void main(String[] args) throws Exception {
        int bad = run(args.length > 0 ? args[0] : "g++");
        if (bad != 0) System.exit(1);
    }

    /** Runs every check; returns the number of mismatches, or -1 when the host compiler failed. */
    static int run(String cxx) throws Exception {
        try {
            return runAll(cxx);
        } finally {
            for (Path d : TEMP) {
                try (var files = Files.walk(d)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
            TEMP.clear();
        }
    }

    /** One family of kernels checked: its mismatches, or -1 when the host compiler failed. */
    private interface Family {
        int check(String cxx) throws Exception;
    }

    /** The families, the longest compile first, on as many threads as cores (at least two: a compile waits mostly on its process). */
    private static int runAll(String cxx) throws Exception {
        List<Family> families = List.of(HostKernelCheck::elementwise, HostKernelCheck::reductions, HostKernelCheck::lineKernels,
                HostKernelCheck::windowScatters, HostKernelCheck::fused, HostKernelCheck::indexedUpdates, HostKernelCheck::windowExtremes,
                Col2imHostCheck::check, DirectConvHostCheck::check);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            List<java.util.concurrent.Future<Integer>> results = new ArrayList<>();
            for (Family f : families) {
                results.add(pool.submit(() -> {
                    ENGINE.lock();
                    try {
                        return f.check(cxx);
                    } finally {
                        ENGINE.unlock();
                    }
                }));
            }
            int mismatches = 0;
            boolean failed = false;
            for (var r : results) {
                int m;
                try {
                    m = r.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Exception x) throw x;
                    throw e;
                }
                if (m < 0) failed = true;
                else mismatches += m;
            }
            return failed ? -1 : mismatches;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The binary ops also checked with a trailing operand (a bias): those a layer's forward and backward pass send. */
    private static final java.util.Set<BinaryOp> TRAILING_OPS = java.util.EnumSet.of(BinaryOp.ADD, BinaryOp.SUBTRACT, BinaryOp.MULTIPLY,
            BinaryOp.DIVIDE, BinaryOp.MAX);

    /** The eager element-wise kernels (unary, binary, select, cast over every dtype) against the cpu engine. */
    private static int elementwise(String cxx) throws Exception {
        int n = 64;
        Shape flat = Shape.of(n), scalar = Shape.of(), rows = Shape.of(n / 8, 8), row = Shape.of(8);
        List<Case> cases = new ArrayList<>();
        for (DType t : DType.values()) {
            for (UnaryOp u : UnaryOp.values()) {
                DType out;
                try { out = u.resultType(t); } catch (RuntimeException e) { continue; }
                if (u == UnaryOp.ERF_INV && t == DType.F64) continue; // host libm has no erfinv
                KernelSource s = emit(ElementwiseKernel.unary(u, t, out, flat));
                if (s != null) cases.add(new Case("unary " + u.opName() + ":" + t.shortName(), s, List.of(t), out,
                        transcendental(u) || u == UnaryOp.ERF_INV, (b, in) -> b.unary(u, in.get(0), out)));
            }
            for (BinaryOp o : BinaryOp.values()) {
                DType out = o.resultType(t);
                if (t == DType.PRED && !(o.isComparison() || o.isLogical() || o == BinaryOp.MIN || o == BinaryOp.MAX
                        || o == BinaryOp.BITWISE_AND || o == BinaryOp.BITWISE_OR || o == BinaryOp.BITWISE_XOR)) {
                    continue; // the engine sends these to the cpu engine (GeneratedKernels.binary)
                }
                KernelSource s = emit(ElementwiseKernel.binary(o, t, flat, flat, flat, out));
                boolean approx = o == BinaryOp.POW || o == BinaryOp.ATAN2;
                if (s != null) cases.add(new Case("binary " + o.opName() + ":" + t.shortName(), s, List.of(t, t), out, approx,
                        (b, in) -> b.binary(o, in.get(0), in.get(1), flat, out)));
                KernelSource sc = emit(ElementwiseKernel.binary(o, t, flat, scalar, flat, out));
                if (sc != null) cases.add(new Case("binary " + o.opName() + ":" + t.shortName() + " (b scalar)", sc, List.of(t, t), out, approx,
                        (b, in) -> b.binary(o, in.get(0), new Operand(in.get(1).buffer(), t, scalar), flat, out)));
                if (TRAILING_OPS.contains(o)) { // a bias over channels-last activations: b read at i mod 8 (dev.jburn.kernels.FlatLayout)
                    KernelSource st = emit(ElementwiseKernel.binary(o, t, rows, row, rows, out));
                    if (st != null) cases.add(new Case("binary " + o.opName() + ":" + t.shortName() + " (b trailing)", st, List.of(t, t), out, approx,
                            (b, in) -> b.binary(o, new Operand(in.get(0).buffer(), t, rows), new Operand(in.get(1).buffer(), t, row), rows, out)));
                }
            }
            KernelSource sel = emit(ElementwiseKernel.select(flat, flat, flat, flat, t));
            if (sel != null) cases.add(new Case("select:" + t.shortName(), sel, List.of(DType.PRED, t, t), t, false,
                    (b, in) -> b.select(in.get(0), in.get(1), in.get(2), flat)));
            KernelSource selt = emit(ElementwiseKernel.select(rows, row, scalar, rows, t));
            if (selt != null) cases.add(new Case("select:" + t.shortName() + " (trailing, scalar)", selt, List.of(DType.PRED, t, t), t, false,
                    (b, in) -> b.select(new Operand(in.get(0).buffer(), DType.PRED, rows), new Operand(in.get(1).buffer(), t, row),
                            new Operand(in.get(2).buffer(), t, scalar), rows)));
            for (DType to : DType.values()) {
                KernelSource s = emit(ElementwiseKernel.cast(t, to, flat));
                if (s != null) cases.add(new Case("cast " + t.shortName() + "->" + to.shortName(), s, List.of(t), to, false,
                        (b, in) -> b.cast(in.get(0), to)));
            }
        }
        Path dir = tempDir("jburn-hostk");
        StringBuilder cpp = new StringBuilder(CudaHostShim.THREAD);
        for (int i = 0; i < cases.size(); i++) {
            String code = cases.get(i).source().code().replace(Emitter.CUDA_ENTRY, Emitter.CUDA_ENTRY + "_" + i);
            cpp.append("namespace k").append(i).append(" {\n").append(code).append("\n}\n");
        }
        Path src = dir.resolve("kernels.cpp"), lib = dir.resolve("libkernels.so");
        Files.writeString(src, cpp);
        long t0 = System.nanoTime();
        if (!compile(cxx, src, lib, "element-wise kernels", "-std=c++17", "-ffp-contract=off")) return -1;
        System.out.printf("%d kernels compiled on the host in %.1f s%n", cases.size(), (System.nanoTime() - t0) * 1e-9);

        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(11);
        int mismatches = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                List<MemorySegment> ins = new ArrayList<>();
                List<Operand> ops = new ArrayList<>();
                for (DType t : c.inputs()) {
                    MemorySegment m = values(arena, t, n, rnd);
                    ins.add(m);
                    ops.add(new Operand(cpu.upload(m), t, flat));
                }
                MemorySegment out = arena.allocate((long) n * c.out().byteSize(), 16);
                FunctionDescriptor fd = FunctionDescriptor.ofVoid(descriptor(c.inputs().size()));
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find(Emitter.CUDA_ENTRY + "_" + i).orElseThrow(), fd);
                List<Object> callArgs = new ArrayList<>(ins);
                callArgs.add(out);
                // One element short of the 16-aligned buffers: the frame's vector loop and its scalar tail both run.
                callArgs.add((long) n - 1);
                try {
                    h.invokeWithArguments(callArgs);
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                Buffer expected = c.oracle().apply(cpu, ops);
                MemorySegment exp = arena.allocate(expected.byteSize(), 8);
                cpu.download(expected, 0, exp);
                String bad = compare(c, ins, out, exp, n - 1);
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + c.label() + ": " + bad);
                }
                expected.release();
                for (Operand o : ops) o.buffer().release();
            }
        }
        System.out.println(cases.size() + " kernels run on the host, " + mismatches + " mismatches");
        return mismatches;
    }

    /** {@code windowMax/Min} in one pass ({@link WindowExtremeKernels}) against the cpu engine: pooling with padding, overlapping dilated windows, gaps. */
    private static int windowExtremes(String cxx) throws Exception {
        record W(dev.jburn.op.WindowOp op, DType t, Shape shape, dev.jburn.spi.WindowSpec spec) {}
        List<W> cases = new ArrayList<>();
        // unpadded (the strides-only kernel): WindowCheckCases.TILE, and overlapping dilated windows
        dev.jburn.spi.WindowSpec overlapUnpadded = new dev.jburn.spi.WindowSpec(new int[] {3, 2}, new int[] {1, 2}, new int[2], new int[2], new int[] {2, 1});
        for (dev.jburn.op.WindowOp op : List.of(dev.jburn.op.WindowOp.WINDOW_MAX, dev.jburn.op.WindowOp.WINDOW_MIN)) {
            for (DType t : List.of(DType.F32, DType.F64, DType.S32, DType.U8, DType.S64, DType.U64)) {
                cases.add(new W(op, t, WindowCheckCases.POOLED, WindowCheckCases.POOL));
                for (var spec : List.of(WindowCheckCases.OVERLAP, WindowCheckCases.GAPS, overlapUnpadded)) cases.add(new W(op, t, WindowCheckCases.ROWS, spec));
                cases.add(new W(op, t, WindowCheckCases.CHANNELS_LAST, WindowCheckCases.TILE));
            }
        }
        StringBuilder cpp = new StringBuilder(CudaHostShim.THREAD);
        for (int i = 0; i < cases.size(); i++) {
            W c = cases.get(i);
            cpp.append("namespace e").append(i).append(" {\n")
                    .append(WindowExtremeKernels.source(c.t(), c.op() == dev.jburn.op.WindowOp.WINDOW_MAX).replace(WindowExtremeKernels.ENTRY, WindowExtremeKernels.ENTRY + "_" + i))
                    .append("\n}\nnamespace u").append(i).append(" {\n")
                    .append(WindowExtremeKernels.unpadded(c.t(), c.op() == dev.jburn.op.WindowOp.WINDOW_MAX)
                            .replace(WindowExtremeKernels.UNPADDED_ENTRY, WindowExtremeKernels.UNPADDED_ENTRY + "_" + i))
                    .append("\n}\n");
        }
        Path dir = tempDir("jburn-hoste");
        Path src = dir.resolve("extremes.cpp"), lib = dir.resolve("libextremes.so");
        Files.writeString(src, cpp);
        if (!compile(cxx, src, lib, "window extremes", "-std=c++17")) return -1;
        java.lang.foreign.StructLayout divs = WindowCheckCases.DIVS, ints = WindowCheckCases.INTS;
        java.lang.foreign.ValueLayout.OfInt i32 = java.lang.foreign.ValueLayout.JAVA_INT;
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(31);
        int mismatches = 0, unpaddedRun = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            java.util.function.Function<long[], MemorySegment> div32 = v -> arena.allocateFrom(i32, FastDivisors.struct(v));
            java.util.function.Function<long[], MemorySegment> int32 = v -> arena.allocateFrom(i32, FastDivisors.ints(v));
            for (int i = 0; i < cases.size(); i++) {
                W c = cases.get(i);
                int rank = c.shape().rank();
                WindowGeometry g = WindowGeometry.of(c.shape(), c.spec());
                long[] in = g.in(), win = g.win(), st = g.st(), dil = g.dil(), lo = g.lo(), outDims = g.outDims();
                long windowSize = g.windowSize();
                int windows = (int) g.windows(), n = (int) c.shape().size();
                MemorySegment x = tiedValues(arena, c.t(), n, rnd), out = arena.allocate((long) windows * c.t().byteSize(), 8);
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find(WindowExtremeKernels.ENTRY + "_" + i).orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, i32, i32, divs, divs, divs, ints, ints, ints, i32));
                MemorySegment outUnpadded = arena.allocate((long) windows * c.t().byteSize(), 8);
                try {
                    h.invokeWithArguments(x, out, windows, rank, div32.apply(in), div32.apply(outDims), div32.apply(win), int32.apply(st),
                            int32.apply(dil), int32.apply(lo), (int) windowSize);
                    if (g.unpadded()) {
                        Linker.nativeLinker().downcallHandle(lookup.find(WindowExtremeKernels.UNPADDED_ENTRY + "_" + i).orElseThrow(),
                                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, i32, i32, divs, ints, ints, ints, i32))
                                .invokeWithArguments(x, outUnpadded, windows, rank, div32.apply(outDims), int32.apply(g.windowSteps()),
                                        int32.apply(g.positionSteps()), int32.apply(win), (int) windowSize);
                    }
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                Buffer bx = cpu.upload(x);
                Buffer expected = cpu.windowReduce(c.op(), new Operand(bx, c.t(), c.shape()), c.spec());
                MemorySegment exp = arena.allocate(expected.byteSize(), 8);
                cpu.download(expected, 0, exp);
                String label = c.op().opName() + ":" + c.t().shortName() + " " + c.shape() + " windows " + Arrays.toString(outDims);
                String bad = compare(new Case(label, null, List.of(c.t()), c.t(), false, null), List.of(x), out, exp, windows);
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + label + ": " + bad);
                }
                if (g.unpadded()) {
                    unpaddedRun++;
                    String badU = compare(new Case(label + " (unpadded)", null, List.of(c.t()), c.t(), false, null), List.of(x), outUnpadded, exp, windows);
                    if (badU != null) {
                        mismatches++;
                        System.out.println("MISMATCH " + label + " (unpadded): " + badU);
                    }
                }
                bx.release();
                expected.release();
            }
        }
        if (unpaddedRun == 0) throw new IllegalStateException("no case ran the unpadded window kernel");
        System.out.println(cases.size() + " window maxima and minima run on the host (" + unpaddedRun + " also unpadded), " + mismatches + " mismatches");
        return mismatches;
    }

    /** {@code windowScatterMax/Min}: the selecting and accumulating kernels against the cpu engine, on pooling-like and overlapping windows. */
    private static int windowScatters(String cxx) throws Exception {
        record W(dev.jburn.op.WindowOp op, DType xt, DType t, Shape shape, dev.jburn.spi.WindowSpec spec) {}
        List<W> cases = new ArrayList<>();
        Shape s4 = WindowCheckCases.POOLED, s2 = WindowCheckCases.ROWS;
        // unpadded disjoint windows (the per-window kernel without bounds checks): WindowCheckCases.TILE, and gaps with a tail
        dev.jburn.spi.WindowSpec gapsUnpadded = new dev.jburn.spi.WindowSpec(new int[] {2, 2}, new int[] {3, 2}, new int[2], new int[2], new int[] {1, 1});
        for (dev.jburn.op.WindowOp op : List.of(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, dev.jburn.op.WindowOp.WINDOW_SCATTER_MIN)) {
            for (DType t : List.of(DType.F32, DType.F64, DType.S32, DType.U8, DType.S64)) {
                cases.add(new W(op, t, t, s4, WindowCheckCases.POOL));
                cases.add(new W(op, t, t, s2, WindowCheckCases.OVERLAP));
                cases.add(new W(op, t, t, s2, WindowCheckCases.GAPS));
                cases.add(new W(op, t, t, WindowCheckCases.CHANNELS_LAST, WindowCheckCases.TILE));
                cases.add(new W(op, t, t, s2, gapsUnpadded));
            }
            cases.add(new W(op, DType.BF16, DType.F32, s2, WindowCheckCases.OVERLAP));
        }
        StringBuilder cpp = new StringBuilder(CudaHostShim.THREAD);
        for (int i = 0; i < cases.size(); i++) {
            W c = cases.get(i);
            boolean max = c.op() == dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX;
            cpp.append("namespace s").append(i).append(" {\n")
                    .append(WindowScatterKernels.select(c.xt(), max).replace(WindowScatterKernels.SELECT_ENTRY, WindowScatterKernels.SELECT_ENTRY + "_" + i))
                    .append("\n}\nnamespace a").append(i).append(" {\n")
                    .append(WindowScatterKernels.scatter(c.t()).replace(WindowScatterKernels.SCATTER_ENTRY, WindowScatterKernels.SCATTER_ENTRY + "_" + i))
                    .append("\n}\nnamespace s32_").append(i).append(" {\n")
                    .append(WindowScatterKernels.select32(c.xt(), max).replace(WindowScatterKernels.SELECT32_ENTRY, WindowScatterKernels.SELECT32_ENTRY + "_" + i))
                    .append("\n}\nnamespace a32_").append(i).append(" {\n")
                    .append(WindowScatterKernels.scatter32(c.t()).replace(WindowScatterKernels.SCATTER32_ENTRY, WindowScatterKernels.SCATTER32_ENTRY + "_" + i))
                    .append("\n}\nnamespace t_").append(i).append(" {\n")
                    .append(WindowScatterKernels.tiled(c.xt(), c.t(), max, !WindowGeometry.of(c.shape(), c.spec()).unpadded())
                            .replace(WindowScatterKernels.TILED_ENTRY, WindowScatterKernels.TILED_ENTRY + "_" + i))
                    .append(WindowScatterKernels.fill(c.t()).replace(WindowScatterKernels.FILL_ENTRY, WindowScatterKernels.FILL_ENTRY + "_" + i)
                            .replace(LineKernelsCommon.TEXT, ""))
                    .append("\n}\n");
        }
        Path dir = tempDir("jburn-hostw");
        Path src = dir.resolve("scatters.cpp"), lib = dir.resolve("libscatters.so");
        Files.writeString(src, cpp);
        if (!compile(cxx, src, lib, "window scatters", "-std=c++17")) return -1;
        java.lang.foreign.StructLayout dims = java.lang.foreign.MemoryLayout.structLayout(java.lang.foreign.MemoryLayout.sequenceLayout(8, JAVA_LONG));
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(29);
        int mismatches = 0, tiledRun = 0, paddedRun = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            for (int i = 0; i < cases.size(); i++) {
                W c = cases.get(i);
                int rank = c.shape().rank();
                WindowGeometry g = WindowGeometry.of(c.shape(), c.spec());
                long[] in = g.in(), win = g.win(), st = g.st(), dil = g.dil(), lo = g.lo(), outDims = g.outDims();
                long windowSize = g.windowSize(), windows = g.windows();
                int n = (int) c.shape().size();
                MemorySegment x = tiedValues(arena, c.xt(), n, rnd), source = tiedValues(arena, c.t(), (int) windows, rnd);
                MemorySegment init = values(arena, c.t(), 1, rnd);
                MemorySegment sel = arena.allocate(windows * 8, 8), out = arena.allocate((long) n * c.t().byteSize(), 8);
                java.util.function.Function<long[], MemorySegment> struct = v -> arena.allocateFrom(JAVA_LONG, StridedView.padded(v));
                MethodHandle hs = Linker.nativeLinker().downcallHandle(lookup.find(WindowScatterKernels.SELECT_ENTRY + "_" + i).orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_INT, dims, dims, dims, dims, dims, dims, JAVA_LONG));
                MethodHandle ha = Linker.nativeLinker().downcallHandle(lookup.find(WindowScatterKernels.SCATTER_ENTRY + "_" + i).orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_INT, dims, dims, dims, dims, dims, dims, JAVA_LONG));
                java.lang.foreign.StructLayout divs = WindowCheckCases.DIVS, ints = WindowCheckCases.INTS;
                java.lang.foreign.ValueLayout.OfInt i32 = java.lang.foreign.ValueLayout.JAVA_INT;
                MethodHandle hs32 = Linker.nativeLinker().downcallHandle(lookup.find(WindowScatterKernels.SELECT32_ENTRY + "_" + i).orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, i32, i32, divs, divs, divs, ints, ints, ints, i32));
                MethodHandle ha32 = Linker.nativeLinker().downcallHandle(lookup.find(WindowScatterKernels.SCATTER32_ENTRY + "_" + i).orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, ADDRESS, i32, i32, divs, ints, divs, divs, ints, ints, i32));
                java.util.function.Function<long[], MemorySegment> div32 = v -> arena.allocateFrom(i32, FastDivisors.struct(v));
                java.util.function.Function<long[], MemorySegment> int32 = v -> arena.allocateFrom(i32, FastDivisors.ints(v));
                boolean disjoint = WindowScatterKernels.isDisjoint(win, st, dil, windowSize);
                MemorySegment sel32 = arena.allocate(windows * 8, 8), out32 = arena.allocate((long) n * c.t().byteSize(), 8);
                boolean tiled = disjoint, padded = !g.unpadded();
                MemorySegment outTiled = arena.allocate((long) n * c.t().byteSize(), 8);
                try {
                    hs.invokeWithArguments(x, sel, windows, rank, struct.apply(in), struct.apply(outDims), struct.apply(win), struct.apply(st),
                            struct.apply(dil), struct.apply(lo), windowSize);
                    ha.invokeWithArguments(source, init, sel, out, (long) n, rank, struct.apply(in), struct.apply(outDims), struct.apply(win),
                            struct.apply(st), struct.apply(dil), struct.apply(lo), windowSize);
                    if (!g.fits32(n)) throw new IllegalStateException("case too large for 32 bits");
                    hs32.invokeWithArguments(x, sel32, (int) windows, rank, div32.apply(in), div32.apply(outDims), div32.apply(win), int32.apply(st),
                            int32.apply(dil), int32.apply(lo), (int) windowSize);
                    ha32.invokeWithArguments(source, init, sel32, out32, n, rank, div32.apply(in), int32.apply(outDims), div32.apply(win),
                            div32.apply(st), int32.apply(dil), int32.apply(lo), (int) windowSize);
                    if (tiled) {
                        // as CudaWindows: the fill first unless the windows tile the input; a planted byte pattern shows what it missed
                        for (long e = 0; e < outTiled.byteSize(); e++) outTiled.set(java.lang.foreign.ValueLayout.JAVA_BYTE, e, (byte) 0x7f);
                        if (!g.tiles()) {
                            Linker.nativeLinker().downcallHandle(lookup.find(WindowScatterKernels.FILL_ENTRY + "_" + i).orElseThrow(),
                                    FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, i32)).invokeWithArguments(init, outTiled, n);
                        }
                        List<Object> args = new ArrayList<>(List.of(x, source, init, outTiled, (int) windows, rank, div32.apply(outDims),
                                int32.apply(g.windowSteps()), int32.apply(g.positionSteps()), int32.apply(win), (int) windowSize));
                        FunctionDescriptor fd = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, ADDRESS, i32, i32, divs, ints, ints, ints, i32);
                        if (padded) {
                            args.addAll(List.of(int32.apply(st), int32.apply(lo), int32.apply(in), (int) g.loOffset()));
                            fd = fd.appendArgumentLayouts(ints, ints, ints, i32);
                        }
                        Linker.nativeLinker().downcallHandle(lookup.find(WindowScatterKernels.TILED_ENTRY + "_" + i).orElseThrow(), fd)
                                .invokeWithArguments(args);
                    }
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                Buffer bx = cpu.upload(x), bs = cpu.upload(source), bi = cpu.upload(init);
                Buffer expected = cpu.windowScatter(c.op(), new Operand(bx, c.xt(), c.shape()), new Operand(bs, c.t(), Shape.of(outDims)),
                        new Operand(bi, c.t(), Shape.of()), c.spec());
                MemorySegment exp = arena.allocate(expected.byteSize(), 8);
                cpu.download(expected, 0, exp);
                String label = c.op().opName() + ":" + c.xt().shortName() + "->" + c.t().shortName() + " " + c.shape();
                String bad = compare(new Case(label, null, List.of(c.xt()), c.t(), false, null), List.of(x), out, exp, n);
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + label + ": " + bad);
                }
                String bad32 = compare(new Case(label + " (32-bit)", null, List.of(c.xt()), c.t(), false, null), List.of(x), out32, exp, n);
                if (bad32 != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + label + " (32-bit): " + bad32);
                }
                if (tiled) {
                    tiledRun++;
                    if (padded) paddedRun++;
                    String badT = compare(new Case(label + " (per window)", null, List.of(c.xt()), c.t(), false, null), List.of(x), outTiled, exp, n);
                    if (badT != null) {
                        mismatches++;
                        System.out.println("MISMATCH " + label + " (per window): " + badT);
                    }
                }
                for (Buffer b : List.of(bx, bs, bi, expected)) b.release();
            }
        }
        if (tiledRun == 0 || paddedRun == 0) throw new IllegalStateException("no case ran the per-window kernel, or none of its padded form");
        System.out.println(cases.size() + " window scatters run on the host (" + tiledRun + " also per window, " + paddedRun
                + " of them padded), " + mismatches + " mismatches");
        return mismatches;
    }

    /** {@code indexedAdd/Put}: the offsets kernel then the update kernel (structs passed by value, as the engine does), against the cpu engine. */
    private static int indexedUpdates(String cxx) throws Exception {
        record U(DType t, boolean accumulate) {}
        List<U> cases = new ArrayList<>();
        for (DType t : DType.values()) {
            cases.add(new U(t, false));
            if (GatherKernels.adds(t)) cases.add(new U(t, true));
        }
        StringBuilder cpp = new StringBuilder(CudaHostShim.THREAD).append("""
                static inline unsigned long long atomicMin(unsigned long long* a, unsigned long long v) { unsigned long long o = *a; if (v < o) *a = v; return o; }
                """);
        cpp.append("namespace off {\n").append(GatherKernels.offsets(DType.S32)).append("\n}\n");
        for (int i = 0; i < cases.size(); i++) {
            U c = cases.get(i);
            cpp.append("namespace u").append(i).append(" {\n")
                    .append(GatherKernels.update(c.t(), c.accumulate()).replace(GatherKernels.UPDATE_ENTRY, GatherKernels.UPDATE_ENTRY + "_" + i)).append("\n}\n");
        }
        Path dir = tempDir("jburn-hostu");
        Path src = dir.resolve("updates.cpp"), lib = dir.resolve("libupdates.so");
        Files.writeString(src, cpp);
        if (!compile(cxx, src, lib, "indexed updates", "-std=c++17")) return -1;
        java.lang.foreign.StructLayout dims = java.lang.foreign.MemoryLayout.structLayout(java.lang.foreign.MemoryLayout.sequenceLayout(8, JAVA_LONG));
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(23);
        Shape target = Shape.of(5, 3), idxShape = Shape.of(6, 1), updShape = Shape.of(6, 3);
        int[] axes = {0};
        int mismatches = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            MethodHandle offsets = Linker.nativeLinker().downcallHandle(lookup.find(GatherKernels.OFFSETS_ENTRY).orElseThrow(),
                    FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_INT, dims, dims));
            MemorySegment idx = arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_INT, 4, 0, 4, 2, 0, 4);
            MemorySegment off = arena.allocate(6 * 8L, 8), err = arena.allocateFrom(JAVA_LONG, GatherKernels.NO_ERROR);
            try {
                offsets.invokeWithArguments(idx, off, err, 6L, 1, arena.allocateFrom(JAVA_LONG, StridedView.padded(new long[] {5})),
                        arena.allocateFrom(JAVA_LONG, StridedView.padded(new long[] {3})));
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
            if (err.get(JAVA_LONG, 0) != GatherKernels.NO_ERROR) {
                System.out.println("MISMATCH offsets: reported a bad index for valid indices");
                mismatches++;
            }
            for (int i = 0; i < cases.size(); i++) {
                U c = cases.get(i);
                MemorySegment tg = values(arena, c.t(), 15, rnd), up = c.accumulate() ? tiedValues(arena, c.t(), 18, rnd) : values(arena, c.t(), 18, rnd);
                MemorySegment out = arena.allocate(15L * c.t().byteSize(), 8);
                out.copyFrom(tg);
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find(GatherKernels.UPDATE_ENTRY + "_" + i).orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_INT, dims, dims));
                try {
                    h.invokeWithArguments(up, off, out, 6L, 3L, 1, arena.allocateFrom(JAVA_LONG, StridedView.padded(new long[] {3})),
                            arena.allocateFrom(JAVA_LONG, StridedView.padded(new long[] {1})));
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                Buffer bt = cpu.upload(tg), bi = cpu.upload(idx), bu = cpu.upload(up);
                Buffer expected = cpu.indexedUpdate(new Operand(bt, c.t(), target), new Operand(bi, DType.S32, idxShape),
                        new Operand(bu, c.t(), updShape), axes, c.accumulate());
                MemorySegment exp = arena.allocate(expected.byteSize(), 8);
                cpu.download(expected, 0, exp);
                String label = (c.accumulate() ? "indexedAdd:" : "indexedPut:") + c.t().shortName();
                String bad = compare(new Case(label, null, List.of(c.t()), c.t(), false, null), List.of(tg), out, exp, 15);
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + label + ": " + bad);
                }
                for (Buffer b : List.of(bt, bi, bu, expected)) b.release();
            }
        }
        System.out.println(cases.size() + " indexed updates run on the host, " + mismatches + " mismatches");
        return mismatches;
    }

    /** Jit fusion groups (with broadcasts, scalar literals, a trailing reduction) as one kernel each, against the cpu engine running the same function. */
    private static int fused(String cxx) throws Exception {
        record F(String label, java.util.function.Function<List<dev.jburn.Tensor>, List<dev.jburn.Tensor>> fn, List<Shape> shapes) {}
        List<F> fns = List.of(
                new F("a*b+c", xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))), List.of(Shape.of(2, 3), Shape.of(2, 3), Shape.of(2, 3))),
                new F("a[2,3]*b[3]+1", xs -> List.of(xs.get(0).multiply(xs.get(1)).add(1.0)), List.of(Shape.of(2, 3), Shape.of(3))),
                new F("exp(x*0.5+1)*x", xs -> List.of(xs.get(0).multiply(0.5).add(1.0).exp().multiply(xs.get(0))), List.of(Shape.of(4, 5))),
                new F("sum(a*b, 1)", xs -> List.of(xs.get(0).multiply(xs.get(1)).sum(new int[] {1})), List.of(Shape.of(3, 7), Shape.of(3, 7))),
                new F("sum(max(a-b, 0), 0)", xs -> List.of(xs.get(0).subtract(xs.get(1)).maximum(0.0).sum(new int[] {0})),
                        List.of(Shape.of(4, 5), Shape.of(4, 5))),
                new F("a[4,1]-b[5] |> max 0", xs -> List.of(xs.get(0).subtract(xs.get(1)).maximum(0.0)), List.of(Shape.of(4, 1), Shape.of(5))),
                // a rank-0 chain the fusion pass copies into the group (Adam's bias correction): computed per element
                new F("x / (1 - (0t+0.9)^t)", xs -> List.of(xs.get(0).divide(biasCorrection(xs.get(1)))), List.of(Shape.of(4, 5), Shape.scalar())),
                new F("sum(x * (1 - (0t+0.9)^t), 1)", xs -> List.of(xs.get(0).multiply(biasCorrection(xs.get(1))).sum(new int[] {1})),
                        List.of(Shape.of(3, 7), Shape.scalar())));
        Engine cpuEngine = Engine.select("cpu");
        Random rnd = new Random(19);
        int mismatches = 0, run = 0;
        for (F f : fns) {
            List<dev.jburn.Tensor> in = new ArrayList<>();
            for (Shape sh : f.shapes()) {
                float[] v = new float[(int) sh.size()];
                for (int i = 0; i < v.length; i++) v[i] = rnd.nextInt(11) - 5;
                in.add(dev.jburn.Tensor.of(v).reshape(sh).to(cpuEngine));
            }
            dev.jburn.graph.CompiledFunction cf = dev.jburn.graph.Jit.compileList(f.fn());
            float[] expected = cf.apply(in).getFirst().toFloatArray();
            dev.jburn.graph.Graph g = cf.graph();
            List<dev.jburn.graph.Node> groups = g.nodes().stream().filter(nd -> nd.prim() instanceof dev.jburn.graph.Prim.Fused).toList();
            if (groups.size() != 1 || g.nodes().size() != 1) {
                System.out.println("note: fused " + f.label() + " is not one fusion group (the fusion pass's choice), skipped:\n" + g);
                continue;
            }
            dev.jburn.graph.Node node = groups.getFirst();
            GeneratedKernels.Launchable k = GeneratedKernels.prepare(((dev.jburn.graph.Prim.Fused) node.prim()).body()).orElse(null);
            if (k == null) {
                System.out.println("MISMATCH fused " + f.label() + ": no kernel");
                mismatches++;
                continue;
            }
            String entry = k.source().entry();
            StringBuilder cpp = new StringBuilder(k.reduction() ? CudaHostShim.BLOCK : CudaHostShim.THREAD);
            cpp.append(k.source().code());
            String storage = LineKernels.storage(DType.F32);
            StringBuilder params = new StringBuilder(), call = new StringBuilder();
            for (int i = 0; i < node.inputs().size(); i++) {
                params.append("const void* in").append(i).append(", ");
                call.append("(const ").append(storage).append("*)in").append(i).append(", ");
            }
            String invoke = entry + "(" + call + "(" + storage + "*)out, n)";
            cpp.append("extern \"C\" void run(").append(params).append("void* out, unsigned long long n) {\n");
            if (k.reduction()) {
                cpp.append("  jb_run_group([&](unsigned) { ").append(invoke).append("; });\n");
            } else {
                cpp.append("  ").append(invoke).append(";\n");
            }
            cpp.append("}\n");
            Path dir = tempDir("jburn-hostf");
            Path src = dir.resolve("fused.cpp"), lib = dir.resolve("libfused.so");
            Files.writeString(src, cpp);
            if (!compile(cxx, src, lib, "fused " + f.label(), "-std=c++17", "-ffp-contract=off")) return -1;
            try (Arena arena = Arena.ofShared()) {
                SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
                java.lang.foreign.MemoryLayout[] layout = new java.lang.foreign.MemoryLayout[node.inputs().size() + 2];
                List<Object> args = new ArrayList<>();
                for (int i = 0; i < node.inputs().size(); i++) {
                    int gi = g.inputs().indexOf(node.inputs().get(i));
                    layout[i] = ADDRESS;
                    args.add(arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_FLOAT, in.get(gi).toFloatArray()));
                }
                MemorySegment out = arena.allocate((long) k.outputs() * 4, 8);
                layout[node.inputs().size()] = ADDRESS;
                layout[node.inputs().size() + 1] = JAVA_LONG;
                args.add(out);
                args.add(k.outputs());
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find("run").orElseThrow(), FunctionDescriptor.ofVoid(layout));
                try {
                    h.invokeWithArguments(args);
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                float[] got = out.toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT);
                run++;
                if (!java.util.Arrays.equals(got, expected)) {
                    mismatches++;
                    System.out.println("MISMATCH fused " + f.label() + ": kernel " + java.util.Arrays.toString(got) + ", cpu engine " + java.util.Arrays.toString(expected));
                }
                if (k.reduction()) mismatches += divergentBarriers(lookup, "fused " + f.label());
            }
        }
        System.out.println(run + " fused groups run on the host, " + mismatches + " mismatches");
        return mismatches;
    }

    /** {@code 1 - β^t} for β = 0.9 as Adam traces it (β made as {@code 0·t + β}). */
    private static dev.jburn.Tensor biasCorrection(dev.jburn.Tensor t) { return t.multiply(0.0).add(0.9).pow(t).negate().add(1.0); }

    /**
     * Generated reductions over simplified shapes (as {@link GeneratedKernels#reduce} makes them), in each
     * {@link ReductionPlan.Form}: one block emulated with 256 threads, one thread per output (run by the same
     * 256 threads, whose grid-stride loop covers the outputs), and split into 3 parts per output (chunks that
     * do not divide the count evenly, some empty) then finished per thread.
     */
    private static int reductions(String cxx) throws Exception {
        record R(String label, dev.jburn.op.ReduceOp op, DType t, DType out, Shape shape, int[] axes, ReductionPlan plan, long outputs) {}
        List<R> cases = new ArrayList<>();
        Shape[] shapes = {Shape.of(4, 6), Shape.of(3, 4, 5), Shape.of(300), Shape.of(2, 7), Shape.of(5, 2)};
        int[][][] axesFor = {{{1}, {0}}, {{1}, {0, 2}}, {{0}}, {{1}}, {{1}}};
        int parts = 3;
        for (DType t : DType.values()) {
            for (dev.jburn.op.ReduceOp op : List.of(dev.jburn.op.ReduceOp.SUM, dev.jburn.op.ReduceOp.PRODUCT, dev.jburn.op.ReduceOp.REDUCE_MAX,
                    dev.jburn.op.ReduceOp.REDUCE_MIN, dev.jburn.op.ReduceOp.ALL, dev.jburn.op.ReduceOp.ANY)) {
                DType out = op == dev.jburn.op.ReduceOp.ALL || op == dev.jburn.op.ReduceOp.ANY ? DType.PRED : t;
                if (t == DType.PRED && out != DType.PRED) continue;
                if (t == DType.PRED && !GeneratedKernels.reducesPred(op)) continue; // the engine leaves these to the cpu engine
                for (int si = 0; si < shapes.length; si++) {
                    for (int[] axes : axesFor[si]) {
                        dev.jburn.kernels.ReductionShape c = dev.jburn.kernels.ReductionShape.of(shapes[si], axes);
                        dev.jburn.kernels.ReductionKernel rk = dev.jburn.kernels.ReductionKernel.of(op, t, c.shape(), c.axes(), out);
                        if (dev.jburn.kernels.ReductionEmitter.unsupported(rk, Dialect.CUDA, DeviceFeatures.ALL).isPresent()) continue;
                        long outputs = 1;
                        for (int d = 0; d < shapes[si].rank(); d++) {
                            boolean r = false;
                            for (int a : axes) r |= a == d;
                            if (!r) outputs *= shapes[si].dim(d);
                        }
                        String label = op.opName() + ":" + t.shortName() + " " + shapes[si] + " axes " + java.util.Arrays.toString(axes);
                        cases.add(new R(label + " (block)", op, t, out, shapes[si], axes, new ReductionPlan(ReductionPlan.Form.BLOCK, 1,
                                dev.jburn.kernels.ReductionEmitter.emit(rk, Dialect.CUDA, DeviceFeatures.ALL), null), outputs));
                        // The per-thread form shares the identities and combines with the block form (checked for every type
                        // above): a type of each kind keeps the host compile short.
                        if (List.of(DType.F32, DType.F64, DType.BF16, DType.S8, DType.U64, DType.PRED).contains(t)) {
                            cases.add(new R(label + " (thread)", op, t, out, shapes[si], axes, new ReductionPlan(ReductionPlan.Form.THREAD, 1,
                                    dev.jburn.kernels.ReductionEmitter.emitPerThread(rk, Dialect.CUDA, DeviceFeatures.ALL), null), outputs));
                        }
                        if (dev.jburn.kernels.ReductionEmitter.splittable(rk)) {
                            dev.jburn.kernels.ReductionKernel rest = ReductionPlan.finishing(rk, outputs, parts);
                            ReductionPlan finish = new ReductionPlan(ReductionPlan.Form.THREAD, 1,
                                    dev.jburn.kernels.ReductionEmitter.emitPerThread(rest, Dialect.CUDA, DeviceFeatures.ALL), null);
                            cases.add(new R(label + " (split " + parts + ")", op, t, out, shapes[si], axes, new ReductionPlan(ReductionPlan.Form.SPLIT, parts,
                                    dev.jburn.kernels.ReductionEmitter.emitSplit(rk, Dialect.CUDA, DeviceFeatures.ALL, parts), finish), outputs));
                            cases.add(new R(label + " (columns " + parts + ")", op, t, out, shapes[si], axes, new ReductionPlan(ReductionPlan.Form.COLUMNS, parts,
                                    dev.jburn.kernels.ReductionEmitter.emitColumns(rk, Dialect.CUDA, DeviceFeatures.ALL, parts), finish), outputs));
                        }
                    }
                }
            }
        }
        StringBuilder cpp = new StringBuilder(CudaHostShim.BLOCK);
        String entry = dev.jburn.kernels.ReductionEmitter.CUDA_ENTRY;
        for (int i = 0; i < cases.size(); i++) {
            R c = cases.get(i);
            String in = LineKernels.storage(c.t()), o = LineKernels.storage(c.out());
            cpp.append("namespace r").append(i).append(" {\n").append(c.plan().main().code().replace(entry, entry + "_" + i)).append("\n}\n");
            if (c.plan().finish() != null) {
                cpp.append("namespace f").append(i).append(" {\n").append(c.plan().finish().main().code().replace(entry, entry + "_" + i + "f")).append("\n}\n");
            }
            cpp.append("extern \"C\" void run_").append(i).append("(const void* in, void* out, unsigned long long n) {\n");
            String target = c.plan().finish() != null ? "partial.data()" : "(" + o + "*)out";
            String count = c.plan().finish() != null ? "n * " + c.plan().parts() : "n";
            if (c.plan().finish() != null) cpp.append("  std::vector<").append(o).append("> partial(n * ").append(c.plan().parts()).append(");\n");
            cpp.append("  jb_run_group([&](unsigned) { r").append(i).append("::")
                    .append(entry).append("_").append(i).append("((const ").append(in).append("*)in, ").append(target).append(", ").append(count).append("); });\n");
            if (c.plan().finish() != null) {
                cpp.append("  jb_run_group([&](unsigned) { f").append(i).append("::")
                        .append(entry).append("_").append(i).append("f((const ").append(o).append("*)partial.data(), (").append(o).append("*)out, n); });\n");
            }
            cpp.append("}\n");
        }
        Path dir = tempDir("jburn-hostr");
        Path src = dir.resolve("reductions.cpp"), lib = dir.resolve("libreductions.so");
        Files.writeString(src, cpp);
        long t0 = System.nanoTime();
        // -O0: the largest translation unit here (800+ kernels); optimizing it took minutes and buys nothing for tiny inputs.
        if (!compile(cxx, src, lib, "reductions", "-O0", "-std=c++17", "-ffp-contract=off")) return -1;
        System.out.printf("%d reductions compiled on the host in %.1f s%n", cases.size(), (System.nanoTime() - t0) * 1e-9);
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(17);
        int mismatches = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            for (int i = 0; i < cases.size(); i++) {
                R c = cases.get(i);
                int n = (int) c.shape().size();
                // Sums and products of the edge values (±1e30 next to small ones) depend on the order wildly: small values here.
                boolean arithmetic = c.op() == dev.jburn.op.ReduceOp.PRODUCT || c.op() == dev.jburn.op.ReduceOp.SUM;
                MemorySegment in = arithmetic ? tiedValues(arena, c.t(), n, rnd) : values(arena, c.t(), n, rnd);
                Operand x = new Operand(cpu.upload(in), c.t(), c.shape());
                MemorySegment out = arena.allocate(c.outputs() * c.out().byteSize(), 8);
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find("run_" + i).orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG));
                try {
                    h.invokeWithArguments(in, out, c.outputs());
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                Buffer expected = cpu.reduce(c.op(), x, c.axes(), c.out());
                MemorySegment exp = arena.allocate(expected.byteSize(), 8);
                cpu.download(expected, 0, exp);
                boolean reorders = c.t().isFloat() && (c.op() == dev.jburn.op.ReduceOp.SUM || c.op() == dev.jburn.op.ReduceOp.PRODUCT);
                String bad = compare(new Case(c.label(), null, List.of(c.t()), c.out(), reorders, null), List.of(in), out, exp, (int) c.outputs());
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + c.label() + ": " + bad);
                }
                expected.release();
                x.buffer().release();
            }
            mismatches += divergentBarriers(lookup, "reductions");
        }
        System.out.println(cases.size() + " reductions run on the host (256 fibers, barriers), " + mismatches + " mismatches");
        return mismatches;
    }

    /**
     * 1 (printed) when a block run by {@code lookup}'s library had threads that returned while others
     * waited at a barrier (undefined on a GPU; threads with a real barrier would hang), else 0.
     */
    private static int divergentBarriers(SymbolLookup lookup, String what) {
        try {
            MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find("jb_divergent_barrier").orElseThrow(),
                    FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT));
            if ((int) h.invokeExact() == 0) return 0;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        System.out.println("MISMATCH " + what + ": a block's threads did not all reach the same barriers");
        return 1;
    }

    /** A line kernel case: its source and entry, the launch's integer arguments, and the cpu engine's answer. */
    private record LineCase(String label, String source, String entry, DType in, DType out, long[] dims, boolean hasInput,
                            long[] scalars, BiFunction<Backend, Operand, Buffer> oracle) {}

    /** Few distinct values, so ties, NaN and both zeros are common. */
    private static MemorySegment tiedValues(Arena a, DType t, int n, Random r) {
        MemorySegment m = a.allocate((long) n * t.byteSize(), 16);
        double[] fs = {0.0, -0.0, 1, -1, Double.NaN, 2, 2, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.5};
        long[] is = {0, 1, -1, 5, 5, 7, -128, 127, 1000};
        for (int i = 0; i < n; i++) {
            if (t.isFloat()) HostElements.setDouble(m, t, i, fs[r.nextInt(fs.length)]);
            else if (t.isPred()) HostElements.setLong(m, t, i, r.nextInt(2));
            else HostElements.setLong(m, t, i, is[r.nextInt(is.length)]);
        }
        return m;
    }

    /** This module's own line kernels (arg-reductions, scans, iota, rank sort) on the host against the cpu engine. */
    private static int lineKernels(String cxx) throws Exception {
        Shape s = Shape.of(4, 6);
        List<LineCase> cases = new ArrayList<>();
        for (DType t : DType.values()) {
            for (int axis : new int[] {0, 1, -1}) {
                long lines = axis == -1 ? 1 : axis == 0 ? 6 : 4, n = axis == -1 ? 24 : s.dim(axis), inner = axis == 0 ? 6 : 1;
                for (boolean max : new boolean[] {true, false}) {
                    for (boolean high : new boolean[] {false, true}) {
                        dev.jburn.op.ReduceOp op = max ? dev.jburn.op.ReduceOp.ARGMAX : dev.jburn.op.ReduceOp.ARGMIN;
                        cases.add(new LineCase(op.opName() + ":" + t.shortName() + " axis " + axis + (high ? " high" : ""),
                                LineKernels.argReduce(t, DType.S64, max, high), LineKernels.ARG_ENTRY, t, DType.S64, new long[] {lines},
                                true, new long[] {lines, n, inner}, (b, x) -> b.argReduce(op, x, axis, high, DType.S64)));
                    }
                }
                if (axis < 0) continue;
                for (boolean desc : new boolean[] {false, true}) {
                    cases.add(new LineCase("sort:" + t.shortName() + " axis " + axis + (desc ? " desc" : ""), RankSort.source(t, desc, null),
                            RankSort.ENTRY, t, t, new long[] {24}, true, new long[] {24, n, inner}, (b, x) -> b.sort(x, axis, desc)));
                    cases.add(new LineCase("argsort:" + t.shortName() + " axis " + axis + (desc ? " desc" : ""), RankSort.source(t, desc, DType.S32),
                            RankSort.ENTRY, t, DType.S32, new long[] {24}, true, new long[] {24, n, inner}, (b, x) -> b.argsort(x, axis, desc, DType.S32)));
                }
                if (LineKernels.scans(t)) {
                    for (dev.jburn.op.CumulativeOp c : dev.jburn.op.CumulativeOp.values()) {
                        for (boolean rev : new boolean[] {false, true}) {
                            cases.add(new LineCase(c.opName() + ":" + t.shortName() + " axis " + axis + (rev ? " reverse" : ""),
                                    LineKernels.scan(c, t, rev), LineKernels.SCAN_ENTRY, t, t, new long[] {24}, true,
                                    new long[] {lines, n, inner}, (b, x) -> b.cumulative(c, x, axis, rev)));
                        }
                    }
                    long stride = axis == 0 ? 6 : 1;
                    cases.add(new LineCase("iota:" + t.shortName() + " axis " + axis, LineKernels.iota(t), LineKernels.IOTA_ENTRY, t, t,
                            new long[] {24}, false, new long[] {24, stride, s.dim(axis)}, (b, x) -> b.iota(s, t, axis)));
                }
            }
        }
        Path dir = tempDir("jburn-hostl");
        StringBuilder cpp = new StringBuilder(CudaHostShim.THREAD);
        for (int i = 0; i < cases.size(); i++) {
            int k = i;
            String code = java.util.regex.Pattern.compile("\\b(jburn_\\w+)\\b").matcher(cases.get(i).source()).replaceAll(m -> m.group(1) + "_" + k);
            cpp.append("namespace l").append(i).append(" {\n").append(code).append("\n}\n");
        }
        Path src = dir.resolve("lines.cpp"), lib = dir.resolve("liblines.so");
        Files.writeString(src, cpp);
        if (!compile(cxx, src, lib, "line kernels", "-std=c++17", "-ffp-contract=off")) return -1;
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(13);
        int mismatches = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            for (int i = 0; i < cases.size(); i++) {
                LineCase c = cases.get(i);
                MemorySegment in = tiedValues(arena, c.in(), 24, rnd);
                Operand x = new Operand(cpu.upload(in), c.in(), s);
                long outElems = c.label().startsWith("arg") && !c.label().startsWith("argsort") ? c.dims()[0] : 24;
                MemorySegment out = arena.allocate(outElems * c.out().byteSize(), 8);
                List<java.lang.foreign.MemoryLayout> layout = new ArrayList<>();
                List<Object> args = new ArrayList<>();
                if (c.hasInput()) {
                    layout.add(ADDRESS);
                    args.add(in);
                }
                layout.add(ADDRESS);
                args.add(out);
                for (long v : c.scalars()) {
                    layout.add(JAVA_LONG);
                    args.add(v);
                }
                String entry = c.entry() + "_" + i;
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find(entry).orElseThrow(),
                        FunctionDescriptor.ofVoid(layout.toArray(java.lang.foreign.MemoryLayout[]::new)));
                try {
                    h.invokeWithArguments(args);
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                Buffer expected = c.oracle().apply(cpu, x);
                MemorySegment exp = arena.allocate(expected.byteSize(), 8);
                cpu.download(expected, 0, exp);
                Case asCase = new Case(c.label(), null, List.of(c.in()), c.out(), false, null);
                String bad = compare(asCase, List.of(in), out, exp, (int) outElems);
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + c.label() + ": " + bad);
                }
                expected.release();
                x.buffer().release();
            }
        }
        System.out.println(cases.size() + " line kernels run on the host, " + mismatches + " mismatches");
        return mismatches;
    }

    private static java.lang.foreign.MemoryLayout[] descriptor(int inputs) {
        java.lang.foreign.MemoryLayout[] l = new java.lang.foreign.MemoryLayout[inputs + 2];
        for (int i = 0; i <= inputs; i++) l[i] = ADDRESS;
        l[inputs + 1] = JAVA_LONG;
        return l;
    }

    private static KernelSource emit(ElementwiseKernel k) {
        try {
            return Emitter.unsupported(k, Dialect.CUDA, DeviceFeatures.ALL).isPresent() ? null : Emitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Edge cases first, then random values. */
    private static MemorySegment values(Arena a, DType t, int n, Random r) {
        MemorySegment m = a.allocate((long) n * t.byteSize(), 16);
        double[] edges = {0.0, -0.0, 1, -1, 0.5, -2.5, 2.5, 3, -7, 1e-3, 100, 65504, -65504, 1e30, -1e30,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Float.MIN_VALUE, 1e-42, 0.9999, 2.0000001};
        long[] intEdges = {0, 1, -1, 2, -2, 3, 7, 8, 31, 32, 63, 64, 127, 128, 255, 256, 65535, 65536,
                Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFFFFFFL};
        for (int i = 0; i < n; i++) {
            if (t.isFloat()) {
                double v = i < edges.length ? edges[i] : (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(7) - 3);
                HostElements.setDouble(m, t, i, v);
            } else if (t.isPred()) {
                HostElements.setLong(m, t, i, r.nextInt(2));
            } else {
                long v = i < intEdges.length ? intEdges[i] : r.nextLong() >> r.nextInt(64);
                HostElements.setLong(m, t, i, v);
            }
        }
        return m;
    }

    private static String compare(Case c, List<MemorySegment> ins, MemorySegment got, MemorySegment exp, int n) {
        DType t = c.out();
        for (int i = 0; i < n; i++) {
            boolean ok;
            String g, e;
            if (t.isFloat()) {
                double gv = HostElements.getDouble(got, t, i), ev = HostElements.getDouble(exp, t, i);
                g = Double.toString(gv);
                e = Double.toString(ev);
                if (Double.isNaN(gv) || Double.isNaN(ev)) ok = Double.isNaN(gv) && Double.isNaN(ev);
                else if (!c.approximate()) ok = Double.doubleToRawLongBits(gv) == Double.doubleToRawLongBits(ev);
                else {
                    double tol = t == DType.F64 ? 1e-12 : t == DType.F32 ? 1e-5 : 1e-2;
                    ok = gv == ev || Math.abs(gv - ev) <= tol * Math.max(Math.abs(ev), 1e-30)
                            || (Math.abs(ev) < 1e-30 && Math.abs(gv) < 1e-30);
                }
            } else {
                long gv = HostElements.getLong(got, t, i), ev = HostElements.getLong(exp, t, i);
                g = Long.toString(gv);
                e = Long.toString(ev);
                ok = gv == ev;
            }
            if (!ok) {
                StringBuilder in = new StringBuilder();
                for (int k = 0; k < ins.size(); k++) {
                    DType it = c.inputs().get(k);
                    int idx = c.label().endsWith("(b scalar)") && k == 1 ? 0 : i;
                    in.append(k == 0 ? "" : ", ").append(it.isFloat() ? Double.toString(HostElements.getDouble(ins.get(k), it, idx))
                            : Long.toString(HostElements.getLong(ins.get(k), it, idx)));
                }
                return "element " + i + " (" + in + "): kernel " + g + ", cpu engine " + e;
            }
        }
        return null;
    }
}
