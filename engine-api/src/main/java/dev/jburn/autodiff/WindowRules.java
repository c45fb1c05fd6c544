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
            // the backward pass scatters to each window's max/min, and window scatters take no dilation
            throw new dev.jburn.JBurnException("grad", "the gradient of " + w.name() + " with window dilations "
                    + java.util.Arrays.toString(s.dilations()) + " is not differentiable yet");
        }
        return switch (w.op()) {
            // each window's max/min element takes the window's cotangent (ties: the last in window order, as the kernel picks)
            case WINDOW_MAX -> x.windowScatterMax(g, 0.0, s.dims(), options(s));
            case WINDOW_MIN -> x.windowScatterMin(g, 0.0, s.dims(), options(s));
            case WINDOW_SUM -> sumTranspose(s, x, g);
            case WINDOW_PRODUCT, WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> throw BackwardRules.notYet(w);
        };
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
