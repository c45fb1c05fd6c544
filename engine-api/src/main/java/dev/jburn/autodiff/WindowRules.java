package dev.jburn.autodiff;

import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.graph.Prim;
import dev.jburn.spi.WindowSpec;

/** Backward rules of window reductions. */
final class WindowRules {
    private WindowRules() {}

    static Tensor windowReduce(Prim.WindowReduce w, Tensor x, Tensor g) {
        if (!x.dtype().isFloat()) return null;
        WindowSpec s = w.spec();
        boolean dilated = java.util.Arrays.stream(s.dilations()).anyMatch(d -> d != 1);
        if (dilated && (w.op() == dev.jburn.op.WindowOp.WINDOW_MAX || w.op() == dev.jburn.op.WindowOp.WINDOW_MIN)) {
            // window scatters take no dilation, so the selected elements are addressed one by one
            WindowPatches p = new WindowPatches(x.shape(), s);
            Tensor picked = p.selected(x, w.op() == dev.jburn.op.WindowOp.WINDOW_MAX);
            return p.scatterAdd(picked.multiply(g.newAxis(g.rank())));
        }
        return switch (w.op()) {
            // each window's max/min element takes the window's cotangent (ties: the last in window order, as the kernel picks)
            case WINDOW_MAX -> x.windowScatterMax(g, 0.0, s.dims(), options(s));
            case WINDOW_MIN -> x.windowScatterMin(g, 0.0, s.dims(), options(s));
            case WINDOW_SUM -> sumTranspose(s, x, g);
            case WINDOW_PRODUCT -> productTranspose(s, x, g);
            case WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> throw new IllegalStateException(w.name() + " is a window scatter");
        };
    }

    /**
     * Each element's cotangent is, per window holding it, the window's cotangent times the product
     * of the window's other elements — formed from exclusive prefix and suffix products, so zeros
     * in the window need no division.
     */
    private static Tensor productTranspose(WindowSpec s, Tensor x, Tensor g) {
        WindowPatches p = new WindowPatches(x.shape(), s);
        Tensor patches = p.read(x, 1.0);
        int axis = patches.rank() - 1;
        Tensor before = patches.cumulativeProduct(axis).pad(1.0, shiftConfig(patches.rank(), 1));
        Tensor after = patches.cumulativeProduct(axis, true).pad(1.0, shiftConfig(patches.rank(), -1));
        return p.scatterAdd(before.multiply(after).multiply(g.newAxis(g.rank())));
    }

    /** Pad configuration moving the last axis by {@code by} (1: right, -1: left), filling with the pad value. */
    private static int[][] shiftConfig(int rank, int by) {
        int[][] c = new int[rank][];
        for (int i = 0; i < rank; i++) c[i] = new int[] {0, 0, 0};
        c[rank - 1] = by > 0 ? new int[] {1, -1, 0} : new int[] {-1, 1, 0};
        return c;
    }

    /**
     * {@code windowScatterMax/Min(x, source, init)}: {@code source}'s cotangent is the output's
     * cotangent at each window's selected element; {@code init}'s is the sum of the output's
     * cotangent; {@code x} only selects positions, so its cotangent is zero.
     */
    static java.util.List<Tensor> windowScatter(Prim.WindowScatter w, Tensor x, Tensor source, Tensor init, Tensor g) {
        if (!source.dtype().isFloat()) return BackwardRules.none(3);
        WindowPatches p = new WindowPatches(x.shape(), w.spec());
        Tensor picked = p.selected(x, w.op() == dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX);
        Tensor gs = picked.asType(g.dtype()).multiply(p.read(g, 0.0)).sum(new int[] {picked.rank() - 1});
        return java.util.Arrays.asList(null, gs, g.sum().asType(init.dtype()));
    }

    /**
     * The transpose of a window sum (JAX's rule): spread {@code g} by the strides, pad it so every
     * input position sees the windows that cover it, and sum windows of stride 1.
     */
    private static Tensor sumTranspose(WindowSpec s, Tensor x, Tensor g) {
        int r = s.rank();
        int[][] config = new int[r][];
        for (int i = 0; i < r; i++) {
            int in = x.shape().dim(i), out = g.shape().dim(i);
            int k = (s.dims()[i] - 1) * s.dilations()[i] + 1;
            int outDilated = out == 0 ? 0 : (out - 1) * s.strides()[i] + 1;
            int before = k - s.padLow()[i] - 1;
            int after = in + k - 1 - outDilated - before;
            config[i] = new int[] {before, after, out == 0 ? 0 : s.strides()[i] - 1};
        }
        Tensor spread = g.pad(0.0, config);
        return spread.windowSum(s.dims(), WindowOptions.defaults().withDilations(s.dilations()));
    }

    private static WindowOptions options(WindowSpec s) {
        int[][] loHi = new int[s.rank()][];
        for (int i = 0; i < s.rank(); i++) loHi[i] = new int[] {s.padLow()[i], s.padHigh()[i]};
        return WindowOptions.defaults().withStrides(s.strides()).withPadding(Padding.explicit(loHi)).withDilations(s.dilations());
    }
}
