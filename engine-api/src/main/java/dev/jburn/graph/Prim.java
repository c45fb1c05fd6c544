package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.WindowSpec;

/**
 * The graph's op set: one record per {@link dev.jburn.spi.Backend} primitive, carrying that
 * method's non-operand arguments, plus the views {@link Reshape} and {@link Bitcast} (a tensor
 * sharing a buffer under another shape or type) and the control-flow ops {@link Cond} and
 * {@link WhileLoop}, which hold sub-graphs. Node inputs are the backend method's operands, in
 * order. Every prim, given its input types, determines its output types ({@link ShapeInference}).
 *
 * <p>Array attributes are owned by the prim; do not modify them.
 */
public sealed interface Prim {
    /** The printed op name, e.g. {@code add}, {@code sum}, {@code transpose}. */
    String name();

    /** Uploaded bytes (row-major) of type {@code dtype[shape]}; no inputs. */
    record Constant(byte[] bytes, DType dtype, Shape shape) implements Prim {
        @Override public String name() { return "constant"; }
        public TensorType type() { return new TensorType(dtype, shape); }
    }

    /** {@code Backend.iota}: counting along {@code axis} ({@code -1}: the flattened shape); no inputs. */
    record Iota(Shape shape, DType dtype, int axis) implements Prim {
        @Override public String name() { return "iota"; }
    }

    /** {@code Backend.unary}; input {@code x} in the compute type. */
    record Unary(UnaryOp op, DType out) implements Prim {
        @Override public String name() { return op.opName(); }
    }

    /** {@code Backend.binary}; inputs {@code a, b} of one dtype, broadcasting to {@code outShape}. */
    record Binary(BinaryOp op, Shape outShape, DType out) implements Prim {
        @Override public String name() { return op.opName(); }
    }

    /** {@code Backend.select}; inputs {@code pred, onTrue, onFalse}. */
    record Select(Shape outShape) implements Prim {
        @Override public String name() { return "select"; }
    }

    /** {@code Backend.cast}. */
    record Cast(DType to) implements Prim {
        @Override public String name() { return "cast"; }
    }

    /** {@code Backend.reduce} over sorted, unique {@code axes} (removed). */
    record Reduce(ReduceOp op, int[] axes, DType out) implements Prim {
        @Override public String name() { return op.opName(); }
    }

    /** {@code Backend.argReduce} along {@code axis} ({@code -1}: flattened). */
    record ArgReduce(ReduceOp op, int axis, boolean tieBreakHigh, DType out) implements Prim {
        @Override public String name() { return op.opName(); }
    }

    /** {@code Backend.cumulative}. */
    record Cumulative(CumulativeOp op, int axis, boolean reverse) implements Prim {
        @Override public String name() { return op.opName(); }
    }

    /** {@code Backend.transpose}: output axis {@code i} is input axis {@code perm[i]}. */
    record Transpose(int[] perm) implements Prim {
        @Override public String name() { return "transpose"; }
    }

    /** {@code Backend.broadcast}: input axis {@code i} becomes output axis {@code axes[i]}. */
    record Broadcast(Shape outShape, int[] axes) implements Prim {
        @Override public String name() { return "broadcast"; }
    }

    /** {@code Backend.slice} with clamped starts. */
    record Slice(int[] starts, int[] lengths, int[] strides) implements Prim {
        @Override public String name() { return "slice"; }
    }

    /** {@code Backend.putSlice}; inputs {@code x, update}. */
    record PutSlice(int[] starts) implements Prim {
        @Override public String name() { return "putSlice"; }
    }

    /** {@code Backend.pad}; inputs {@code x, padValue} (a scalar). */
    record Pad(int[] lo, int[] hi, int[] interior) implements Prim {
        @Override public String name() { return "pad"; }
    }

    /** {@code Backend.reverse}. */
    record Reverse(int[] axes) implements Prim {
        @Override public String name() { return "reverse"; }
    }

    /** {@code Backend.concatenate}; one input per part. */
    record Concatenate(int axis) implements Prim {
        @Override public String name() { return "concatenate"; }
    }

    /** {@code Backend.gather}; inputs {@code x, indices}. */
    record Gather(int[] axes) implements Prim {
        @Override public String name() { return "gather"; }
    }

    /** {@code Backend.indexedUpdate}; inputs {@code target, indices, updates}. */
    record IndexedUpdate(int[] axes, boolean accumulate) implements Prim {
        @Override public String name() { return accumulate ? "indexedAdd" : "indexedPut"; }
    }

