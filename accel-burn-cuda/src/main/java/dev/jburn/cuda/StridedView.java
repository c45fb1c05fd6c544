package dev.jburn.cuda;

import dev.jburn.Shape;

/**
 * A read pattern over a row-major input: output element {@code (i_0, ..., i_r-1)} of shape
 * {@code dims} reads input element {@code base + Σ i_d · strides[d]}. Transpose, broadcast (stride 0),
 * slice (offset and scaled strides) and reverse (negative strides) are all such views, so one copy
 * kernel runs them all. Pure functions, tested without a GPU.
 *
 * @param base    element offset of output element 0
 * @param dims    output shape
 * @param strides input element stride per output axis (may be 0 or negative)
 */
record StridedView(long base, long[] dims, long[] strides) {
    /** Ranks the copy kernel handles (its index struct holds 8). */
    static final int MAX_RANK = 8;

    long size() {
        long n = 1;
        for (long d : dims) n *= d;
        return n;
    }

    static long[] rowMajorStrides(Shape s) {
        long[] st = new long[s.rank()];
        long acc = 1;
        for (int i = s.rank() - 1; i >= 0; i--) {
            st[i] = acc;
            acc *= s.dim(i);
        }
        return st;
    }

    private static long[] dims(Shape s) {
        long[] d = new long[s.rank()];
        for (int i = 0; i < d.length; i++) d[i] = s.dim(i);
        return d;
    }

    /** {@code Backend.transpose}: output axis {@code i} is input axis {@code perm[i]}. */
    static StridedView transpose(Shape in, int[] perm) {
        long[] st = rowMajorStrides(in);
        long[] d = new long[perm.length], s = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            d[i] = in.dim(perm[i]);
            s[i] = st[perm[i]];
        }
        return new StridedView(0, d, s);
    }

    /** {@code Backend.broadcast}: input axis {@code i} becomes output axis {@code axes[i]}. */
    static StridedView broadcast(Shape in, Shape out, int[] axes) {
        long[] st = rowMajorStrides(in);
        long[] s = new long[out.rank()];
        for (int i = 0; i < axes.length; i++) s[axes[i]] = in.dim(i) == 1 ? 0 : st[i];
        return new StridedView(0, dims(out), s);
    }

    /** {@code Backend.slice} with clamped starts. */
    static StridedView slice(Shape in, int[] starts, int[] lengths, int[] steps) {
        long[] st = rowMajorStrides(in);
        long[] d = new long[starts.length], s = new long[starts.length];
        long base = 0;
        for (int i = 0; i < starts.length; i++) {
            d[i] = (lengths[i] + (long) steps[i] - 1) / steps[i];
            s[i] = st[i] * steps[i];
            base += starts[i] * st[i];
        }
        return new StridedView(base, d, s);
    }

    /** {@code Backend.reverse} of {@code axes}. */
    static StridedView reverse(Shape in, int[] axes) {
        long[] s = rowMajorStrides(in);
        long base = 0;
        for (int a : axes) {
            if (in.dim(a) > 0) base += (in.dim(a) - 1) * s[a];
            s[a] = -s[a];
        }
        return new StridedView(base, dims(in), s);
    }

    /** The input element read by output element {@code flat} (row-major), as the kernel computes it. */
    long source(long flat) {
        long r = flat, src = base;
        for (int d = dims.length - 1; d >= 0; d--) {
            long q = r / dims[d];
            src += (r - q * dims[d]) * strides[d];
            r = q;
        }
        return src;
    }

    /** {@code dims} or {@code strides} padded to the kernel's fixed struct of {@link #MAX_RANK}. */
    static long[] padded(long[] v) {
        long[] p = new long[MAX_RANK];
        System.arraycopy(v, 0, p, 0, v.length);
        for (int i = v.length; i < MAX_RANK; i++) p[i] = 1;
        return p;
    }
}
