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
 * @param outDims    windows per axis ({@link WindowScatterKernels#windows})
 * @param windowSize positions in one window
 * @param windows    windows in all
 */
record WindowGeometry(long[] in, long[] win, long[] st, long[] dil, long[] lo, long[] outDims, long windowSize, long windows) {
    static WindowGeometry of(Shape x, WindowSpec spec) {
        int rank = x.rank();
        long[] in = new long[rank], win = new long[rank], st = new long[rank], dil = new long[rank], lo = new long[rank];
        long windowSize = 1;
        for (int i = 0; i < rank; i++) {
            in[i] = x.dim(i);
            win[i] = spec.dims()[i];
            st[i] = spec.strides()[i];
            dil[i] = spec.dilations()[i];
            lo[i] = spec.padLow()[i];
            windowSize *= win[i];
        }
        long[] outDims = WindowScatterKernels.windows(x, spec);
        long windows = 1;
        for (long o : outDims) windows *= o;
        return new WindowGeometry(in, win, st, dil, lo, outDims, windowSize, windows);
    }

    /** Whether the 32-bit kernels take it ({@link WindowScatterKernels#fits32}), for {@code n} input elements. */
    boolean fits32(long n) {
        return WindowScatterKernels.fits32(n, windows, windowSize, in, win, st, dil, lo, outDims);
    }
}
