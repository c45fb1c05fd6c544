package dev.jburn.metal;

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
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Element-wise kernels (unary, binary, select, cast), movement as strided loads (transpose,
 * broadcast), reductions and Jit fusion bodies on the GPU, as MSL written by the shared emitter
 * ({@link Emitter}, {@link ReductionEmitter}, {@link Dialect#METAL}) and compiled once per source
 * by {@link MetalDevice#pipeline}. Every method returns {@code null} where the dialect cannot
 * express the kernel exactly (F64, {@code expm1}, ...) or the element count passes the kernels'
 * 32-bit indices; the backend then runs it on the cpu engine, counted.
 *
 * <p>Eager element-wise kernels run over the flattened output, so one compiled kernel serves every
 * shape: an operand of the output's size is read at {@code i}, a one-element operand at 0, and any
 * other broadcast operand is first expanded by the broadcast kernel. Reductions, transposes and
 * broadcasts hold their shape in the source (one pipeline per shape).
 */
final class MetalKernels {
    /** Threads per threadgroup: the reductions' tree is written for {@link ReductionEmitter#GROUP}. */
    static final int GROUP = ReductionEmitter.GROUP;
    /** {@code n} is a {@code constant uint&} and the dispatch takes it as a Java int. */
    private static final long MAX_ELEMENTS = Integer.MAX_VALUE;

    private final MetalBackend backend;
    private final DeviceFeatures features;
    /** Kernel IR → its source, or empty where the dialect cannot express it; bounded, as shape-specific kernels keep coming. */
    private final Map<Object, Optional<KernelSource>> sources = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<Object, Optional<KernelSource>> e) { return size() > 4096; }
    });

    MetalKernels(MetalBackend backend, DeviceFeatures features) {
        this.backend = backend;
        this.features = features;
    }

    // ---- what the dialect expresses (also capabilities()) -------------------------------------------

    /** The source of {@code k}, or empty where the dialect cannot express it. */
    Optional<KernelSource> source(ElementwiseKernel k) {
        return sources.computeIfAbsent(k, x -> Emitter.unsupported(k, Dialect.METAL, features).isPresent()
                ? Optional.empty() : Optional.of(Emitter.emit(k, Dialect.METAL, features)));
    }

    /** The source of {@code k}, or empty where the dialect cannot express it. */
    Optional<KernelSource> source(ReductionKernel k) {
        return sources.computeIfAbsent(k, x -> ReductionEmitter.unsupported(k, Dialect.METAL, features).isPresent()
                ? Optional.empty() : Optional.of(ReductionEmitter.emit(k, Dialect.METAL, features)));
    }

    /** Arithmetic on PRED is never sent by the front end (it computes in U8): it keeps the cpu engine's 0/1 results. */
    static boolean predicateArithmetic(BinaryOp op, DType t) {
        return t == DType.PRED && !(op.isComparison() || op.isLogical() || op == BinaryOp.MIN || op == BinaryOp.MAX
                || op == BinaryOp.BITWISE_AND || op == BinaryOp.BITWISE_OR || op == BinaryOp.BITWISE_XOR);
    }

    /** Sums and products of PRED are left to the cpu engine for the same reason. */
    static boolean predicateArithmetic(ReduceOp op, DType t) {
        return t == DType.PRED && (op == ReduceOp.SUM || op == ReduceOp.PRODUCT);
    }

    // ---- eager --------------------------------------------------------------------------------------

    MetalBuffer unary(UnaryOp op, Operand x, DType out) {
        return run(op.opName(), ElementwiseKernel.unary(op, x.dtype(), out, Shape.of(x.size())), List.of(x));
    }

    MetalBuffer cast(Operand x, DType to) {
        return run("cast", ElementwiseKernel.cast(x.dtype(), to, Shape.of(x.size())), List.of(x));
    }

    MetalBuffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        if (predicateArithmetic(op, a.dtype())) return null;
        return flattened(op.opName(), List.of(a, b), outShape,
                s -> ElementwiseKernel.binary(op, a.dtype(), s.get(0), s.get(1), Shape.of(outShape.size()), out));
    }

    MetalBuffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        return flattened("select", List.of(pred, onTrue, onFalse), outShape,
                s -> ElementwiseKernel.select(s.get(0), s.get(1), s.get(2), Shape.of(outShape.size()), onTrue.dtype()));
    }

    MetalBuffer transpose(Operand x, int[] perm) {
        return run("transpose", ElementwiseKernel.transpose(x.dtype(), x.shape(), perm), List.of(x));
    }

    MetalBuffer broadcast(Operand x, Shape outShape, int[] axes) {
        return run("broadcast", ElementwiseKernel.broadcast(x.dtype(), x.shape(), outShape, axes), List.of(x));
    }

    /** One threadgroup per output; an empty input (the identity everywhere) is left to the cpu engine. */
    MetalBuffer reduce(ReduceOp op, Operand x, int[] axes, DType out) {
        if (predicateArithmetic(op, x.dtype()) || x.size() == 0) return null;
        return reduce(op.opName(), ReductionKernel.of(op, x.dtype(), x.shape(), axes, out), List.of(x));
    }

    /**
     * A broadcasting kernel over the flattened output: operands neither full-size nor one element are
     * expanded first (by {@link #broadcast}), and released once the kernel has run.
     */
    private MetalBuffer flattened(String op, List<Operand> in, Shape outShape, java.util.function.Function<List<Shape>, ElementwiseKernel> kernel) {
        long n = outShape.size();
        if (n > MAX_ELEMENTS) return null;
        List<Operand> operands = new ArrayList<>(in.size());
        List<Shape> shapes = new ArrayList<>(in.size());
        try (MetalScratch s = scratch(op)) {
            for (Operand x : in) {
                if (x.size() == n) {
                    operands.add(x);
                    shapes.add(Shape.of(n));
                } else if (x.size() == 1) {
                    operands.add(x);
                    shapes.add(Shape.of());
                } else {
                    int[] axes = new int[x.shape().rank()];
                    for (int i = 0; i < axes.length; i++) axes[i] = i + outShape.rank() - axes.length;
                    MetalBuffer full = s.hold(broadcast(x, outShape, axes));
                    if (full == null) return null;
                    operands.add(new Operand(full, x.dtype(), Shape.of(n)));
                    shapes.add(Shape.of(n));
                }
            }
            return run(op, kernel.apply(shapes), operands);
        }
    }

    // ---- dispatch -----------------------------------------------------------------------------------

    /** An element-wise kernel over {@code inputs}: one thread per output element, in groups of {@link #GROUP}. */
    MetalBuffer run(String op, ElementwiseKernel k, List<Operand> inputs) {
        long n = k.outShape().size();
        if (n > MAX_ELEMENTS) return null;
        Optional<KernelSource> src = source(k);
        if (src.isEmpty()) return null;
        return dispatch(op, src.get(), inputs, n, k.outType(), (n + GROUP - 1) / GROUP);
    }

    /** A reduction over {@code inputs}: one threadgroup of {@link #GROUP} per output; empty inputs decline. */
    MetalBuffer reduce(String op, ReductionKernel k, List<Operand> inputs) {
        long n = k.outShape().size();
        if (n > MAX_ELEMENTS || k.inShape().size() > MAX_ELEMENTS || k.inShape().size() == 0) return null;
        Optional<KernelSource> src = source(k);
        if (src.isEmpty()) return null;
        return dispatch(op, src.get(), inputs, n, k.outType(), n);
    }

    /**
     * Compiles (once) and runs {@code src}; {@code null} when Metal allows this pipeline fewer threads per
     * threadgroup than {@link #GROUP} (the reductions' tree needs all of them): the cpu engine runs it, counted.
     */
    private MetalBuffer dispatch(String op, KernelSource src, List<Operand> inputs, long n, DType outType, long groups) {
        if (n == 0) return backend.uninitialized(op, 0);
        MemorySegment pipeline = pipeline(src);
        if (pipeline == null) return null;
        MetalBuffer out = backend.uninitialized(op, outType.byteSize(n));
        try {
            List<MetalDevice.SharedBuffer> bound = new ArrayList<>(inputs.size() + 1);
            for (Operand x : inputs) bound.add(MetalChecks.operand(op, x).shared());
            bound.add(out.shared());
            backend.device().dispatch(op, pipeline, bound, (int) n, groups, GROUP);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /**
     * {@code src}'s pipeline, compiled once; {@code null} when Metal allows it fewer threads per threadgroup
     * than {@link #GROUP}, which every dispatch of the engine uses (the reductions' tree needs all of them).
     */
    MemorySegment pipeline(KernelSource src) {
        MetalDevice gpu = backend.device();
        MemorySegment pipeline = gpu.pipeline(src);
        return gpu.maxThreads(pipeline) < GROUP ? null : pipeline;
    }

    /** Runs {@code pipeline} over {@code n} threads in groups of {@link #GROUP}, with {@code bound} at buffer indices 0... */
    void launch(String op, MemorySegment pipeline, List<MetalDevice.SharedBuffer> bound, long n) {
        backend.device().dispatch(op, pipeline, bound, (int) n, (n + GROUP - 1) / GROUP, GROUP);
    }

    /**
     * A new output of {@code outBytes} written by a hand-written kernel's {@code pipeline}: {@code inputs}
     * bound at 0.., then a buffer of {@code words} (its shape parameters), then the output, and the count
     * {@code n}; {@code n} threads in groups of {@link #GROUP}, or {@code n} whole groups when {@code perGroup}.
     * The output is released when the dispatch fails.
     */
    MetalBuffer produce(String op, MemorySegment pipeline, List<Operand> inputs, int[] words, long outBytes, long n, boolean perGroup) {
        MetalBuffer out = backend.uninitialized(op, outBytes);
        try (MetalScratch s = scratch(op)) {
            List<MetalDevice.SharedBuffer> bound = new ArrayList<>(inputs.size() + 2);
            for (Operand x : inputs) bound.add(MetalChecks.operand(op, x).shared());
            bound.add(s.parameters(words));
            bound.add(out.shared());
            backend.device().dispatch(op, pipeline, bound, (int) n, perGroup ? n : (n + GROUP - 1) / GROUP, GROUP);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** A scratch scope for {@code op}: buffers it needs while it runs, released together when it ends. */
    MetalScratch scratch(String op) { return new MetalScratch(backend, this, op); }

    /** A buffer holding {@code words}, a hand-written kernel's shape parameters; the caller releases it ({@link MetalScratch#parameters}). */
    MetalBuffer parameters(String op, int[] words) {
        MetalBuffer b = backend.uninitialized(op, 4L * words.length);
        b.contents().copyFrom(MemorySegment.ofArray(words));
        return b;
    }
}
