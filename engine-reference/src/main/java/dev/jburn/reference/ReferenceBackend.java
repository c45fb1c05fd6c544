package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.Operand;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.WindowSpec;
import dev.jburn.op.WindowOp;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The CPU engine: scalar oracle kernels for every op, Vector API kernels for the hot ones
 * (chosen by {@link EngineConfig#vectorKernels()}), parallel over the configured threads.
 */
final class ReferenceBackend implements Backend {
    private static final String NOT_BUILT = "is not built yet in the cpu engine";

    private final EngineConfig config;
    private final Parallel parallel;
    private final CoreKernels core;
    private final ElementwiseKernels elementwise;
    private final ReductionKernels reductions;
    private final SortKernels sorting;
    private final MovementKernels movement;
    private final IndexKernels indexing;
    private final DotKernels dots;
    private final LinalgKernels linalg;
    private final ConvKernels convs;
    private final WindowKernels windows;

    private final FusedKernels fused;
    private final ChannelsLastConvs channelsLast;
    private final CanonicalKernelCotangents canonicalKernelCotangents;
    private final ReluGatedScatters reluGated;
    private final ColumnSumSiblings columnSums;
    private final PooledChains pooledChains;
    private final ChainedGroups chainedGroups;

    ReferenceBackend(EngineConfig config) {
        this.config = config;
        this.parallel = new Parallel(config.threads(), config.parallelThreshold());
        this.core = new CoreKernels(parallel);
        this.elementwise = new ElementwiseKernels(parallel, config);
        this.reductions = new ReductionKernels(parallel, config);
        this.sorting = new SortKernels(parallel, config);
        this.movement = new MovementKernels(parallel, config);
        this.indexing = new IndexKernels(parallel, config);
        this.dots = new DotKernels(parallel, config, movement);
        this.linalg = new LinalgKernels(parallel, config);
        this.convs = new ConvKernels(parallel, config);
        this.windows = new WindowKernels(parallel, config);
        this.fused = new FusedKernels(parallel, config, this);
        this.channelsLast = new ChannelsLastConvs(parallel, config.vectorKernels());
        this.canonicalKernelCotangents = new CanonicalKernelCotangents(parallel, config.vectorKernels());
        this.reluGated = new ReluGatedScatters(windows, config.vectorKernels());
        this.columnSums = new ColumnSumSiblings(parallel, config.vectorKernels());
        this.pooledChains = new PooledChains(parallel, config.vectorKernels());
        this.chainedGroups = new ChainedGroups(parallel, fused, config.vectorKernels());
    }

    EngineConfig config() { return config; }

    @Override public String name() { return ReferenceProvider.NAME; }

    @Override public Capabilities capabilities() { return capabilities; }

    /** Every op; leading sums fuse where the vector kernels run them ({@link FusedKernels}' column plans). */
    private final Capabilities capabilities = new Capabilities() {
        @Override public boolean supports(dev.jburn.op.Op op, dev.jburn.DType dtype) { return true; }

        @Override public boolean fusesLeadingSums() { return config.vectorKernels(); }
    };

    @Override public Buffer allocate(long byteSize) { return HostBuffer.zeroed(byteSize); }

    @Override
    public Buffer upload(MemorySegment host) {
        HostBuffer b = HostBuffer.uninitialized(host.byteSize());
        MemorySegment.copy(host, 0, b.segment(), 0, host.byteSize());
        return b;
    }

    @Override
    public void download(Buffer src, long offset, MemorySegment dst) {
        MemorySegment s = HostBuffer.of(src);
        if (offset < 0 || offset + dst.byteSize() > s.byteSize()) {
            throw new JBurnException("download", "range [" + offset + ", " + (offset + dst.byteSize()) + ") outside a buffer of " + s.byteSize() + " bytes");
        }
        MemorySegment.copy(s, offset, dst, 0, dst.byteSize());
    }

    @Override public Buffer unary(UnaryOp op, Operand x, DType out) { return elementwise.unary(op, x, out); }

    @Override public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) { return elementwise.binary(op, a, b, outShape, out); }

    @Override public Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) { return elementwise.select(pred, onTrue, onFalse, outShape); }

    @Override public Buffer cast(Operand x, DType to) { return core.cast(x, to); }

    @Override public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) { return reductions.reduce(op, x, axes, out); }

    @Override public Buffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out) { return reductions.argReduce(op, x, axis, tieBreakHigh, out); }

    @Override public Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) { return reductions.cumulative(op, x, axis, reverse); }

    @Override public Buffer transpose(Operand x, int[] perm) { return movement.transpose(x, perm); }

    @Override public Buffer broadcast(Operand x, Shape outShape, int[] axes) { return core.broadcast(x, outShape, axes); }

    @Override public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) { return movement.slice(x, starts, lengths, strides); }

    @Override public Buffer putSlice(Operand x, int[] starts, Operand update) { return movement.putSlice(x, starts, update); }

    @Override public Buffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) { return movement.pad(x, padValue, lo, hi, interior); }

    @Override public Buffer reverse(Operand x, int[] axes) { return movement.reverse(x, axes); }

    @Override public Buffer concatenate(List<Operand> parts, int axis) { return movement.concatenate(parts, axis); }

    @Override public Buffer gather(Operand x, Operand indices, int[] axes) { return indexing.gather(x, indices, axes); }

    @Override public Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) { return indexing.indexedUpdate(target, indices, updates, axes, accumulate); }

    @Override public Buffer sort(Operand x, int axis, boolean descending) { return sorting.sort(x, axis, descending); }

    @Override public Buffer argsort(Operand x, int axis, boolean descending, DType indexType) { return sorting.argsort(x, axis, descending, indexType); }

    @Override public Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) { return dots.dot(a, contractA, batchA, b, contractB, batchB, out); }

    @Override public Buffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) { return convs.conv(input, kernel, spec, out); }

    @Override public Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec) { return windows.windowReduce(op, x, spec); }

    @Override public Buffer windowScatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) { return windows.windowScatter(op, x, source, init, spec); }

    @Override public Buffer cholesky(Operand a) { return linalg.cholesky(a); }

    @Override public Buffer triangularSolve(Operand a, Operand b, boolean lower, boolean leftSide, boolean transposeA) {
        return linalg.triangularSolve(a, b, lower, leftSide, transposeA);
    }

    @Override public List<Buffer> lu(Operand a) { return linalg.lu(a); }

    @Override public List<Buffer> qr(Operand a, boolean complete) { return linalg.qr(a, complete); }

    @Override public List<Buffer> eigh(Operand a) { return linalg.eigh(a); }

    @Override public List<Buffer> svd(Operand a, boolean fullMatrices) { return linalg.svd(a, fullMatrices); }

    @Override public Buffer iota(Shape shape, DType dtype, int axis) { return core.iota(shape, dtype, axis); }

    /**
     * Interprets the graph, running fused element-wise groups in one blocked pass ({@link FusedKernels}),
     * channels-last convs without their layout transposes ({@link ChannelsLastConvs}), canonical kernel cotangents with one
     * layout copy per operand ({@link CanonicalKernelCotangents}), a max pool's gradient with its
     * ReLU's ({@link ReluGatedScatters}), a pool with the group before it ({@link PooledChains}), column sums that read
     * the same tensor in one pass ({@link ColumnSumSiblings}) and groups with the groups whose results they read
     * ({@link ChainedGroups}): each a rewrite of the graph, cached per graph, whose nodes keep the bits of those they replace.
     */
    @Override
    public List<Buffer> execute(dev.jburn.graph.Graph graph, List<Operand> inputs) {
        return execute(graph, inputs, new boolean[inputs.size()]);
    }

    /** {@link #execute(dev.jburn.graph.Graph, List)}; a fused group may write its output into a donated input. */
    @Override
    public List<Buffer> execute(dev.jburn.graph.Graph graph, List<Operand> inputs, boolean[] donated) {
        dev.jburn.graph.Graph run = canonicalKernelCotangents.rewrite(channelsLast.rewrite(graph));
        run = chainedGroups.rewrite(columnSums.rewrite(pooledChains.rewrite(reluGated.rewrite(run))));
        return dev.jburn.graph.Interpreter.execute(this, run, inputs, donated, this::runNode);
    }

    private List<Buffer> runNode(dev.jburn.graph.Node node, List<Operand> in, List<Boolean> reusable) {
        List<Buffer> out = channelsLast.run(node, in);
        if (out == null) out = canonicalKernelCotangents.run(node, in);
        if (out == null) out = reluGated.run(node, in);
        if (out == null) out = columnSums.run(node, in, reusable);
        if (out == null) out = pooledChains.run(node, in, reusable);
        if (out == null) out = chainedGroups.run(node, in, reusable);
        return out != null ? out : fused.run(node, in, reusable);
    }

    @Override public void close() { parallel.shutdown(); }
}
