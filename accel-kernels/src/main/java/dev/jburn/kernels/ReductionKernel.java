package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.ReduceOp;

import java.util.List;
import java.util.Optional;

/**
 * The kernel IR of a reduction ({@code sum, product, reduceMax, reduceMin, all, any}) over
 * {@code axes} of the values an element-wise {@code producer} computes — a plain load for
 * {@code Backend.reduce}, or a whole fused chain for a Jit fusion group ending in a reduction, so
 * {@code sum(a * b)} reads {@code a} and {@code b} once and writes only the sums.
 *
 * @param op       the reduction
 * @param producer the element-wise values reduced; its output shape is the reduced tensor's shape
 * @param axes     sorted, unique axes of {@code producer.outShape()} that are removed
 * @param outType  the result dtype ({@code PRED} for all/any; otherwise the producer's type)
 */
public record ReductionKernel(ReduceOp op, ElementwiseKernel producer, int[] axes, DType outType) {
    public ReductionKernel {
        axes = axes.clone();
        switch (op) {
            case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY -> { }
            case ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new IllegalArgumentException(op.opName() + " is not a primitive reduction");
        }
    }

    /** {@code Backend.reduce(op, x, axes, out)} for {@code x} of type {@code in} and shape {@code shape}. */
    public static ReductionKernel of(ReduceOp op, DType in, Shape shape, int[] axes, DType out) {
        ElementwiseKernel load = new ElementwiseKernel(List.of(in), List.of(new KernelExpr.Load(0, null, in)), shape);
        return new ReductionKernel(op, load, axes, out);
    }

    /**
     * The kernel of a Jit fusion group's body that ends in a reduction ({@code Prim.Fused} made by
     * the fusion pass), or empty when it does not end in one or the chain before it is not element-wise.
     */
    public static Optional<ReductionKernel> fused(Graph body) {
        if (body.outputs().size() != 1) return Optional.empty();
        Value out = body.outputs().getFirst();
        Node last = null;
        for (Node n : body.nodes()) {
            if (n.outputs().contains(out)) last = n;
        }
        if (last == null || !(last.prim() instanceof Prim.Reduce r) || !primitive(r.op())) {
            return Optional.empty();
        }
        Value reduced = last.inputs().getFirst();
        ElementwiseKernel producer = body.inputs().contains(reduced)
                ? new ElementwiseKernel(body.inputs().stream().map(Value::dtype).toList(),
                        List.of(new KernelExpr.Load(body.inputs().indexOf(reduced), null, reduced.dtype())), reduced.shape())
                : ElementwiseKernel.fusedAt(body, reduced).orElse(null);
        if (producer == null) return Optional.empty();
        return Optional.of(new ReductionKernel(r.op(), producer, r.axes(), r.out()));
    }

    private static boolean primitive(ReduceOp op) {
        return switch (op) {
            case SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY -> true;
            case ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> false;
        };
    }

    // Value semantics for the axes array, so equal kernels are equal cache keys.
    @Override
    public boolean equals(Object o) {
        return o instanceof ReductionKernel k && k.op == op && k.outType == outType && java.util.Arrays.equals(k.axes, axes)
                && k.producer.equals(producer);
    }

    @Override
    public int hashCode() { return ((op.hashCode() * 31 + producer.hashCode()) * 31 + java.util.Arrays.hashCode(axes)) * 31 + outType.hashCode(); }

    @Override
    public String toString() {
        return "ReductionKernel[op=" + op + ", producer=" + producer + ", axes=" + java.util.Arrays.toString(axes) + ", outType=" + outType + "]";
    }

    /** The shape of the input reduced. */
    public Shape inShape() { return producer.outShape(); }

    /** The result's shape: the input's without {@code axes}. */
    public Shape outShape() {
        long[] dims = new long[inShape().rank() - axes.length];
        int k = 0;
        for (int d = 0; d < inShape().rank(); d++) {
            if (!isReduced(d)) dims[k++] = inShape().dim(d);
        }
        return Shape.of(dims);
    }

    /** How many input elements each output combines. */
    public long reducedCount() {
        long n = 1;
        for (int a : axes) n *= inShape().dim(a);
        return n;
    }

    /** Whether {@code axis} of the input is reduced. */
    public boolean isReduced(int axis) {
        for (int a : axes) if (a == axis) return true;
        return false;
    }
}
