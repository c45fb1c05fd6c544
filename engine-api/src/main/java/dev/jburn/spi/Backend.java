package dev.jburn.spi;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The primitive kernels an engine implements. The front end ({@code Tensor}) has already
 * validated shapes, dtypes and axes, promoted operands to one compute type, and normalized
 * every axis to {@code [0, rank)}; a backend only computes. Composite ops (softmax, mean,
 * take, top-k, clip, random numbers, ...) are built from these in {@code engine-api}.
 *
 * <p>Every method returns a new buffer holding a row-major result; inputs are never changed.
 * A kernel may throw {@link dev.jburn.JBurnException} only for data-dependent faults the front
 * end cannot see without reading data (an out-of-range gather index).
 */
public interface Backend extends AutoCloseable {
    /** The engine's name, same as its provider's. */
    String name();

    /** What runs natively here. */
    Capabilities capabilities();

    /**
     * How many primitives this engine handed to another engine (a device engine running what it
     * lacks on the cpu), keyed {@code "op:dtype"}; empty for engines that run everything themselves.
     */
    default java.util.Map<String, Long> fallbackCounts() { return java.util.Map.of(); }

    /**
     * Blocks until the work this engine was given so far has finished on its device. Results never need it (reading
     * a buffer waits for its producer); timing does: {@code -Djburn.profile.nodes.sync=true} calls it after every
     * node. The default does nothing, for engines that compute before they return.
     */
    default void synchronize() {}

    // ---- memory ---------------------------------------------------------------------------

    /** A new zero-filled buffer. */
    Buffer allocate(long byteSize);

    /** A new buffer holding a copy of {@code host} (any segment: heap or native). */
    Buffer upload(MemorySegment host);

    /** Copies {@code dst.byteSize()} bytes starting at {@code offset} of {@code src} into {@code dst}. */
    void download(Buffer src, long offset, MemorySegment dst);

    // ---- element-wise -----------------------------------------------------------------------

    /** {@code op} on every element. {@code x.dtype()} is the compute type; {@code out} is {@link UnaryOp#resultType}. */
    Buffer unary(UnaryOp op, Operand x, DType out);

