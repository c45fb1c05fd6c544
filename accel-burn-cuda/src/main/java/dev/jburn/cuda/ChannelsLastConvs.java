package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.ChannelsLastConvGroups;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;

/**
 * Channels-last convolutions in Jit graphs on the GPU. The front end runs every conv in the canonical
 * layout, so a channels-last layer's conv and its gradients trace as transpose → conv → transpose; on
 * the H200 those layout copies and the canonical conv's own pad, gather and output transpose were a
 * third of the small CNN's training step. Before the engine interprets a graph, {@link #rewrite}
 * replaces each such group (ungrouped, 1 to 3 spatial axes, float) with a
 * {@link Prim.Fused} node whose body is the group itself; {@link #run} executes it as one
 * {@link ChannelsLastIm2col} gather straight from the channels-last tensor and one cuBLAS GEMM whose
 * result already is the channels-last output (or, by default ({@code -Djburn.cuda.directConv=false} turns it off) and where the gathered depth
 * is small, as direct kernels that gather tiles of the same view in shared memory: {@link ChannelsLastDirectConv}):
 * <ul>
 *   <li>{@code x [N, s..., C]} → {@code transpose [0, r-1, 1..]} → conv(·, kernel {@code [O, C, k...]}) →
 *       {@code transpose [0, 2.., 1]} (the forward conv and the input cotangent): {@code cols [N·Πo, Πk·C]} ·
 *       kernel as {@code [Πk·C, O]} (a small transpose of the kernel); a transposed stride-1 conv (the input
 *       cotangent of a valid stride-1 conv), whose im2col matrix is the larger one, runs instead as a GEMM on
 *       {@code x} and a col2im sum ({@link ChannelsLastCol2im}; {@link #path} says which);</li>
 *   <li>conv({@code transpose(x, [r-1, 0..])}, {@code transpose(g, [r-1, 0..])}) → {@code transpose [2.., 0, 1]}
 *       (the kernel cotangent, {@code [k..., C, O]}): {@code cols [N·Πwindow, Πk·C]ᵀ · g [N·Πwindow, O]}.</li>
 * </ul>
 * If {@link #run} declines a group at run time, the interpreter runs its body: same results, old speed.
 * (The cpu engine has its own rewrite of the same groups for its own kernels.)
 */
final class ChannelsLastConvs {
    record Plan(Kind kind, ConvSpec spec, DType type) {}

    /** The plan of a body this class made (for tests), or null. */
    Plan plan(Graph body) { return plans.get(body); }

    private final CudaBackend backend;
    private final dev.jburn.graph.GraphRewriteCache rewritten = new dev.jburn.graph.GraphRewriteCache(this::rewriteOnce);
    private final Map<Graph, Plan> plans = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /** Groups run by the direct kernels: forward convs, kernel cotangents (for tests and benches). */
    final java.util.concurrent.atomic.AtomicLong directForwardRuns = new java.util.concurrent.atomic.AtomicLong(),
            directGradientRuns = new java.util.concurrent.atomic.AtomicLong();

    ChannelsLastConvs(CudaBackend backend) { this.backend = backend; }

    /** {@code g} with its channels-last conv groups as fused nodes, or {@code g} itself when it has none. */
    Graph rewrite(Graph g) {
        return rewritten.get(g);
    }

    /** Runs a fused node made by {@link #rewrite}, or returns {@code null} (not ours, or declined). */
    List<Buffer> run(Node node, List<Operand> in) {
        if (!(node.prim() instanceof Prim.Fused f)) return null;
        Plan p = plans.get(f.body());
        if (p == null) return null;
        Shape outShape = node.outputs().getFirst().shape();
        Buffer out = switch (p.kind) {
            case FORWARD -> forward(in.get(0), in.get(1), p.spec, outShape,
                    path(p, in.get(0).shape(), in.get(1).shape(), outShape, backend.config().col2im()));
            case KERNEL_GRADIENT -> kernelGradient(in.get(0), in.get(1), p.spec, outShape);
        };
        return out == null ? null : List.of(out);
    }

