package dev.jburn;

import dev.jburn.op.WindowOp;
import dev.jburn.spi.WindowSpec;

import java.util.Arrays;

/**
 * Front end of the window reductions ({@code windowSum/Product/Max/Min}) and their scatter
 * duals ({@code windowScatterMax/Min}, max-pool's gradient): Nx's shape rules and messages,
 * padding resolution, output types, then one backend call.
 *
 * <p>Output size per axis: {@code w_eff = (w-1)*d + 1}, {@code out = floor((n + lo + hi - w_eff)/s) + 1}.
 * Nx refuses {@code out <= 0}; JBurn does too, except that an axis that is already empty
 * ({@code n == 0}) gives an empty output axis (JBurn allows zero-size dimensions).
 */
final class WindowOps {
    private WindowOps() {}

    /** A validated window and the pooled output shape. */
    record Plan(WindowSpec spec, Shape out) {}

    /** {@code WINDOW_SUM/PRODUCT/MAX/MIN}; the output type is the input type (PRED sums and products count in U8). */
    static Tensor reduce(WindowOp op, Tensor x, int[] windowDims, WindowOptions opts) {
        String name = op.opName();
        if (op == WindowOp.WINDOW_SCATTER_MAX || op == WindowOp.WINDOW_SCATTER_MIN) {
            throw new JBurnException(name, "is a window scatter, not a window reduction");
        }
        Plan plan = plan(name, x.shape(), windowDims, opts, true);
        boolean counts = op == WindowOp.WINDOW_SUM || op == WindowOp.WINDOW_PRODUCT;
        DType t = x.dtype().isPred() && counts ? DType.U8 : x.dtype();
        try (Tensor in = x.asType(t)) {
            if (plan.out().size() == 0) return Tensor.wrap(x.engine(), x.backend().allocate(0), t, plan.out());
            if (Decompositions.lacks(in, op, t)) {
                return Decompositions.differentiatedAs(new dev.jburn.graph.Prim.WindowReduce(op, plan.spec()), java.util.List.of(in),
                        Decompositions.windowReduce(op, in, plan.spec(), plan.out()));
            }
            return Tensor.wrap(x.engine(), x.backend().windowReduce(op, in.operand(), plan.spec()), t, plan.out());
        }
    }

    /** {@code WINDOW_SCATTER_MAX/MIN} with a scalar tensor {@code init}; the type is {@code merge(source, init)}. */
    static Tensor scatter(WindowOp op, Tensor x, Tensor source, Tensor init, int[] windowDims, WindowOptions opts) {
        String name = op.opName();
        Tensor[] on = CommonEngine.of(name, x, source, init);
        x = on[0];
        source = on[1];
        init = on[2];
        if (init.rank() != 0) throw new JBurnException(name, "init value must be a scalar, got shape " + init.shape());
        DType t = DType.merge(source.dtype(), init.dtype());
        try (Tensor i = init.asType(t)) {
            return scatterTyped(op, x, source, i, t, windowDims, opts);
        }
    }

    /** As {@link #scatter(WindowOp, Tensor, Tensor, Tensor, int[], WindowOptions)} with a weakly typed integer {@code init}. */
    static Tensor scatter(WindowOp op, Tensor x, Tensor source, long init, int[] windowDims, WindowOptions opts) {
        Tensor[] on = CommonEngine.of(op.opName(), x, source);
        x = on[0];
        source = on[1];
        DType t = DType.mergeScalar(source.dtype(), init);
        try (Tensor i = ShapeOps.scalarOn(x.engine(), t, init)) {
            return scatterTyped(op, x, source, i, t, windowDims, opts);
        }
    }

    /** As {@link #scatter(WindowOp, Tensor, Tensor, Tensor, int[], WindowOptions)} with a weakly typed float {@code init}. */
    static Tensor scatter(WindowOp op, Tensor x, Tensor source, double init, int[] windowDims, WindowOptions opts) {
        Tensor[] on = CommonEngine.of(op.opName(), x, source);
        x = on[0];
        source = on[1];
        DType t = DType.mergeScalar(source.dtype(), init);
        try (Tensor i = ShapeOps.scalarOn(x.engine(), t, init)) {
            return scatterTyped(op, x, source, i, t, windowDims, opts);
        }
    }

