package dev.jburn.cuda;

import dev.jburn.Shape;
import dev.jburn.spi.WindowSpec;

/**
 * A window op's numbers per axis, as the window kernels take them ({@link WindowScatterKernels},
 * {@link WindowExtremeKernels}).
 *
 * @param in         the input's extents
 * @param win        window extents
 * @param st         strides
 * @param dil        dilations
 * @param lo         low padding
 * @param hi         high padding
 * @param outDims    windows per axis ({@link WindowScatterKernels#windows})
 * @param windowSize positions in one window
 * @param windows    windows in all
 */
record WindowGeometry(long[] in, long[] win, long[] st, long[] dil, long[] lo, long[] hi, long[] outDims, long windowSize, long windows) {
    static WindowGeometry of(Shape x, WindowSpec spec) {
        int rank = x.rank();
        long[] in = new long[rank], win = new long[rank], st = new long[rank], dil = new long[rank], lo = new long[rank], hi = new long[rank];
        long windowSize = 1;
        for (int i = 0; i < rank; i++) {
            in[i] = x.dim(i);
            win[i] = spec.dims()[i];
            st[i] = spec.strides()[i];
            dil[i] = spec.dilations()[i];
            lo[i] = spec.padLow()[i];
            hi[i] = spec.padHigh()[i];
            windowSize *= win[i];
        }
        long[] outDims = WindowScatterKernels.windows(x, spec);
        long windows = 1;
        for (long o : outDims) windows *= o;
        return new WindowGeometry(in, win, st, dil, lo, hi, outDims, windowSize, windows);
    }

    /** Whether the 32-bit kernels take it ({@link WindowScatterKernels#fits32}), for {@code n} input elements. */
    boolean fits32(long n) {
        return WindowScatterKernels.fits32(n, windows, windowSize, in, win, st, dil, lo, outDims);
    }

    /** Whether no axis is padded: every window then lies inside the input, and the unpadded kernels walk it by strides alone. */
    boolean unpadded() {
        for (int d = 0; d < in.length; d++) if (lo[d] != 0 || hi[d] != 0) return false;
        return true;
    }

    /** Whether every input element lies in exactly one window: unpadded, windows side by side (stride = extent, no dilation), none left over. */
    boolean tiles() {
        if (!unpadded()) return false;
        for (int d = 0; d < in.length; d++) if (dil[d] != 1 || st[d] != win[d] || outDims[d] * st[d] != in[d]) return false;
        return true;
    }

    /** Per axis, how far (in elements of the input) the next window starts: stride × the axis's row-major stride. */
    long[] windowSteps() { return inElements(st); }

    /** Per axis, how far (in elements of the input) the next position inside a window lies: dilation × the axis's row-major stride. */
    long[] positionSteps() { return inElements(dil); }

    /** How far (in elements of the input) the low padding shifts a window's first position: Σ lo × the axis's row-major stride. */
    long loOffset() {
        long o = 0;
        for (long v : inElements(lo)) o += v;
        return o;
    }

    /** {@code counts[d]} steps along axis {@code d}, in elements of the row-major input. */
    private long[] inElements(long[] counts) {
        long[] s = new long[in.length];
        long stride = 1;
        for (int d = in.length - 1; d >= 0; d--) {
            s[d] = counts[d] * stride;
            stride *= in[d];
        }
        return s;
    }
}
