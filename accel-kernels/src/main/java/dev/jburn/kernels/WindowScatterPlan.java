package dev.jburn.kernels;

import dev.jburn.Shape;
import dev.jburn.spi.WindowSpec;

/**
 * The parameter words of a window scatter's two kernels (max-pool's gradient: Vulkan's
 * {@code WindowScatterShader}, Metal's {@code MslWindows}): {@code [rank, windows, n, windowSize]},
 * then per axis {@code [in, out, window, stride, dilation, padLow]}. Index arithmetic in the kernels
 * is 32-bit: {@link #params} refuses geometries past {@link #LIMIT}.
 *
 * <pre>{@code
 * int[] words = WindowScatterPlan.params(x.shape(), source.shape(), spec); // null: fall back
 * }</pre>
 */
public final class WindowScatterPlan {
    private WindowScatterPlan() {}

    /** The highest rank the kernels walk (their coordinate arrays are this long). */
    public static final int MAX_RANK = 8;
    /** Words before the per-axis records, and words per axis. */
    public static final int HEADER = 4, PER_AXIS = 6;
    /** Bound on every index quantity, with headroom for the signed sums of the kernels' walks. */
    static final long LIMIT = 1L << 29;

    /** Whether no two windows share an element: along every axis a window ends before the next one starts. */
    public static boolean disjoint(WindowSpec spec) {
        for (int i = 0; i < spec.rank(); i++) {
            if (spec.strides()[i] < (spec.dims()[i] - 1L) * spec.dilations()[i] + 1) return false;
        }
        return true;
    }

    /**
     * The shaders' parameters for {@code x} under {@code spec}, with {@code windows} the source's shape (the
     * windows per axis); {@code null} past {@link #MAX_RANK} or 32-bit indexing.
     */
    public static int[] params(Shape x, Shape windows, WindowSpec spec) {
        int rank = x.rank();
        if (rank > MAX_RANK) return null;
        int[] out = windows.dims();
        long windowSize = 1;
        for (int i = 0; i < rank; i++) {
            windowSize *= spec.dims()[i];
            long in = x.dim(i), win = spec.dims()[i], st = spec.strides()[i], dil = spec.dilations()[i], lo = spec.padLow()[i];
            if (in + lo >= LIMIT || win * dil >= LIMIT || st >= LIMIT || (long) out[i] * st >= LIMIT || windowSize >= LIMIT) return null;
        }
        if (x.size() >= LIMIT || windows.size() >= LIMIT) return null;
        int[] p = new int[HEADER + PER_AXIS * rank];
        p[0] = rank;
        p[1] = (int) windows.size();
        p[2] = (int) x.size();
        p[3] = (int) windowSize;
        for (int i = 0; i < rank; i++) {
            int a = HEADER + PER_AXIS * i;
            p[a] = x.dim(i);
            p[a + 1] = out[i];
            p[a + 2] = spec.dims()[i];
            p[a + 3] = spec.strides()[i];
            p[a + 4] = spec.dilations()[i];
            p[a + 5] = spec.padLow()[i];
        }
        return p;
    }
}
