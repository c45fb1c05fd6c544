package dev.jburn;

import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Backend;

import java.util.Arrays;

/**
 * Front end of reductions, arg reductions and scans: validates axes, applies Nx's output
 * types, casts, and shapes the result ({@code keepAxes}). Kernels see normalized, sorted axes.
 * {@code mean} and {@code logSumExp} are compositions of backend primitives.
 */
final class ReductionOps {
    private ReductionOps() {}

    /**
     * {@code SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY} over {@code axes} ({@code null}:
     * every axis). Sums and products are computed in their widened result type.
     */
    static Tensor reduce(ReduceOp op, Tensor x, int[] axes, boolean keepAxes) {
        String name = op.opName();
        int[] ax = sortedAxes(name, x.shape(), axes);
        DType out = op.resultType(x.dtype());
        if (ax.length == 0) return x.asType(out);
        Shape reduced = reducedShape(x.shape(), ax, keepAxes);
        Backend b = x.backend();
        if (op == ReduceOp.SUM || op == ReduceOp.PRODUCT) {
            try (Tensor cast = x.asType(out)) {
                return Tensor.wrap(x.engine(), b.reduce(op, cast.operand(), ax, out), out, reduced);
            }
        }
        return Tensor.wrap(x.engine(), b.reduce(op, x.operand(), ax, out), out, reduced);
    }

    /**
     * Nx {@code mean}: {@code sum / count} over the reduced axes; integers give F32, float types
     * are kept. An empty reduction gives NaN (0 / 0).
     */
    static Tensor mean(Tensor x, int[] axes, boolean keepAxes) {
        String name = ReduceOp.MEAN.opName();
        int[] ax = sortedAxes(name, x.shape(), axes);
        DType f = ReduceOp.MEAN.resultType(x.dtype());
        if (ax.length == 0) return x.asType(f);
        long count = 1;
        for (int a : ax) count *= x.shape().dim(a);
        try (Tensor sum = reduce(ReduceOp.SUM, x, ax, keepAxes);
             Tensor sumF = sum.asType(f);
             Tensor n = ShapeOps.scalarOn(x.engine(), f, (double) count)) {
            return binary(BinaryOp.DIVIDE, sumF, n, sumF.shape(), f);
        }
    }

    /**
     * Nx {@code logsumexp}: {@code log(sum(exp(x - m))) + m} with {@code m = max(x)} over the
     * axes, where an infinite {@code m} is replaced by 0 so that all-{@code -Inf} rows give
     * {@code -Inf} instead of NaN. The input is converted to its floating type first.
     */
    static Tensor logSumExp(Tensor x, int[] axes, boolean keepAxes) {
        String name = ReduceOp.LOG_SUM_EXP.opName();
        int[] ax = sortedAxes(name, x.shape(), axes);
        DType f = ReduceOp.LOG_SUM_EXP.resultType(x.dtype());
        Shape kept = reducedShape(x.shape(), ax, true);
        Shape outShape = reducedShape(x.shape(), ax, keepAxes);
        try (Tensor xf = x.asType(f);
             Tensor rawMax = reduce(ReduceOp.REDUCE_MAX, xf, ax, true);
             Tensor isInf = unary(UnaryOp.IS_INFINITY, rawMax, DType.PRED);
             Tensor zero = ShapeOps.scalarOn(x.engine(), f, 0.0);
             Tensor m = select(isInf, zero, rawMax, kept);
             Tensor shifted = binary(BinaryOp.SUBTRACT, xf, m, x.shape(), f);
             Tensor e = unary(UnaryOp.EXP, shifted, f);
             Tensor s = reduce(ReduceOp.SUM, e, ax, keepAxes);
             Tensor logS = unary(UnaryOp.LOG, s, f);
             Tensor mOut = m.reshape(outShape)) {
            return binary(BinaryOp.ADD, logS, mOut, outShape, f);
        }
    }