    /**
     * One group as a gather and a GEMM: {@code cols} is {@code x}'s im2col view {@code [N, A..., B..., C]}
     * ({@link ChannelsLastIm2col}); the GEMM multiplies it as {@code [rows, depth]} (forward) or
     * {@code [depth, rows]ᵀ} (kernel gradient) by the other operand as {@code [depth, cols]}.
     */
    record Geometry(Kind kind, long[] in, long[] aDims, long[] bDims, long[] mulA, long[] mulB, long[] lo, long[] interior,
                    long rows, long depth, long columns) {
        /** The geometry of a group of {@code kind} on {@code x} and the other operand (the kernel, or the output cotangent). */
        static Geometry of(Kind kind, Shape x, Shape other, ConvSpec spec, Shape outShape) {
            int r = spec.spatialRank();
            long[] in = longs(x), a = new long[r], b = new long[r], interior = new long[r];
            for (int j = 0; j < r; j++) interior[j] = spec.inputDilation()[j] - 1L;
            long[] lo = widen(spec.padLow());
            if (kind == Kind.FORWARD) {
                // A: output positions (times the strides), B: kernel taps (times the kernel dilation)
                for (int j = 0; j < r; j++) {
                    a[j] = outShape.dim(1 + j);
                    b[j] = other.dim(2 + j);
                }
                return new Geometry(kind, in, a, b, widen(spec.strides()), widen(spec.kernelDilation()), lo, interior,
                        x.dim(0) * prod(a), prod(b) * in[r + 1], other.dim(0));
            }
            // A: the cotangent's positions = the conv's window (times its kernel dilation), B: the kernel's taps = its output
            for (int j = 0; j < r; j++) {
                a[j] = other.dim(1 + j);
                b[j] = outShape.dim(j);
            }
            return new Geometry(kind, in, a, b, widen(spec.kernelDilation()), widen(spec.strides()), lo, interior,
                    prod(b) * in[r + 1], x.dim(0) * prod(a), other.dim(r + 1));
        }
    }

    /** How a FORWARD group runs: im2col then a GEMM, or a GEMM then col2im ({@link ChannelsLastCol2im}). */
    enum Path { IM2COL, COL2IM }

    /**
     * The path of a group with inputs {@code x}, {@code w} and output {@code out}: col2im where it is on
     * ({@code -Djburn.cuda.col2im=false} turns it off, for comparisons) and {@link ChannelsLastCol2im#takes} the
     * group, else im2col.
     */
    static Path path(Plan p, Shape x, Shape w, Shape out, boolean col2im) {
        return col2im && p.kind == Kind.FORWARD && ChannelsLastCol2im.takes(x, w, p.spec, p.type, out) ? Path.COL2IM : Path.IM2COL;
    }

    /** A FORWARD group by {@code path} (also called by {@code Col2imBench}, which times both paths). */
    Buffer forward(Operand x, Operand w, ConvSpec spec, Shape outShape, Path path) {
        return path == Path.COL2IM ? forwardCol2im(x, w, spec, outShape) : forwardIm2col(x, w, spec, outShape);
    }

    /**
     * {@code x [N, u..., Ci]}, {@code w [Co, Ci, k...]}: {@code cols = x as [N·Πu, Ci] · w as [Ci, Πk·Co]} (a small
     * transpose of the kernel), then each output element sums its taps' cols ({@link ChannelsLastCol2im}).
     */
    private Buffer forwardCol2im(Operand x, Operand w, ConvSpec spec, Shape outShape) {
        ChannelsLastCol2im.Geometry geo = ChannelsLastCol2im.Geometry.of(x.shape(), w.shape(), spec, outShape);
        if (geo == null) return null;
        int r = spec.spatialRank();
        int[] perm = new int[r + 2];
        for (int j = 0; j <= r; j++) perm[j] = j + 1;
        Buffer wt = null, cols = null;
        try {
            wt = backend.transpose(w, perm);
            long ci = x.shape().dim(r + 1);
            cols = backend.dot(new Operand(x.buffer(), x.dtype(), Shape.of(geo.rows(), ci)), new int[] {1}, new int[0],
                    new Operand(wt, x.dtype(), Shape.of(ci, geo.columns())), new int[] {0}, new int[0], x.dtype());
            return col2im(cols, x.dtype(), geo);
        } finally {
            // Stream order makes releasing the temporaries safe before the kernels have run (see CachingAllocator).
            if (cols != null) cols.release();
            if (wt != null) wt.release();
        }
    }

