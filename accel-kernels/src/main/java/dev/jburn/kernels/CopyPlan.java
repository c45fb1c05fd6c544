package dev.jburn.kernels;

import dev.jburn.Shape;

/**
 * The parameters of one strided-copy dispatch (Vulkan's {@code StridedCopyShader}, Metal's
 * {@code MslMovement}), built per movement op: transpose, broadcast, slice, reverse, pad and the
 * placement of a part (concatenate, put-slice) are all instances. Pure index arithmetic (no
 * device), shared by the engines whose kernels read it, and unit tested against hand-computed layouts.
 *
 * <p>Per axis {@code k} (innermost last), with iteration coordinate {@code c}:
 * {@code t = c*mul + add}; the element is padding when {@code t < 0}, {@code t % div != 0} or
 * {@code t/div >= srcDim}; otherwise it reads at {@code srcBase + sum((t/div)*srcStride)}; it
 * writes at {@code dstBase + sum(c*dstStride)}.
 *
 * <pre>{@code
 * CopyPlan p = CopyPlan.slice(Shape.of(4, 6), new int[] {1, 0}, new int[] {2, 6}, new int[] {1, 2}); // [2, 3]
 * int[] words = p.params(); // what the kernel reads
 * }</pre>
 */
public final class CopyPlan {
    /** Words of the parameter block before the per-axis records: count, rank, source base, destination base. */
    public static final int HEADER = 4;
    /** Words per axis: dim, mul, add, div, srcDim, srcStride, dstStride. */
    public static final int PER_AXIS = 7;

    final long[] dims;
    final long[] mul;
    final long[] add;
    final long[] div;
    final long[] srcDim;
    final long[] srcStride;
    final long[] dstStride;
    long srcBase;
    long dstBase;
    boolean padded;

    private CopyPlan(int rank) {
        dims = new long[rank];
        mul = new long[rank];
        add = new long[rank];
        div = new long[rank];
        srcDim = new long[rank];
        srcStride = new long[rank];
        dstStride = new long[rank];
    }

    public long count() {
        long n = 1;
        for (long d : dims) n *= d;
        return n;
    }

    /** Row-major strides of {@code shape}, in elements. */
    public static long[] strides(Shape shape) {
        long[] s = new long[shape.rank()];
        long acc = 1;
        for (int i = shape.rank() - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= shape.dim(i);
        }
        return s;
    }

    /** An identity copy of {@code shape} written with the destination's own row-major strides. */
    private static CopyPlan identity(Shape iter) {
        CopyPlan p = new CopyPlan(iter.rank());
        long[] st = strides(iter);
        for (int k = 0; k < iter.rank(); k++) {
            p.dims[k] = iter.dim(k);
            p.mul[k] = 1;
            p.div[k] = 1;
            p.srcDim[k] = iter.dim(k);
            p.srcStride[k] = st[k];
            p.dstStride[k] = st[k];
        }
        return p;
    }

    public static CopyPlan transpose(Shape in, int[] perm) {
        long[] is = strides(in);
        int r = perm.length;
        CopyPlan p = new CopyPlan(r);
        long acc = 1;
        for (int k = r - 1; k >= 0; k--) {
            p.dims[k] = in.dim(perm[k]);
            p.dstStride[k] = acc;
            acc *= p.dims[k];
        }
        for (int k = 0; k < r; k++) {
            p.mul[k] = 1;
            p.div[k] = 1;
            p.srcDim[k] = p.dims[k];
            p.srcStride[k] = is[perm[k]];
        }
        return p;
    }

    public static CopyPlan broadcast(Shape in, Shape out, int[] axes) {
        CopyPlan p = identity(out);
        long[] is = strides(in);
        java.util.Arrays.fill(p.srcStride, 0);
        for (int i = 0; i < axes.length; i++) p.srcStride[axes[i]] = in.dim(i) == 1 ? 0 : is[i];
        return p;
    }