    /**
     * {@code op} with NumPy broadcasting: {@code a} and {@code b} have the same dtype (the
     * compute type) and shapes that broadcast to {@code outShape}; {@code out} is the compute
     * type or {@code PRED}.
     */
    Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out);

    /** {@code pred ? onTrue : onFalse}; {@code pred} is PRED, the branches share one dtype; all broadcast to {@code outShape}. */
    Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape);

    /** Conversion with Nx cast semantics (see {@link DType}). */
    Buffer cast(Operand x, DType to);

    // ---- reductions and scans ---------------------------------------------------------------

    /**
     * {@code SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY} over {@code axes} (sorted, unique),
     * which are removed from the shape. For sums and products {@code x.dtype() == out};
     * F16/BF16 accumulate in F32. An empty reduction gives the op's identity.
     */
    Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out);

    /** {@code ARGMAX} or {@code ARGMIN} along {@code axis} (removed), or over the flattened tensor when {@code axis == -1}. NaN wins. */
    Buffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out);

    /** Inclusive scan along {@code axis} in the input type; {@code reverse} scans from the end. */
    Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse);

    // ---- movement ---------------------------------------------------------------------------

    /** Output axis {@code i} is input axis {@code perm[i]}. */
    Buffer transpose(Operand x, int[] perm);

    /** Input axis {@code i} maps to output axis {@code axes[i]} (increasing); its size is 1 or equal. */
    Buffer broadcast(Operand x, Shape outShape, int[] axes);

    /** Elements {@code starts[i] + k*strides[i]} for {@code k < ceil(lengths[i]/strides[i])}; starts already clamped. */
    Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides);

    /** {@code x} with {@code update} (same dtype) written at {@code starts} (already clamped so it fits). */
    Buffer putSlice(Operand x, int[] starts, Operand update);

    /** Pads with the scalar {@code padValue} (same dtype): {@code lo}/{@code hi} may be negative (crop), {@code interior >= 0}. */
    Buffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior);

    /** Reverses the given axes. */
    Buffer reverse(Operand x, int[] axes);

    /** Joins parts of one dtype along {@code axis}; other axes match. */
    Buffer concatenate(List<Operand> parts, int axis);

    // ---- indexing ---------------------------------------------------------------------------

    /**
     * Nx {@code gather}: {@code indices} is integer, shape {@code [..., k]} with {@code k == axes.length};
     * output shape is {@code indices.shape[:-1] ++ (x dims not in axes)}. Out-of-range index: JBurnException.
     */
    Buffer gather(Operand x, Operand indices, int[] axes);

    /**
     * Nx {@code indexed_add}/{@code indexed_put}: {@code indices} {@code [n, k]}, {@code updates}
     * {@code [n, ...slice]} in {@code target}'s dtype; {@code accumulate} adds (duplicates sum), otherwise the last write wins.
     */
    Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate);

    // ---- sorting ----------------------------------------------------------------------------

    /** Stable sort along {@code axis}; NaN is larger than everything (+Inf included). */
    Buffer sort(Operand x, int axis, boolean descending);

    /** Stable argsort along {@code axis}, indices of type {@code indexType}. */
    Buffer argsort(Operand x, int axis, boolean descending, DType indexType);

    // ---- contraction ------------------------------------------------------------------------

    /**
     * General dot: {@code a} and {@code b} share dtype {@code out}; batch axes lead, then
     * a's free axes, then b's free axes. Contracted sizes match pairwise.
     */
    Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out);

    // ---- convolution and windows ------------------------------------------------------------

    /** Nx {@code conv} in canonical layout (see {@link ConvSpec}); input and kernel share dtype {@code out} (a float type). */
    Buffer conv(Operand input, Operand kernel, ConvSpec spec, DType out);

    /**
     * {@code WINDOW_SUM, WINDOW_PRODUCT, WINDOW_MAX, WINDOW_MIN} over {@code spec}'s windows, in the
     * input type; padding holds the reduction's identity.
     */
    Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec);

    /**
     * {@code WINDOW_SCATTER_MAX/MIN}: an output of {@code x}'s shape filled with the scalar {@code init},
     * to which each {@code source} element is added at the position of its window's max/min in
     * {@code x} (ties: the last in row-major window order). {@code source} and {@code init} share the output dtype.
     */
    Buffer windowScatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec);

    // ---- linear algebra (batched over leading axes; float operands) --------------------------

    /** Lower Cholesky factor {@code L} with {@code a = L·Lᵀ}; non-SPD input gives NaN where a square root fails. */
    Buffer cholesky(Operand a);

    /** Solves {@code op(a)·x = b} ({@code leftSide}) or {@code x·op(a) = b}, {@code op} = transpose when {@code transposeA}. */
    Buffer triangularSolve(Operand a, Operand b, boolean lower, boolean leftSide, boolean transposeA);

    /** {@code [p, l, u]} with {@code a = p·l·u}, partial pivoting; {@code p} in {@code a}'s dtype. */
    List<Buffer> lu(Operand a);

    /** {@code [q, r]}: reduced ({@code q [m,k]}, {@code r [k,n]}) or complete ({@code q [m,m]}, {@code r [m,n]}). */
    List<Buffer> qr(Operand a, boolean complete);

    /** {@code [eigenvalues, eigenvectors]} of a symmetric matrix; vectors are columns. */
    List<Buffer> eigh(Operand a);

    /** {@code [u, s, vt]}, {@code s} descending; full or reduced matrices. */
    List<Buffer> svd(Operand a, boolean fullMatrices);

    // ---- creation ---------------------------------------------------------------------------

    /** Counting along {@code axis}, or over the flattened shape when {@code axis == -1}. */
    Buffer iota(Shape shape, DType dtype, int axis);

    // ---- whole graphs ---------------------------------------------------------------------------

    /**
     * Runs a compiled function's optimized graph ({@code Jit}) with operands of the graph's input
     * types, and returns one new buffer reference per graph output (an input returned as an output
     * is retained; inputs are not released). The default interprets node by node through the
     * primitives above, freeing intermediates after their last use
     * ({@link dev.jburn.graph.Interpreter#execute}); an engine may override it to compile the
     * graph whole (fusing element-wise chains, say) and cache the result per graph instance.
     */
    default List<Buffer> execute(dev.jburn.graph.Graph graph, List<Operand> inputs) {
        return dev.jburn.graph.Interpreter.execute(this, graph, inputs);
    }

    /**
     * {@link #execute(dev.jburn.graph.Graph, List)} where the inputs marked in {@code donated} are
     * given up by the caller: the engine may write an output into such an input's buffer when
     * dtype and byte size fit (the caller must not read that input afterwards; the Jit closes the
     * donated tensors after the call). The default ignores the donation.
     */
    default List<Buffer> execute(dev.jburn.graph.Graph graph, List<Operand> inputs, boolean[] donated) {
        return execute(graph, inputs);
    }

    /** Frees what the backend holds; buffers still referenced stay valid on host engines. */
    @Override
    void close();
}