    private Buffer col2im(Buffer cols, DType type, ChannelsLastCol2im.Geometry geo) {
        return launch(ChannelsLastCol2im.SOURCE, ChannelsLastCol2im.entry(type, geo.u().length), ((CudaBuffer) cols).pointer(), geo.size(),
                type.byteSize(), a -> a.ints(FastDivisors.struct(geo.out())).ints(FastDivisors.ints(geo.u())).ints(FastDivisors.ints(geo.k()))
                        .ints(FastDivisors.ints(geo.lo())).ints(FastDivisors.ints(geo.uStep())).ints(FastDivisors.ints(geo.tStep()))
                        .i32((int) geo.batchStep()));
    }

    /**
     * A new buffer of {@code n} elements of {@code bytes} bytes written by one launch of {@code entry} (a grid-stride
     * kernel taking its input, its output, {@code n} and then what {@code rest} adds).
     */
    private Buffer launch(String source, String entry, long input, long n, int bytes, java.util.function.UnaryOperator<KernelArgs> rest) {
        try (var _ = backend.device().enter(); Arena arena = Arena.ofConfined()) {
            CudaBuffer out = backend.newBuffer(n * bytes, "conv");
            try {
                backend.launch(source, entry, StridedCopy.blocks(n), ChannelsLastIm2col.THREADS, 0,
                        rest.apply(new KernelArgs(arena).pointer(input).pointer(out.pointer()).i32((int) n)), "conv");
            } catch (RuntimeException e) {
                out.release();
                throw e;
            }
            return out;
        }
    }

    /** {@code x [N, s..., C]}, {@code w [O, C, k...]}: {@code cols [N·Πo, Πk·C] · w as [Πk·C, O]} = {@code [N, o..., O]}. */
    private Buffer forwardIm2col(Operand x, Operand w, ConvSpec spec, Shape outShape) {
        Geometry geo = Geometry.of(Kind.FORWARD, x.shape(), w.shape(), spec, outShape);
        int r = spec.spatialRank();
        int[] perm = new int[r + 2];
        for (int j = 0; j < r; j++) perm[j] = 2 + j;
        perm[r] = 1;
        perm[r + 1] = 0;
        long[] directDims = directView(geo, x.dtype());
        if (directDims != null) {
            directForwardRuns.incrementAndGet();
            return forwardDirect(x, w, perm, geo, directDims);
        }
        Buffer cols = im2col(x, geo);
        if (cols == null) return null;
        Buffer wt = null;
        try {
            wt = backend.transpose(w, perm);
            return backend.dot(new Operand(cols, x.dtype(), Shape.of(geo.rows(), geo.depth())), new int[] {1}, new int[0],
                    new Operand(wt, x.dtype(), Shape.of(geo.depth(), geo.columns())), new int[] {0}, new int[0], x.dtype());
        } finally {
            // Stream order makes releasing the temporaries safe before the GEMM has run (see CachingAllocator).
            cols.release();
            if (wt != null) wt.release();
        }
    }