    /**
     * Index of the largest ({@code ARGMAX}) or smallest ({@code ARGMIN}) element along
     * {@code axis}, or into the flattened tensor when {@code axis} is {@code null}. NaN beats
     * every number (the last NaN wins, as Nx's BinaryBackend); {@code tieBreakHigh} picks the
     * last of equal values instead of the first. The result is S32.
     */
    static Tensor argReduce(ReduceOp op, Tensor x, Integer axis, boolean keepAxis, boolean tieBreakHigh) {
        String name = op.opName();
        Shape s = x.shape();
        DType out = op.resultType(x.dtype());
        if (axis == null) {
            if (s.size() == 0) {
                throw new JBurnException(name, "cannot compute " + name + " of an empty tensor of shape " + s);
            }
            Shape outShape = keepAxis ? reducedShape(s, s.allAxes(), true) : Shape.scalar();
            return Tensor.wrap(x.engine(), x.backend().argReduce(op, x.operand(), -1, tieBreakHigh, out), out, outShape);
        }
        int a = s.normalizeAxis(name, axis);
        if (s.dim(a) == 0) {
            throw new JBurnException(name, "cannot compute " + name + " over the empty axis " + axis + " of shape " + s);
        }
        Shape outShape = reducedShape(s, new int[] {a}, keepAxis);
        return Tensor.wrap(x.engine(), x.backend().argReduce(op, x.operand(), a, tieBreakHigh, out), out, outShape);
    }

    /**
     * Inclusive scan along {@code axis}; the output type is the input type, except that
     * {@code PRED} sums and products count in U8 (as Nx's 0/1 tensors do).
     */
    static Tensor cumulative(CumulativeOp op, Tensor x, int axis, boolean reverse) {
        int a = x.shape().normalizeAxis(op.opName(), axis);
        boolean counts = op == CumulativeOp.CUMULATIVE_SUM || op == CumulativeOp.CUMULATIVE_PRODUCT;
        DType t = x.dtype().isPred() && counts ? DType.U8 : x.dtype();
        try (Tensor in = x.asType(t)) {
            if (Decompositions.lacks(in, op, t)) {
                return Decompositions.differentiatedAs(new dev.jburn.graph.Prim.Cumulative(op, a, reverse), java.util.List.of(in),
                        Decompositions.cumulative(op, in, a, reverse));
            }
            return Tensor.wrap(x.engine(), x.backend().cumulative(op, in.operand(), a, reverse), t, x.shape());
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Normalized, sorted, unique axes; {@code null} means every axis. */
    static int[] sortedAxes(String op, Shape s, int[] axes) {
        if (axes == null) return s.allAxes();
        int[] ax = s.normalizeAxes(op, axes);
        Arrays.sort(ax);
        return ax;
    }

    /** {@code s} without {@code axes} (sorted), or with them set to 1 when {@code keep}. */
    static Shape reducedShape(Shape s, int[] axes, boolean keep) {
        int[] dims = s.dims();
        boolean[] reduced = new boolean[dims.length];
        for (int a : axes) reduced[a] = true;
        int[] out = new int[keep ? dims.length : dims.length - axes.length];
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (!reduced[i]) out[j++] = dims[i];
            else if (keep) out[j++] = 1;
        }
        return Shape.of(out);
    }

    private static Tensor unary(UnaryOp op, Tensor x, DType out) {
        return Tensor.wrap(x.engine(), x.backend().unary(op, x.operand(), out), out, x.shape());
    }

    private static Tensor binary(BinaryOp op, Tensor a, Tensor b, Shape outShape, DType out) {
        return Tensor.wrap(a.engine(), a.backend().binary(op, a.operand(), b.operand(), outShape, out), out, outShape);
    }

    private static Tensor select(Tensor pred, Tensor onTrue, Tensor onFalse, Shape outShape) {
        return Tensor.wrap(pred.engine(), pred.backend().select(pred.operand(), onTrue.operand(), onFalse.operand(), outShape),
                onTrue.dtype(), outShape);
    }
}
