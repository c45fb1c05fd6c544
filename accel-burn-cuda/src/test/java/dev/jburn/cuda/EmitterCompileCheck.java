package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.kernels.KernelSource;
import dev.jburn.kernels.ReductionEmitter;
import dev.jburn.kernels.ReductionKernel;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Compiles, with NVRTC on the GPU machine, every eager kernel the emitter writes (unary, binary,
 * select, cast, reductions, for every dtype), in parallel, and prints which ones NVRTC rejects with
 * the first lines of its log. The CUBINs go into the disk cache ({@code -Djburn.cuda.cacheDir}) under
 * the keys the engine uses, so a test run afterwards starts warm.
 *
 * <p>Usage: {@code java ... dev.jburn.cuda.EmitterCompileCheck}; without a GPU, with NVRTC alone:
 * {@code java [-Donly=window] ... dev.jburn.cuda.EmitterCompileCheck --nvrtc libnvrtc.so.11.2 90} ({@code -Donly}: the
 * kernels whose names contain it).
 */
public final class EmitterCompileCheck {
    private EmitterCompileCheck() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("dump")) {
            dump(Path.of(args[1]));
            return;
        }
        Nvrtc nvrtc;
        int major, minor;
        Path dir;
        if (args.length == 3 && args[0].equals("--nvrtc")) {
            // no GPU: NVRTC alone (e.g. Debian's libnvrtc11.2 from non-free) compiling for the architecture given
            nvrtc = Nvrtc.load(List.of(args[1]));
            major = Integer.parseInt(args[2]) / 10;
            minor = Integer.parseInt(args[2]) % 10;
            dir = null;
        } else {
            CudaLibraries libs = CudaAvailability.libraries();
            CudaDriver d = libs.driver();
            int dev = d.device(CudaConfig.fromSystemProperties().device());
            major = d.attribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MAJOR, dev);
            minor = d.attribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MINOR, dev);
            nvrtc = libs.nvrtc();
            dir = CudaConfig.fromSystemProperties().cacheDir();
        }
        List<String> options = NvrtcOptions.forDevice(major, minor);
        String version = nvrtc.version(), arch = "sm_" + major + minor;
        String only = System.getProperty("only");

        Map<String, Supplier<KernelSource>> kernels = allKernels();
        Map<String, String> failures = new ConcurrentSkipListMap<>();
        AtomicInteger compiled = new AtomicInteger(), skipped = new AtomicInteger();
        long t0 = System.nanoTime();
        List<Map.Entry<String, Supplier<KernelSource>>> work = new ArrayList<>(kernels.entrySet());
        if (only != null) work.removeIf(e -> !e.getKey().contains(only));
        work.parallelStream().forEach(e -> {
            KernelSource src;
            try {
                src = e.getValue().get();
            } catch (RuntimeException ex) {
                failures.put(e.getKey(), "emitter threw " + ex);
                return;
            }
            if (src == null) {
                skipped.incrementAndGet();
                return;
            }
            try {
                byte[] cubin = nvrtc.compileToCubin(src.code(), src.entry() + ".cu", options, "check");
                compiled.incrementAndGet();
                if (dir != null) {
                    Files.createDirectories(dir);
                    Files.write(dir.resolve(NvrtcOptions.cacheKey(src.code(), options, version, arch) + ".cubin"), cubin);
                }
            } catch (Exception ex) {
                String msg = ex.getMessage() == null ? ex.toString() : ex.getMessage();
                failures.put(e.getKey(), msg.lines().limit(6).reduce((a, b) -> a + "\n      " + b).orElse(msg));
            }
        });
        System.out.printf("emitter compile check: %d kernels compiled, %d not emitted (unsupported), %d failed, %.1f s%n",
                compiled.get(), skipped.get(), failures.size(), (System.nanoTime() - t0) * 1e-9);
        failures.forEach((k, v) -> System.out.println("  FAIL " + k + ": " + v));
    }

    /** Every kernel source the engine can generate (for one representative shape per eager family), by name. */
    static Map<String, Supplier<KernelSource>> allKernels() {
        Map<String, Supplier<KernelSource>> kernels = new java.util.LinkedHashMap<>();
        Shape flat = Shape.of(1024), scalar = Shape.of();
        for (DType t : DType.values()) {
            for (UnaryOp u : UnaryOp.values()) {
                DType out;
                try { out = u.resultType(t); } catch (RuntimeException e) { continue; }
                kernels.put("unary " + u.opName() + ":" + t.shortName(), () -> elementwise(ElementwiseKernel.unary(u, t, out, flat)));
            }
            for (BinaryOp b : BinaryOp.values()) {
                DType out = b.resultType(t);
                kernels.put("binary " + b.opName() + ":" + t.shortName(), () -> elementwise(ElementwiseKernel.binary(b, t, flat, flat, flat, out)));
                kernels.put("binary " + b.opName() + ":" + t.shortName() + " (scalar b)", () -> elementwise(ElementwiseKernel.binary(b, t, flat, scalar, flat, out)));
            }
            kernels.put("select:" + t.shortName(), () -> elementwise(ElementwiseKernel.select(flat, flat, flat, flat, t)));
            for (DType to : DType.values()) {
                kernels.put("cast " + t.shortName() + "->" + to.shortName(), () -> elementwise(ElementwiseKernel.cast(t, to, flat)));
            }
            for (ReduceOp r : List.of(ReduceOp.SUM, ReduceOp.PRODUCT, ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN, ReduceOp.ALL, ReduceOp.ANY)) {
                DType out = r == ReduceOp.ALL || r == ReduceOp.ANY ? DType.PRED : t;
                kernels.put("reduce " + r.opName() + ":" + t.shortName(), () -> reduction(ReductionKernel.of(r, t, Shape.of(1, 1024), new int[] {1}, out)));
                kernels.put("reduce per thread " + r.opName() + ":" + t.shortName(),
                        () -> ReductionEmitter.emitPerThread(ReductionKernel.of(r, t, Shape.of(1000, 4), new int[] {1}, out), Dialect.CUDA, DeviceFeatures.ALL));
                ReductionKernel big = ReductionKernel.of(r, t, Shape.of(100_352, 32), new int[] {0}, out);
                if (ReductionEmitter.splittable(big)) {
                    kernels.put("reduce split " + r.opName() + ":" + t.shortName(), () -> ReductionEmitter.emitSplit(big, Dialect.CUDA, DeviceFeatures.ALL, 25));
                    kernels.put("reduce columns " + r.opName() + ":" + t.shortName(), () -> ReductionEmitter.emitColumns(big, Dialect.CUDA, DeviceFeatures.ALL, 2048));
                }
            }
        }
        // This engine's own kernels too (movement, arg-reductions, scans, iota).
        kernels.put("gather copy", () -> new KernelSource(GatherKernels.copyEntry(4), GatherKernels.COPY, List.of(), DType.F32));
        kernels.put("strided copy/scatter", () -> new KernelSource(StridedCopy.entry(4), StridedCopy.SOURCE, List.of(), DType.F32));
        for (DType t : List.of(DType.F32, DType.F64)) {
            kernels.put("col2im nhwc:" + t.shortName(), () -> new KernelSource(ChannelsLastCol2im.entry(t, 2), ChannelsLastCol2im.SOURCE, List.of(), t));
            kernels.put("direct conv nhwc:" + t.shortName(), () -> new KernelSource(ChannelsLastDirectConv.forwardEntry(t, 2), ChannelsLastDirectConv.SOURCE,
                    List.of(), t));
        }
        kernels.put("im2col nhwc", () -> new KernelSource(ChannelsLastIm2col.entry(4, 2), ChannelsLastIm2col.SOURCE, List.of(), DType.F32));
        kernels.put("split-k sum", () -> new KernelSource(SplitK.sumEntry(GemmArgs.Precision.F32), SplitK.SOURCE, List.of(), DType.F32));
        for (DType t : DType.values()) {
            if (GatherKernels.indexType(t)) {
                kernels.put("gather offsets:" + t.shortName(), () -> new KernelSource(GatherKernels.OFFSETS_ENTRY, GatherKernels.offsets(t), List.of(), DType.S64));
            }
            kernels.put("indexedPut:" + t.shortName(), () -> new KernelSource(GatherKernels.UPDATE_ENTRY, GatherKernels.update(t, false), List.of(), t));
            if (GatherKernels.adds(t)) {
                kernels.put("indexedAdd:" + t.shortName(), () -> new KernelSource(GatherKernels.UPDATE_ENTRY, GatherKernels.update(t, true), List.of(), t));
            }
            kernels.put("windowSelect:" + t.shortName(), () -> new KernelSource(WindowScatterKernels.SELECT_ENTRY, WindowScatterKernels.select(t, true), List.of(), DType.S64));
            kernels.put("windowSelect32:" + t.shortName(), () -> new KernelSource(WindowScatterKernels.SELECT32_ENTRY, WindowScatterKernels.select32(t, true), List.of(), DType.S64));
            if (WindowScatterKernels.covers(t)) {
                kernels.put("windowScatter32:" + t.shortName(), () -> new KernelSource(WindowScatterKernels.SCATTER32_ENTRY, WindowScatterKernels.scatter32(t), List.of(), t));
            }
            if (WindowExtremeKernels.covers(t)) {
                kernels.put("windowExtreme max:" + t.shortName(), () -> new KernelSource(WindowExtremeKernels.ENTRY, WindowExtremeKernels.source(t, true), List.of(), t));
                kernels.put("windowExtreme min:" + t.shortName(), () -> new KernelSource(WindowExtremeKernels.ENTRY, WindowExtremeKernels.source(t, false), List.of(), t));
                kernels.put("windowExtremeUnpadded max:" + t.shortName(), () -> new KernelSource(WindowExtremeKernels.UNPADDED_ENTRY, WindowExtremeKernels.unpadded(t, true), List.of(), t));
                kernels.put("windowExtremeUnpadded min:" + t.shortName(), () -> new KernelSource(WindowExtremeKernels.UNPADDED_ENTRY, WindowExtremeKernels.unpadded(t, false), List.of(), t));
            }
            if (WindowScatterKernels.covers(t)) {
                kernels.put("windowScatterTiled:" + t.shortName(), () -> new KernelSource(WindowScatterKernels.TILED_ENTRY, WindowScatterKernels.tiled(t, t, false, false), List.of(), t));
                kernels.put("windowScatterTiledPadded:" + t.shortName(), () -> new KernelSource(WindowScatterKernels.TILED_ENTRY, WindowScatterKernels.tiled(t, t, true, true), List.of(), t));
                kernels.put("windowFill:" + t.shortName(), () -> new KernelSource(WindowScatterKernels.FILL_ENTRY, WindowScatterKernels.fill(t), List.of(), t));
                kernels.put("windowScatter:" + t.shortName(), () -> new KernelSource(WindowScatterKernels.SCATTER_ENTRY, WindowScatterKernels.scatter(t), List.of(), t));
            }
            kernels.put("sort:" + t.shortName(), () -> new KernelSource(RankSort.ENTRY, RankSort.source(t, true, null), List.of(), t));
            kernels.put("argsort:" + t.shortName(), () -> new KernelSource(RankSort.ENTRY, RankSort.source(t, false, DType.S64), List.of(), DType.S64));
            kernels.put("argmax:" + t.shortName(), () -> new KernelSource(LineKernels.ARG_ENTRY, LineKernels.argReduce(t, DType.S64, true, false), List.of(), DType.S64));
            if (LineKernels.scans(t)) {
                for (CumulativeOp c : CumulativeOp.values()) {
                    kernels.put(c.opName() + ":" + t.shortName(), () -> new KernelSource(LineKernels.SCAN_ENTRY, LineKernels.scan(c, t, false), List.of(), t));
                }
                kernels.put("iota:" + t.shortName(), () -> new KernelSource(LineKernels.IOTA_ENTRY, LineKernels.iota(t), List.of(), t));
            }
        }
        return kernels;
    }

    /** {@code dump DIR}: writes each source to {@code DIR/NNNN.cu} plus an index, for compiling with nvcc where there is no GPU. */
    static void dump(Path dir) throws java.io.IOException {
        Files.createDirectories(dir);
        StringBuilder index = new StringBuilder();
        int i = 0;
        for (Map.Entry<String, Supplier<KernelSource>> e : allKernels().entrySet()) {
            KernelSource src;
            try {
                src = e.getValue().get();
            } catch (RuntimeException ex) {
                index.append("EMITTER-THREW\t").append(e.getKey()).append('\t').append(ex).append('\n');
                continue;
            }
            if (src == null) continue;
            String name = String.format("%04d", i++);
            Files.writeString(dir.resolve(name + ".cu"), src.code());
            index.append(name).append('\t').append(src.entry()).append('\t').append(e.getKey()).append('\n');
        }
        Files.writeString(dir.resolve("index.tsv"), index.toString());
        System.out.println(i + " kernel sources written to " + dir);
    }

    private static KernelSource elementwise(ElementwiseKernel k) {
        return Emitter.unsupported(k, Dialect.CUDA, DeviceFeatures.ALL).isPresent() ? null : Emitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL);
    }

    private static KernelSource reduction(ReductionKernel k) {
        return ReductionEmitter.unsupported(k, Dialect.CUDA, DeviceFeatures.ALL).isPresent() ? null : ReductionEmitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL);
    }
}
