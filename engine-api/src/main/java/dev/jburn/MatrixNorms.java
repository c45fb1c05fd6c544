package dev.jburn;

import dev.jburn.LinAlg.Ord;
import dev.jburn.op.LinalgOp;

import java.util.Arrays;

/**
 * Front end of {@code norm}: vector norms along one axis and matrix norms over two, composed of
 * abs, sums, max/min reductions, pow and (for the spectral and nuclear norms) the SVD.
 *
 * <p>p-norms follow Nx's overflow guard: the values are divided by their largest magnitude
 * before the powers, and the result is multiplied back ({@code ‖x‖ = m·‖x/m‖}); an all-zero
 * vector keeps {@code m = 1}. A 2-D {@code p(2)} is the largest singular value (the spectral
 * norm, as NumPy and Nx's documentation; Nx's code computes the Frobenius norm there).
 */
final class MatrixNorms {
    private MatrixNorms() {}

    private static final String NORM = LinalgOp.NORM.opName();

    static Tensor norm(Tensor t, Ord ord, int[] axes, boolean keepAxes) {
        Ord o = ord == null ? Ord.DEFAULT : ord;
        Shape s = t.shape();
        int[] ax;
        if (axes == null) {
            if (s.rank() != 1 && s.rank() != 2) {
                throw new JBurnException(NORM, "expected 1-D or 2-D tensor, got tensor with shape " + s
                        + " (pass axes to choose the vector or matrix axes)");
            }
            if (s.rank() == 1 && o.kind() == Ord.Kind.FROBENIUS) {
                throw new JBurnException(NORM, "expected a 2-D tensor for ord: frobenius, got a 1-D tensor");
            }
            ax = s.allAxes();
        } else {
            ax = s.normalizeAxes(NORM, axes);
            if (ax.length != 1 && ax.length != 2) {
                throw new JBurnException(NORM, "expected one axis (vector norms) or two axes (matrix norms), got axes "
                        + Arrays.toString(axes) + " for shape " + s);
            }
        }
        if (ax.length == 1 && o.kind() == Ord.Kind.NUCLEAR) {
            throw new JBurnException(NORM, "nuclear norm not supported for rank != 2 (it needs two axes), got shape " + s);
        }
        if (ax.length == 2 && o.kind() == Ord.Kind.P && Math.abs(o.p()) != 1 && Math.abs(o.p()) != 2) {
            throw new JBurnException(NORM, "invalid ord for a matrix norm, got: " + o
                    + " (expected default, frobenius, nuclear, inf, negInf, 1, -1, 2 or -2)");
        }
        DType f = t.dtype().toFloating();
        try (Tensor x = t.asType(f)) {
            return ax.length == 1 ? vector(x, o, ax[0], keepAxes) : matrix(x, o, ax[0], ax[1], keepAxes);
        }
    }

    private static Tensor vector(Tensor x, Ord o, int axis, boolean keep) {
        int[] ax = {axis};
        return switch (o.kind()) {
            case DEFAULT, FROBENIUS -> pNorm(x, 2, ax, keep);
            case P -> o.p() == 0 ? countNonZero(x, ax, keep) : pNorm(x, o.p(), ax, keep);
            case INF -> {
                try (Tensor abs = x.abs()) { yield abs.max(ax, keep); }
            }
            case NEG_INF -> {
                try (Tensor abs = x.abs()) { yield abs.min(ax, keep); }
            }
            case NUCLEAR -> throw new JBurnException(NORM, "nuclear norm not supported for vectors");
        };
    }

