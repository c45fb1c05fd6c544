package dev.jburn.autodiff;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.WindowSpec;

/**
 * The windows of a window reduction laid out as a tensor {@code [windows..., K]} (K = elements per
 * window, in row-major window order), read from a tensor by one gather and written back by one
 * scatter-add. It lets the backward rules of window max/min with any dilation, window product and
 * the window scatters be written with ordinary ops: every window element is addressed directly.
 * The index tensor is computed from the shapes once per rule, so inside {@code Jit} it is a constant.
 */
final class WindowPatches {
    private final Shape in;
    private final Shape windows;
    private final int k;
    /** Linear input position of every window element; {@code in.size()} marks padding. */
    private final int[] index;

    WindowPatches(Shape in, WindowSpec s) {
        this.in = in;
        int r = s.rank();
        long[] out = new long[r];
        int kk = 1;
        for (int i = 0; i < r; i++) {
            int span = (s.dims()[i] - 1) * s.dilations()[i] + 1;
            out[i] = Math.max(0, Math.floorDiv(in.dim(i) + s.padLow()[i] + s.padHigh()[i] - span, s.strides()[i]) + 1);
            kk *= s.dims()[i];
        }
        windows = Shape.of(out);
        k = kk;
        long total = windows.size() * k;
        if (total > Integer.MAX_VALUE - 8) throw new dev.jburn.JBurnException("grad", "too many window elements to differentiate: " + total);
        index = new int[(int) total];
        int[] w = new int[r];
        int[] j = new int[r];
        int pad = Math.toIntExact(in.size());
        for (int n = 0; n < windows.size(); n++) {
            decompose(n, windows, w);
            for (int m = 0; m < k; m++) {
                decompose(m, s.dims(), j);
                int pos = 0;
                boolean inside = true;
                for (int i = 0; i < r && inside; i++) {
                    int c = w[i] * s.strides()[i] + j[i] * s.dilations()[i] - s.padLow()[i];
                    inside = c >= 0 && c < in.dim(i);
                    pos = pos * in.dim(i) + c;
                }
                index[n * k + m] = inside ? pos : pad;
            }
        }
    }

    private static void decompose(long n, Shape s, int[] into) {
        for (int i = s.rank() - 1; i >= 0; i--) {
            into[i] = (int) (n % s.dim(i));
            n /= s.dim(i);
        }
    }

    private static void decompose(int n, int[] dims, int[] into) {
        for (int i = dims.length - 1; i >= 0; i--) {
            into[i] = n % dims[i];
            n /= dims[i];
        }
    }

    /** Elements per window. */
    int k() { return k; }

    private Tensor indices(Tensor like) {
        Tensor t = Tensor.of(index);
        return t.engine() == like.engine() ? t : t.to(like.engine());
    }

    /** {@code x}'s windows, {@code [windows..., K]}; padding reads {@code padValue}. */
    Tensor read(Tensor x, double padValue) {
        Tensor flat = x.reshape(-1);
        Tensor pad = Tensor.full(Shape.of(1), x.dtype(), padValue);
        if (pad.engine() != x.engine()) pad = pad.to(x.engine());
        Tensor extended = Tensor.concatenate(0, flat, pad);
        long[] dims = new long[windows.rank() + 1];
        for (int i = 0; i < windows.rank(); i++) dims[i] = windows.dim(i);
        dims[windows.rank()] = k;
        return extended.take(indices(x)).reshape(Shape.of(dims));
    }

    /** The adjoint of {@link #read}: each window element of {@code patches} added at its input position (padding dropped). */
    Tensor scatterAdd(Tensor patches) {
        Tensor zeros = Tensor.zeros(Shape.of(in.size() + 1), patches.dtype());
        if (zeros.engine() != patches.engine()) zeros = zeros.to(patches.engine());
        Tensor sum = zeros.indexedAdd(indices(patches).reshape(-1, 1), patches.reshape(-1));
        return sum.slice(new int[] {0}, new int[] {(int) in.size()}).reshape(in);
    }

    /** A one-hot {@code [windows..., K]} of each window's max ({@code max}) or min element, ties to the last, NaN first, as the kernels pick. */
    Tensor selected(Tensor x, boolean max) {
        Tensor p = read(x, max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
        int axis = p.rank() - 1;
        Tensor pick = (max ? p.argmax(axis, true, true) : p.argmin(axis, true, true));
        Tensor iota = Tensor.iota(Shape.of(k), pick.dtype(), 0);
        if (iota.engine() != pick.engine()) iota = iota.to(pick.engine());
        return pick.equal(iota).asType(x.dtype());
    }
}