    public static CopyPlan slice(Shape in, int[] starts, int[] lengths, int[] strides) {
        int r = in.rank();
        long[] is = strides(in);
        CopyPlan p = new CopyPlan(r);
        long acc = 1;
        for (int k = r - 1; k >= 0; k--) {
            p.dims[k] = (lengths[k] + strides[k] - 1) / strides[k];
            p.dstStride[k] = acc;
            acc *= p.dims[k];
        }
        for (int k = 0; k < r; k++) {
            p.mul[k] = strides[k];
            p.add[k] = starts[k];
            p.div[k] = 1;
            p.srcDim[k] = in.dim(k);
            p.srcStride[k] = is[k];
        }
        return p;
    }

    public static CopyPlan reverse(Shape in, int[] axes) {
        CopyPlan p = identity(in);
        for (int a : axes) {
            p.mul[a] = -1;
            p.add[a] = in.dim(a) - 1;
        }
        return p;
    }

    /** Output dims of a pad; lo/hi may be negative (crop). */
    public static long[] padDims(Shape in, int[] lo, int[] hi, int[] interior) {
        long[] d = new long[in.rank()];
        for (int k = 0; k < d.length; k++) {
            long n = in.dim(k);
            d[k] = Math.max(0, lo[k] + hi[k] + n + Math.max(0, n - 1) * interior[k]);
        }
        return d;
    }

    public static CopyPlan pad(Shape in, int[] lo, int[] hi, int[] interior) {
        int r = in.rank();
        long[] is = strides(in);
        CopyPlan p = new CopyPlan(r);
        long[] d = padDims(in, lo, hi, interior);
        long acc = 1;
        for (int k = r - 1; k >= 0; k--) {
            p.dims[k] = d[k];
            p.dstStride[k] = acc;
            acc *= d[k];
        }
        for (int k = 0; k < r; k++) {
            p.mul[k] = 1;
            p.add[k] = -lo[k];
            p.div[k] = interior[k] + 1L;
            p.srcDim[k] = in.dim(k);
            p.srcStride[k] = is[k];
        }
        p.padded = true;
        return p;
    }

    /** Writes all of {@code part} into {@code out} (row-major {@code outShape}) starting at {@code starts}. */
    public static CopyPlan place(Shape part, Shape outShape, long[] starts) {
        CopyPlan p = identity(part);
        long[] os = strides(outShape);
        long base = 0;
        for (int k = 0; k < part.rank(); k++) {
            p.dstStride[k] = os[k];
            base += starts[k] * os[k];
        }
        p.dstBase = base;
        return p;
    }

    /** Whether every index the shader computes fits its 32-bit arithmetic. */
    public boolean fitsInt32(long srcElements, long dstElements) {
        long lim = Integer.MAX_VALUE;
        if (count() >= lim || srcElements >= lim || dstElements >= lim) return false;
        for (int k = 0; k < dims.length; k++) {
            if (Math.abs(mul[k]) * dims[k] + Math.abs(add[k]) >= lim || Math.abs(srcStride[k]) * Math.max(1, srcDim[k]) >= lim) return false;
        }
        return true;
    }

    /** The parameter words the shader reads. */
    public int[] params() {
        int r = dims.length;
        int[] w = new int[HEADER + r * PER_AXIS];
        w[0] = (int) count();
        w[1] = r;
        w[2] = (int) srcBase;
        w[3] = (int) dstBase;
        for (int k = 0; k < r; k++) {
            int b = HEADER + k * PER_AXIS;
            w[b] = (int) dims[k];
            w[b + 1] = (int) mul[k];
            w[b + 2] = (int) add[k];
            w[b + 3] = (int) div[k];
            w[b + 4] = (int) srcDim[k];
            w[b + 5] = (int) srcStride[k];
            w[b + 6] = (int) dstStride[k];
        }
        return w;
    }
}
