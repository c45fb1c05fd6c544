package dev.jburn.kernels;

import dev.jburn.Shape;

/**
 * Where index rows point in a tensor of shape {@code x}, for gather and indexed-update kernels (Vulkan's
 * {@code GatherShader}, Metal's {@code MslIndexing}): dims and strides (elements) of the indexed axes, in
 * index order, and of the other axes (the slice) in order. Kernel parameters are
 * {@code lead ++ [k, sliceRank] ++ (dim, stride) per indexed axis ++ (dim, stride) per slice axis}.
 *
 * <pre>{@code
 * SliceLayout l = SliceLayout.of(Shape.of(4, 5, 6), new int[] {1}); // index axis 1; slices [4, 6]
 * int[] words = l.params(n, rows, (int) l.sliceSize());
 * }</pre>
 */
public record SliceLayout(int[] indexed, int[] indexedStrides, int[] slice, int[] sliceStrides, long sliceSize) {
    /** The layout of {@code x} indexed on {@code axes} (in index-column order). */
    public static SliceLayout of(Shape x, int[] axes) {
        long[] xs = CopyPlan.strides(x);
        boolean[] gathered = new boolean[x.rank()];
        for (int a : axes) gathered[a] = true;
        int[] dims = new int[axes.length], strides = new int[axes.length];
        for (int j = 0; j < axes.length; j++) {
            dims[j] = x.dim(axes[j]);
            strides[j] = (int) xs[axes[j]];
        }
        int[] sd = new int[x.rank() - axes.length], ss = new int[sd.length];
        long size = 1;
        for (int i = 0, d = 0; i < x.rank(); i++) {
            if (gathered[i]) continue;
            sd[d] = x.dim(i);
            ss[d++] = (int) xs[i];
            size *= x.dim(i);
        }
        return new SliceLayout(dims, strides, sd, ss, size);
    }

    /** The parameter words: {@code lead}, then the layout. */
    public int[] params(int... lead) {
        int k = indexed.length;
        int[] p = new int[lead.length + 2 + 2 * k + 2 * slice.length];
        System.arraycopy(lead, 0, p, 0, lead.length);
        int at = lead.length;
        p[at++] = k;
        p[at++] = slice.length;
        for (int j = 0; j < k; j++) {
            p[at++] = indexed[j];
            p[at++] = indexedStrides[j];
        }
        for (int d = 0; d < slice.length; d++) {
            p[at++] = slice[d];
            p[at++] = sliceStrides[d];
        }
        return p;
    }
}