    private static Tensor matrix(Tensor x, Ord o, int rows, int cols, boolean keep) {
        int[] both = rows < cols ? new int[] {rows, cols} : new int[] {cols, rows};
        Shape out = ReductionOps.reducedShape(x.shape(), both, keep);
        return switch (o.kind()) {
            case DEFAULT, FROBENIUS -> pNorm(x, 2, both, keep);
            case NUCLEAR -> singularValues(x, rows, cols, out, Reduction.SUM);
            case INF -> absSumThenReduce(x, cols, rows, true, out);
            case NEG_INF -> absSumThenReduce(x, cols, rows, false, out);
            case P -> {
                double p = o.p();
                if (p == 1) yield absSumThenReduce(x, rows, cols, true, out);
                if (p == -1) yield absSumThenReduce(x, rows, cols, false, out);
                yield singularValues(x, rows, cols, out, p == 2 ? Reduction.MAX : Reduction.MIN);
            }
        };
    }

    /** {@code max} (or {@code min}) over {@code reduceAxis} of {@code Σ|x|} over {@code sumAxis}. */
    private static Tensor absSumThenReduce(Tensor x, int sumAxis, int reduceAxis, boolean max, Shape out) {
        try (Tensor abs = x.abs();
             Tensor sums = abs.sum(new int[] {sumAxis}, true);
             Tensor r = max ? sums.max(new int[] {reduceAxis}, true) : sums.min(new int[] {reduceAxis}, true)) {
            return r.reshape(out);
        }
    }

    private enum Reduction { SUM, MAX, MIN }

    /** Reduces the singular values of every {@code (rows, cols)} plane. */
    private static Tensor singularValues(Tensor x, int rows, int cols, Shape out, Reduction how) {
        int r = x.rank();
        int[] perm = new int[r];
        int j = 0;
        for (int i = 0; i < r; i++) if (i != rows && i != cols) perm[j++] = i;
        perm[j++] = rows;
        perm[j] = cols;
        int[] last = {r - 2};
        try (Tensor moved = x.transpose(perm); LinAlg.SVD svd = LinAlgOps.svd(moved, false)) {
            Tensor s = svd.s();
            try (Tensor reduced = switch (how) {
                case SUM -> s.sum(last);
                case MAX -> s.max(last);
                case MIN -> s.min(last);
            }) {
                return reduced.reshape(out);
            }
        }
    }

    private static Tensor countNonZero(Tensor x, int[] axes, boolean keep) {
        try (Tensor nz = x.notEqual(0); Tensor count = nz.sum(axes, keep)) {
            return count.asType(x.dtype());
        }
    }

    /** {@code m·(Σ (|x|/m)^p)^(1/p)} with {@code m = max|x|} (1 when zero); an infinite element gives +Inf for {@code p > 0}. */
    private static Tensor pNorm(Tensor x, double p, int[] axes, boolean keep) {
        Shape out = ReductionOps.reducedShape(x.shape(), sorted(axes), keep);
        try (Tensor abs = x.abs();
             Tensor m = abs.max(axes, true);
             Tensor positive = m.greater(0);
             Tensor safe = positive.select(m, 1.0);
             Tensor scaled = abs.divide(safe);
             Tensor powered = p == 2 ? scaled.multiply(scaled) : scaled.pow(p);
             Tensor sum = powered.sum(axes, true);
             // an all-zero vector (p > 0) takes its 0 by select, and the root reads a dummy 1: the root's
             // derivative at 0 is infinite, and its product with the zero derivative below would be NaN, so
             // the gradient at 0 is 0 (PyTorch's; JAX's norm gives NaN there)
             Tensor zero = m.equal(0.0);
             Tensor rooted = p > 0 ? zero.select(1.0, sum) : sum.reshape(sum.shape());
             Tensor root = p == 2 ? rooted.sqrt() : rooted.pow(1 / p);
             Tensor norm = root.multiply(safe);
             Tensor zeroed = p > 0 ? zero.select(0.0, norm) : norm.reshape(norm.shape());
             Tensor infinite = m.equal(Double.POSITIVE_INFINITY);
             Tensor guarded = p > 0 ? infinite.select(m, zeroed) : zeroed.reshape(zeroed.shape())) {
            return guarded.reshape(out);
        }
    }

    private static int[] sorted(int[] axes) {
        int[] a = axes.clone();
        Arrays.sort(a);
        return a;
    }
}