    /**
     * The kernel cotangent: {@code x [N, s..., C]}, {@code g [N, a..., O]} (the conv's window is {@code a}, its
     * output the kernel's taps {@code o}): {@code cols [N·Πa, Πo·C]ᵀ · g [N·Πa, O]} = {@code [o..., C, O]}.
     * (Also called by {@code DirectConvBench}.)
     */
    Buffer kernelGradient(Operand x, Operand g, ConvSpec spec, Shape outShape) {
        Geometry geo = Geometry.of(Kind.KERNEL_GRADIENT, x.shape(), g.shape(), spec, outShape);
        long[] directDims = directView(geo, x.dtype());
        if (directDims != null) {
            directGradientRuns.incrementAndGet();
            return kernelGradientDirect(x, g, geo, directDims);
        }
        Buffer cols = im2col(x, geo);
        if (cols == null) return null;
        try {
            return backend.dot(new Operand(cols, x.dtype(), Shape.of(geo.depth(), geo.rows())), new int[] {0}, new int[0],
                    new Operand(g.buffer(), g.dtype(), Shape.of(geo.depth(), geo.columns())), new int[] {0}, new int[0], x.dtype());
        } finally {
            cols.release();
        }
    }

    /** Overrides {@link CudaConfig#directConv} when set (tests run the direct kernels whatever the setting). */
    volatile Boolean directOverride;
    /** The largest forward depth run by the direct kernels ({@code DirectConvBench} raises it to time deeper convs). */
    volatile int directForwardDepth = ChannelsLastDirectConv.MAX_FORWARD_DEPTH;

    /**
     * The im2col view's dims when {@code geo} runs as a direct kernel ({@link ChannelsLastDirectConv}) where the engine
     * allows it, else null.
     */
    private long[] directView(Geometry geo, DType type) {
        Boolean on = directOverride;
        if (!(on != null ? on : backend.config().directConv())
                || !ChannelsLastDirectConv.takes(geo.kind(), type, geo.rows(), geo.depth(), geo.columns(), directForwardDepth)) return null;
        return ChannelsLastIm2col.viewDims(geo.in(), geo.aDims(), geo.bDims());
    }

    /** {@code out [rows, O] = cols [rows, depth] · w as [depth, O]}, the cols tiles gathered in shared memory. */
    private Buffer forwardDirect(Operand x, Operand w, int[] perm, Geometry geo, long[] dims) {
        int es = x.dtype().byteSize();
        Buffer wt = backend.transpose(w, perm);
        try (var _ = backend.device().enter(); Arena arena = Arena.ofConfined()) {
            CudaBuffer out = backend.newBuffer(geo.rows() * geo.columns() * es, "conv");
            try {
                int depth = (int) geo.depth(), outs = (int) geo.columns();
                KernelArgs args = new KernelArgs(arena).pointer(CudaBackend.ptr(x)).pointer(((CudaBuffer) wt).pointer()).pointer(out.pointer())
                        .i32((int) geo.rows()).i32(depth).i32(outs).i32(ChannelsLastDirectConv.forwardLanes(x.dtype(), depth, outs))
                        .i32(ChannelsLastDirectConv.forwardChunk(depth, outs));
                backend.launch(ChannelsLastDirectConv.SOURCE, ChannelsLastDirectConv.forwardEntry(x.dtype(), geo.aDims().length),
                        ChannelsLastDirectConv.forwardBlocks(x.dtype(), geo.rows(), depth, outs), ChannelsLastDirectConv.THREADS, 0,
                        view(args, geo, dims), "conv");
            } catch (RuntimeException e) {
                out.release();
                throw e;
            }
            return out;
        } finally {
            // Stream order makes releasing the temporary safe before the kernel has run (see CachingAllocator).
            wt.release();
        }
    }

