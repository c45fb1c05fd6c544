package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Interpreter;
import dev.jburn.kernels.HostFallbackBackend;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * The metal engine's backend: shared-storage buffers from {@link MetalAllocator}, element-wise
 * ops, reductions, transposes, broadcasts and Jit fusion groups as MSL from the shared emitter
 * ({@link MetalKernels}, {@link MetalFusedGroups}), plain f32/f16 matrix products through
 * {@link MetalGemm}, and everything else on the cpu engine through {@link HostFallbackBackend},
 * counted in {@link #fallbackCounts()}. Every operand is checked ({@link MetalChecks}) before any
 * Objective-C call. Submissions are synchronous, so a result is ready when a method returns.
 *
 * <p><b>Never run on Apple hardware:</b> its call sequence is tested on Linux against a fake
 * Objective-C runtime ({@code MetalBackendTest}); {@code MetalOnMacTest} is the first real run.
 *
 * <pre>{@code
 * Engine metal = Engine.select("metal");             // macOS with a Metal GPU
 * Tensor y = Tensor.of(1f, 2f, 3f).to(metal).exp();  // one MSL kernel, compiled once
 * System.out.println(metal.backend().fallbackCounts()); // what ran on the cpu engine instead
 * }</pre>
 */
public final class MetalBackend extends HostFallbackBackend {
    private final MetalDevice gpu;
    private final MetalAllocator allocator;
    private final MetalKernels kernels;
    private final MetalFusedGroups fused;
    private final MetalMovement movement;
    private final MetalIndexing indexing;
    private final MetalWindows windows;
    private final MetalDots dots;
    private final MetalScans scans;
    private final MetalSorts sorts;
    private final MetalConvs convs;
    private final Capabilities capabilities;
    private final MetalFeatures features;
    private volatile boolean closed;

    /** A backend on the default GPU that {@code objc}'s runtime gives ({@link Natives#system()} on a Mac, a fake in tests). */
    MetalBackend(Objc objc) {
        this.gpu = MetalDevice.open(objc);
        this.allocator = new MetalAllocator(gpu);
        try {
            this.features = MetalFeatures.probe(gpu);
        } catch (RuntimeException e) {
            gpu.close();
            throw e;
        }
        this.kernels = new MetalKernels(this, features.kernels());
        this.fused = new MetalFusedGroups(kernels);
        this.movement = new MetalMovement(this, kernels);
        this.indexing = new MetalIndexing(this, kernels);
        this.windows = new MetalWindows(this, kernels);
        this.dots = new MetalDots(this, kernels);
        this.scans = new MetalScans(this, kernels);
        this.sorts = new MetalSorts(this, kernels);
        this.convs = new MetalConvs(this, kernels);
        this.capabilities = new MetalCapabilities(kernels, features);
    }

    @Override public String name() { return MetalProvider.NAME; }

    @Override public Capabilities capabilities() { return capabilities; }

    /** What the GPU offers beyond MSL 2.4 (simdgroup matrices, {@code bfloat}), asked when the engine started. */
    MetalFeatures features() { return features; }

    /** The strided copies (slice, transpose, ...), which other kernels use to lay their operands out. */
    MetalMovement movement() { return movement; }

    /** The GPU's name ({@code "Apple M2"}). */
    public String deviceName() { return gpu.name(); }

    MetalDevice device() {
        requireOpen("metal");
        return gpu;
    }

    // ---- memory -----------------------------------------------------------------------------

    /** A buffer whose contents the caller overwrites whole (a kernel's output). */
    MetalBuffer uninitialized(String op, long byteSize) {
        requireOpen(op);
        if (byteSize < 0) throw new JBurnException(op, "negative size " + byteSize);
        return new MetalBuffer(allocator.allocate(byteSize), byteSize);
    }

    @Override
    public Buffer allocate(long byteSize) {
        MetalBuffer b = uninitialized("allocate", byteSize);
        b.contents().fill((byte) 0); // the allocator hands out reused memory
        return b;
    }

    /** One copy into shared storage (the GPU reads the same memory: no transfer on Apple silicon). */
    @Override
    public Buffer upload(MemorySegment host) {
        if (host == null) throw new JBurnException("upload", "no host segment");
        MetalBuffer b = uninitialized("upload", host.byteSize());
        b.contents().copyFrom(host);
        return b;
    }

    @Override
    public void download(Buffer src, long offset, MemorySegment dst) {
        requireOpen("download");
        if (!(src instanceof MetalBuffer b)) {
            throw new JBurnException("download", "a buffer of another engine (" + (src == null ? "null" : src.getClass().getSimpleName())
                    + ") passed to the metal engine");
        }
        if (offset < 0 || offset > b.byteSize() - dst.byteSize()) {
            throw new JBurnException("download", dst.byteSize() + " bytes at offset " + offset + " of a buffer of " + b.byteSize());
        }
        dst.copyFrom(b.contents().asSlice(offset, dst.byteSize()));
    }

    // ---- element-wise and reductions: MSL from the shared emitter ----------------------------

    @Override
    public Buffer unary(UnaryOp op, Operand x, DType out) {
        MetalChecks.operand(op.opName(), x);
        MetalChecks.unaryResult(op, x.dtype(), out);
        Buffer r = kernels.unary(op, x, out);
        return r != null ? r : super.unary(op, x, out);
    }

    @Override
    public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        List<Operand> in = List.of(a, b);
        MetalChecks.operands(op.opName(), in);
        MetalChecks.sameType(op.opName(), a, b);
        if (out != a.dtype() && out != DType.PRED) {
            throw new JBurnException(op.opName(), "the result is the compute type " + a.dtype().shortName() + " or pred, not " + out.shortName());
        }
        MetalChecks.broadcasts(op.opName(), in, outShape);
        Buffer r = kernels.binary(op, a, b, outShape, out);
        return r != null ? r : super.binary(op, a, b, outShape, out);
    }

    @Override
    public Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        List<Operand> in = List.of(pred, onTrue, onFalse);
        MetalChecks.operands("select", in);
        if (pred.dtype() != DType.PRED) throw new JBurnException("select", "the predicate is pred, not " + pred.dtype().shortName());
        MetalChecks.sameType("select", onTrue, onFalse);
        MetalChecks.broadcasts("select", in, outShape);
        Buffer r = kernels.select(pred, onTrue, onFalse, outShape);
        return r != null ? r : super.select(pred, onTrue, onFalse, outShape);
    }

    @Override
    public Buffer cast(Operand x, DType to) {
        MetalChecks.operand("cast", x);
        Buffer r = kernels.cast(x, to);
        return r != null ? r : super.cast(x, to);
    }

    @Override
    public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) {
        MetalChecks.operand(op.opName(), x);
        MetalChecks.axes(op.opName(), axes, x.shape().rank());
        Buffer r = kernels.reduce(op, x, axes, out);
        return r != null ? r : super.reduce(op, x, axes, out);
    }

    @Override
    public Buffer transpose(Operand x, int[] perm) {
        MetalChecks.operand("transpose", x);
        MetalChecks.permutation("transpose", perm, x.shape().rank());
        Buffer r = kernels.transpose(x, perm);
        if (r == null) r = movement.transpose(x, perm); // what the emitter refuses (f64): bits moved by the strided copy
        return r != null ? r : super.transpose(x, perm);
    }

    @Override
    public Buffer broadcast(Operand x, Shape outShape, int[] axes) {
        MetalChecks.operand("broadcast", x);
        MetalChecks.broadcastAxes("broadcast", x.shape(), outShape, axes);
        Buffer r = kernels.broadcast(x, outShape, axes);
        if (r == null) r = movement.broadcast(x, outShape, axes); // what the emitter refuses (f64): bits moved by the strided copy
        return r != null ? r : super.broadcast(x, outShape, axes);
    }

    // ---- movement and iota: hand-written MSL (MetalMovement) ---------------------------------

    @Override
    public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        MetalChecks.operand("slice", x);
        MetalChecks.slice("slice", x.shape(), starts, lengths, strides);
        Buffer r = movement.slice(x, starts, lengths, strides);
        return r != null ? r : super.slice(x, starts, lengths, strides);
    }

    @Override
    public Buffer putSlice(Operand x, int[] starts, Operand update) {
        MetalChecks.operands("putSlice", List.of(x, update));
        MetalChecks.placed("putSlice", x, starts, update);
        Buffer r = movement.putSlice(x, starts, update);
        return r != null ? r : super.putSlice(x, starts, update);
    }

    @Override
    public Buffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        MetalChecks.operands("pad", List.of(x, padValue));
        MetalChecks.padding("pad", x, padValue, lo, hi, interior);
        Buffer r = movement.pad(x, padValue, lo, hi, interior);
        return r != null ? r : super.pad(x, padValue, lo, hi, interior);
    }

    @Override
    public Buffer reverse(Operand x, int[] axes) {
        MetalChecks.operand("reverse", x);
        MetalChecks.distinctAxes("reverse", axes, x.shape().rank());
        Buffer r = movement.reverse(x, axes);
        return r != null ? r : super.reverse(x, axes);
    }

    @Override
    public Buffer concatenate(List<Operand> parts, int axis) {
        MetalChecks.concatenable("concatenate", parts, axis);
        Buffer r = movement.concatenate(parts, axis);
        return r != null ? r : super.concatenate(parts, axis);
    }

    @Override
    public Buffer iota(Shape shape, DType dtype, int axis) {
        requireOpen("iota");
        MetalChecks.axisOrAll("iota", axis, shape.rank());
        Buffer r = movement.iota(shape, dtype, axis);
        return r != null ? r : super.iota(shape, dtype, axis);
    }

    // ---- indexing and arg-reductions: hand-written MSL (MetalIndexing) ------------------------

    @Override
    public Buffer gather(Operand x, Operand indices, int[] axes) {
        MetalChecks.operands("gather", List.of(x, indices));
        MetalChecks.indices("gather", x.shape(), indices, axes, -1);
        Buffer r = indexing.gather(x, indices, axes);
        return r != null ? r : super.gather(x, indices, axes);
    }

    /** In row order on the GPU (exact sums, the last duplicate write wins); an index out of range gets the cpu engine's error. */
    @Override
    public Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        String op = accumulate ? "indexedAdd" : "indexedPut";
        MetalChecks.operands(op, List.of(target, indices, updates));
        MetalChecks.sameType(op, target, updates);
        MetalChecks.indices(op, target.shape(), indices, axes, 2);
        MetalChecks.updates(op, target.shape(), indices, updates, axes);
        Buffer r = indexing.indexedUpdate(target, indices, updates, axes, accumulate);
        return r != null ? r : super.indexedUpdate(target, indices, updates, axes, accumulate);
    }

    @Override
    public Buffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out) {
        MetalChecks.operand(op.opName(), x);
        MetalChecks.axisOrAll(op.opName(), axis, x.shape().rank());
        Buffer r = indexing.argReduce(op, x, axis, tieBreakHigh, out);
        return r != null ? r : super.argReduce(op, x, axis, tieBreakHigh, out);
    }

    // ---- scans and sorts: hand-written MSL, one thread per line in order (the cpu engine's bits) ----

    /** Inclusive scans on the GPU; PRED and F64 on the cpu engine. */
    @Override
    public Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) {
        MetalChecks.operand(op.opName(), x);
        MetalChecks.axis(op.opName(), axis, x.shape().rank());
        Buffer r = scans.scan(op, x, axis, reverse);
        return r != null ? r : super.cumulative(op, x, axis, reverse);
    }

    @Override
    public Buffer sort(Operand x, int axis, boolean descending) {
        MetalChecks.operand("sort", x);
        MetalChecks.axis("sort", axis, x.shape().rank());
        Buffer r = sorts.sort(x, axis, descending, null);
        return r != null ? r : super.sort(x, axis, descending);
    }

    @Override
    public Buffer argsort(Operand x, int axis, boolean descending, DType indexType) {
        MetalChecks.operand("argsort", x);
        MetalChecks.axis("argsort", axis, x.shape().rank());
        if (!indexType.isInteger()) throw new JBurnException("argsort", "positions are integers, not " + indexType.shortName());
        Buffer r = sorts.sort(x, axis, descending, indexType);
        return r != null ? r : super.argsort(x, axis, descending, indexType);
    }

    // ---- convolution: hand-written MSL (MetalConvs) ---------------------------------------------

    /** Direct convolution on the GPU (f32; f16 and bf16 through f32); f64 and more than six spatial axes on the cpu engine. */
    @Override
    public Buffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        MetalChecks.operands("conv", List.of(input, kernel));
        MetalChecks.conv("conv", input.shape(), kernel.shape(), spec);
        Buffer r = convs.conv(input, kernel, spec, out);
        return r != null ? r : super.conv(input, kernel, spec, out);
    }

    // ---- windows: hand-written MSL (MetalWindows); window reductions are decomposed by the front end ----

    /** Max-pool's gradient on the GPU, the cpu engine's bits; overlapping float windows run on the cpu engine (its sums are in double). */
    @Override
    public Buffer windowScatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        MetalChecks.operands(op.opName(), List.of(x, source, init));
        MetalChecks.windowScatter(op.opName(), x, source, init, spec);
        Buffer r = windows.scatter(op, x, source, init, spec);
        return r != null ? r : super.windowScatter(op, x, source, init, spec);
    }

    /**
     * Interprets the graph, running each Jit fusion group as one MSL kernel ({@link MetalFusedGroups}).
     * Donated inputs are not reused (the interface's default ignores them): every kernel writes a new buffer.
     */
    @Override
    public List<Buffer> execute(Graph graph, List<Operand> inputs) {
        return Interpreter.execute(this, graph, inputs, new boolean[inputs.size()], fused);
    }

    // ---- contraction --------------------------------------------------------------------------

    /**
     * A plain matrix product {@code a[m,k] · b[k,n]} of f32 or f16 through {@code MPSMatrixMultiplication};
     * every other f32, f16 or bf16 dot (batched, contracting other axes, stored transposed) as one batched
     * GEMM on simdgroup matrices ({@link MetalDots}) where the GPU has them, integer dots as a plain exact
     * kernel; the rest (pred, f64, floats on older GPUs) on the cpu engine, counted.
     */
    @Override
    public Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) {
        MetalChecks.operands("dot", List.of(a, b));
        MetalChecks.sameType("dot", a, b);
        if (contractA.length != contractB.length || batchA.length != batchB.length) {
            throw new JBurnException("dot", "contracting " + Arrays.toString(contractA) + " with " + Arrays.toString(contractB)
                    + ", batch " + Arrays.toString(batchA) + " with " + Arrays.toString(batchB) + ": the axis counts differ");
        }
        for (int i = 0; i < contractA.length; i++) {
            if (a.shape().dim(contractA[i]) != b.shape().dim(contractB[i])) {
                throw new JBurnException("dot", "contracted sizes differ: " + a.shape() + " axis " + contractA[i] + " and " + b.shape() + " axis " + contractB[i]);
            }
        }
        boolean plain = a.shape().rank() == 2 && b.shape().rank() == 2 && batchA.length == 0
                && Arrays.equals(contractA, new int[] {1}) && Arrays.equals(contractB, new int[] {0})
                && (a.dtype() == DType.F32 || a.dtype() == DType.F16) && out == a.dtype() && a.size() > 0 && b.size() > 0;
        if (!plain) {
            Buffer r = dots.dot(a, contractA, batchA, b, contractB, batchB, out);
            return r != null ? r : super.dot(a, contractA, batchA, b, contractB, batchB, out);
        }
        long m = a.shape().dim(0), k = a.shape().dim(1), n = b.shape().dim(1);
        MetalBuffer c = uninitialized("dot", out.byteSize(m * n));
        try {
            MetalGemm.multiply(gpu, ((MetalBuffer) a.buffer()).shared(), ((MetalBuffer) b.buffer()).shared(), c.shared(), m, n, k, out);
            return c;
        } catch (RuntimeException e) {
            c.release();
            throw e;
        }
    }

    // ---- lifetime ---------------------------------------------------------------------------

    private void requireOpen(String op) {
        if (closed) throw new JBurnException(op, "the metal engine is closed");
    }

    /** Releases every buffer (those still referenced become unusable), pipeline, the queue and the device. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        allocator.trim();
        gpu.close();
    }
}