    /** {@code Backend.sort}. */
    record Sort(int axis, boolean descending) implements Prim {
        @Override public String name() { return "sort"; }
    }

    /** {@code Backend.argsort}. */
    record Argsort(int axis, boolean descending, DType indexType) implements Prim {
        @Override public String name() { return "argsort"; }
    }

    /** {@code Backend.dot}; inputs {@code a, b}. */
    record Dot(int[] contractA, int[] batchA, int[] contractB, int[] batchB, DType out) implements Prim {
        @Override public String name() { return "dot"; }
    }

    /** {@code Backend.conv}; inputs {@code input, kernel}. */
    record Conv(ConvSpec spec, DType out) implements Prim {
        @Override public String name() { return "conv"; }
    }

    /** {@code Backend.windowReduce}. */
    record WindowReduce(WindowOp op, WindowSpec spec) implements Prim {
        @Override public String name() { return op.opName(); }
    }

    /** {@code Backend.windowScatter}; inputs {@code x, source, init}. */
    record WindowScatter(WindowOp op, WindowSpec spec) implements Prim {
        @Override public String name() { return op.opName(); }
    }

    /** {@code Backend.cholesky}. */
    record Cholesky() implements Prim {
        @Override public String name() { return "cholesky"; }
    }

    /** {@code Backend.triangularSolve}; inputs {@code a, b}. */
    record TriangularSolve(boolean lower, boolean leftSide, boolean transposeA) implements Prim {
        @Override public String name() { return "triangularSolve"; }
    }

    /** {@code Backend.lu}; outputs {@code p, l, u}. */
    record Lu() implements Prim {
        @Override public String name() { return "lu"; }
    }

    /** {@code Backend.qr}; outputs {@code q, r}. */
    record Qr(boolean complete) implements Prim {
        @Override public String name() { return "qr"; }
    }

    /** {@code Backend.eigh}; outputs {@code eigenvalues, eigenvectors}. */
    record Eigh() implements Prim {
        @Override public String name() { return "eigh"; }
    }

    /** {@code Backend.svd}; outputs {@code u, s, vt}. */
    record Svd(boolean fullMatrices) implements Prim {
        @Override public String name() { return "svd"; }
    }

    /** A view: the same elements under another shape of equal size (no backend call). */
    record Reshape(Shape shape) implements Prim {
        @Override public String name() { return "reshape"; }
    }

    /** A view: the same bits read as another type of equal width (no backend call). */
    record Bitcast(DType to) implements Prim {
        @Override public String name() { return "bitcast"; }
    }

    /**
     * An autodiff marker: forwards its last input unchanged (a buffer view, no backend call). Its
     * other inputs are the primal inputs of a custom-gradient region. {@code rule == null} marks
     * {@code stopGradient} (no cotangent flows through); otherwise {@code rule} is the opaque
     * backward rule that {@code dev.jburn.autodiff} applies instead of differentiating the region.
     */
    record GradientMark(Object rule) implements Prim {
        @Override public String name() { return rule == null ? "stopGradient" : "customGradient"; }
    }

    /**
     * {@code pred ? onTrue(captures) : onFalse(captures)}. Inputs: a PRED scalar, then the captured
     * values; both branch graphs take the captured values as their inputs and return outputs of
     * equal types, which are the node's outputs.
     */
    record Cond(Graph onTrue, Graph onFalse) implements Prim {
        @Override public String name() { return "cond"; }
    }

    /**
     * {@code while (cond(state, captures)) state = body(state, captures)}. Inputs: the initial state
     * values, then the captured values; both graphs take {@code state ++ captures}; {@code cond}
     * returns one PRED scalar, {@code body} the next state; the node's outputs are the final state.
     */
    record WhileLoop(Graph cond, Graph body) implements Prim {
        @Override public String name() { return "whileLoop"; }

        /** Number of loop-carried values. */
        public int stateCount() { return body.outputs().size(); }
    }

    /**
     * A group of element-wise nodes (unary, binary, select, cast, broadcast), optionally ending in
     * a reduction, made by the fusion pass ({@link Passes#fusion}). Inputs: {@code body}'s inputs;
     * outputs: {@code body}'s outputs (one). Any engine can run it by interpreting {@code body};
     * an engine may run it in one pass without intermediate tensors.
     */
    record Fused(Graph body) implements Prim {
        @Override public String name() { return "fused"; }
    }
}