    /**
     * The kernel cotangent {@code [rows, O] = cols [depth, rows]ᵀ · g [depth, O]}: partial sums per chunk of positions,
     * then one kernel adding them.
     */
    private Buffer kernelGradientDirect(Operand x, Operand g, Geometry geo, long[] dims) {
        DType type = x.dtype();
        int es = type.byteSize();
        int rows = (int) geo.rows(), outs = (int) geo.columns();
        long chunk = ChannelsLastDirectConv.chunk(type, geo.depth(), rows), chunks = ChannelsLastDirectConv.chunks(type, geo.depth(), rows);
        long total = geo.rows() * geo.columns();
        try (var _ = backend.device().enter(); Arena arena = Arena.ofConfined()) {
            CudaBuffer partial = backend.newBuffer(chunks * total * es, "conv");
            CudaBuffer out = null;
            try {
                KernelArgs args = new KernelArgs(arena).pointer(CudaBackend.ptr(x)).pointer(CudaBackend.ptr(g)).pointer(partial.pointer())
                        .i32((int) geo.depth()).i32(rows).i32(outs).i32((int) chunk).i32((int) chunks)
                        .i32(ChannelsLastDirectConv.gradientTile(type, rows)).i32(ChannelsLastDirectConv.gradientLanes(outs));
                backend.launch(ChannelsLastDirectConv.SOURCE, ChannelsLastDirectConv.gradientEntry(type, geo.aDims().length), (int) chunks,
                        ChannelsLastDirectConv.THREADS, 0, view(args, geo, dims), "conv");
                out = backend.newBuffer(total * es, "conv");
                backend.launch(ChannelsLastDirectConv.SOURCE, ChannelsLastDirectConv.sumEntry(type), (int) total, ChannelsLastDirectConv.THREADS, 0,
                        new KernelArgs(arena).pointer(partial.pointer()).pointer(out.pointer()).i32((int) total).i32((int) chunks), "conv");
                return out;
            } catch (RuntimeException e) {
                if (out != null) out.release();
                throw e;
            } finally {
                // Stream order makes releasing the partial sums safe before the kernels have run (see CachingAllocator).
                partial.release();
            }
        }
    }

    /** The im2col view's arguments after a kernel's own (as {@link #im2col} passes them, without the rank). */
    private static KernelArgs view(KernelArgs args, Geometry geo, long[] dims) {
        long[] gaps = new long[geo.interior().length];
        for (int j = 0; j < gaps.length; j++) gaps[j] = geo.interior()[j] + 1;
        return args.ints(FastDivisors.struct(dims)).ints(FastDivisors.ints(geo.in())).ints(FastDivisors.ints(geo.mulA()))
                .ints(FastDivisors.ints(geo.mulB())).ints(FastDivisors.ints(geo.lo())).ints(FastDivisors.struct(gaps));
    }

    /** The gather of {@code [N, A..., B..., C]}, or null where the kernel does not take it. */
    private Buffer im2col(Operand x, Geometry geo) {
        long[] dims = ChannelsLastIm2col.viewDims(geo.in(), geo.aDims(), geo.bDims());
        if (dims == null) return null;
        long n = 1;
        for (long d : dims) n *= d;
        if (n == 0) return null;
        int es = x.dtype().byteSize(), r = geo.aDims().length;
        return launch(ChannelsLastIm2col.SOURCE, ChannelsLastIm2col.entry(es, r), CudaBackend.ptr(x), n, es, a -> view(a.i32(r), geo, dims));
    }

    private static long[] longs(Shape s) { return widen(s.dims()); }

    static long[] widen(int[] v) {
        long[] w = new long[v.length];
        for (int i = 0; i < v.length; i++) w[i] = v[i];
        return w;
    }

    static long prod(long[] v) {
        long p = 1;
        for (long d : v) p *= d;
        return p;
    }

    /** Whether the GPU path takes a conv of {@code spec} producing {@code out}. */
    static boolean applies(ConvSpec spec, DType out) {
        if (!out.isFloat() || spec.featureGroups() != 1 || spec.batchGroups() != 1) return false;
        int r = spec.spatialRank();
        // Negative padding (an input cotangent's crop) needs nothing more: the gather's bounds check drops what it cuts.
        return r >= 1 && r <= ChannelsLastIm2col.MAX_SPATIAL;
    }

    private Graph rewriteOnce(Graph g) {
        ChannelsLastConvGroups.Index idx = ChannelsLastConvGroups.index(g);
        List<ChannelsLastConvGroups.Group> groups = ChannelsLastConvGroups.find(g, idx,
                n -> n.prim() instanceof Prim.Conv c && applies(c.spec(), c.out()));
        return ChannelsLastConvGroups.fuse(g, groups, (body, gr) -> plans.put(body, new Plan(gr.kind(), gr.prim().spec(), gr.prim().out())));
    }
}