    private static Tensor scatterTyped(WindowOp op, Tensor x, Tensor source, Tensor init, DType t, int[] windowDims,
                                       WindowOptions opts) {
        String name = op.opName();
        if (op != WindowOp.WINDOW_SCATTER_MAX && op != WindowOp.WINDOW_SCATTER_MIN) {
            throw new JBurnException(name, "is a window reduction, not a window scatter");
        }
        for (int d : opts.dilations()) {
            if (d != 1) {
                throw new JBurnException(name, "window dilations are not supported by window scatters, got "
                        + Arrays.toString(opts.dilations()));
            }
        }
        Plan plan = plan(name, x.shape(), windowDims, opts, false);
        if (!source.shape().equals(plan.out())) {
            throw new JBurnException(name, "source shape must match valid windows in input tensor: source has shape "
                    + source.shape() + ", windows " + Arrays.toString(windowDims) + " over " + x.shape() + " give " + plan.out());
        }
        try (Tensor s = source.asType(t)) {
            return Tensor.wrap(x.engine(), x.backend().windowScatter(op, x.operand(), s.operand(), init.operand(), plan.spec()),
                    t, x.shape());
        }
    }

    /** Validates window dims and options against {@code shape} (Nx's rules) and computes the pooled shape. */
    static Plan plan(String op, Shape shape, int[] windowDims, WindowOptions opts, boolean allowDilation) {
        int r = shape.rank();
        if (windowDims.length != r) {
            throw new JBurnException(op, "invalid window dimensions, rank of shape (" + r + ") does not match rank of window ("
                    + windowDims.length + "): shape " + shape + ", window " + Arrays.toString(windowDims));
        }
        for (int w : windowDims) {
            if (w < 1) throw new JBurnException(op, "window dimensions must be positive, got " + Arrays.toString(windowDims));
        }
        int[] strides = perAxis(op, "stride", opts.strides(), r, shape);
        int[] dilations = allowDilation ? perAxis(op, "window dilation", opts.dilations(), r, shape) : ones(r);
        int[] eff = new int[r];
        for (int i = 0; i < r; i++) eff[i] = effectiveSize(op, windowDims[i], dilations[i]);
        int[][] pad = opts.padding().resolve(op, eff, false, shape);
        int[] out = new int[r];
        for (int i = 0; i < r; i++) {
            out[i] = outputSize(shape.dim(i), pad[0][i], pad[1][i], eff[i], strides[i]);
            if (out[i] < 0) {
                throw new JBurnException(op, "window dimensions would result in empty tensor: window " + Arrays.toString(windowDims)
                        + " (effective " + Arrays.toString(eff) + ") with padding " + opts.padding() + " does not fit axis " + i
                        + " of shape " + shape);
            }
        }
        return new Plan(new WindowSpec(windowDims.clone(), strides, pad[0], pad[1], dilations), Shape.of(out));
    }

    /**
     * {@code floor((n + lo + hi - eff)/stride) + 1}, or -1 when that is not positive on a
     * non-empty axis; an empty axis gives 0 (JBurn's zero-size dimensions).
     */
    static int outputSize(int n, int lo, int hi, int eff, int stride) {
        long span = (long) n + lo + hi - eff;
        long out = Math.floorDiv(span, stride) + 1;
        if (out > 0) return (int) Math.min(out, Integer.MAX_VALUE);
        return n == 0 ? 0 : -1;
    }

    /** {@code (w - 1) * d + 1}, checked against overflow. */
    static int effectiveSize(String op, int w, int d) {
        long e = (long) (w - 1) * d + 1;
        if (e > Integer.MAX_VALUE) throw new JBurnException(op, "dilated window size " + e + " is too large");
        return (int) e;
    }

    /** Nx's integer-or-list option: a length-1 array applies to every axis; otherwise it needs {@code count} entries. */
    static int[] perAxis(String op, String what, int[] values, int count, Shape shape) {
        if (values.length == 1) {
            int[] out = new int[count];
            Arrays.fill(out, values[0]);
            return out;
        }
        if (values.length != count) {
            throw new JBurnException(op, "invalid " + what + " dimensions, expected 1 or " + count + " values for shape " + shape
                    + ", got " + values.length + ": " + Arrays.toString(values));
        }
        return values.clone();
    }

    static int[] ones(int n) {
        int[] a = new int[n];
        Arrays.fill(a, 1);
        return a;
    }
}
