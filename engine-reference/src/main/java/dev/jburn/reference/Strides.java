package dev.jburn.reference;

import dev.jburn.Shape;

/** Index arithmetic shared by the kernels: broadcast strides and row-major counters. */
final class Strides {
    private Strides() {}

    /**
     * Element strides of {@code in} aligned to {@code out}'s rank (NumPy right alignment), with 0 on
     * broadcast axes, so that {@code offset = sum(index[i] * strides[i])}.
     */
    static long[] broadcast(Shape in, Shape out) {
        int r = out.rank();
        long[] s = new long[r];
        long[] inStrides = in.strides();
        int off = r - in.rank();
        for (int i = 0; i < in.rank(); i++) {
            s[i + off] = in.dim(i) == 1 && out.dim(i + off) != 1 ? 0 : inStrides[i];
        }
        return s;
    }

    /** Offset of the row-major linear index {@code linear} of {@code shape} under {@code strides}. */
    static long offset(long linear, int[] dims, long[] strides) {
        long off = 0;
        for (int i = dims.length - 1; i >= 0 && linear > 0; i--) {
            int d = dims[i];
            long idx = linear % d;
            linear /= d;
            off += idx * strides[i];
        }
        return off;
    }

    /**
     * A row-major walk over {@code dims} that tracks one offset per strides array, so inner
     * loops advance with additions instead of divisions.
     */
    static final class Walker {
        private final int[] dims;
        private final long[][] strides;
        private final int[] index;
        final long[] offsets;

        Walker(int[] dims, long[]... strides) {
            this.dims = dims;
            this.strides = strides;
            this.index = new int[dims.length];
            this.offsets = new long[strides.length];
        }

        /** Positions the walker at row-major linear index {@code linear}. */
        void seek(long linear) {
            for (int i = dims.length - 1; i >= 0; i--) {
                int d = dims[i];
                index[i] = d == 0 ? 0 : (int) (linear % d);
                linear = d == 0 ? 0 : linear / d;
            }
            for (int k = 0; k < strides.length; k++) {
                long o = 0;
                for (int i = 0; i < dims.length; i++) o += index[i] * strides[k][i];
                offsets[k] = o;
            }
        }

        /** Advances to the next row-major index. */
        void next() {
            for (int i = dims.length - 1; i >= 0; i--) {
                if (++index[i] < dims[i]) {
                    for (int k = 0; k < strides.length; k++) offsets[k] += strides[k][i];
                    return;
                }
                index[i] = 0;
                for (int k = 0; k < strides.length; k++) offsets[k] -= strides[k][i] * (dims[i] - 1);
            }
        }
    }
}
