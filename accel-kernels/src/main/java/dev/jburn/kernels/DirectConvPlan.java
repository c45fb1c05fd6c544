package dev.jburn.kernels;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

/**
 * The parameter words of a direct convolution kernel (one thread per output element, summing its group's
 * channels and kernel taps in the cpu engine's order), shared by the engines that run one: the MSL and
 * GLSL kernels read the same block. Canonical layout: input {@code [N, C, s...]}, kernel
 * {@code [O, C/G, k...]}, output {@code [N/batchGroups, O, o...]}.
 *
 * <p>Header words: rank, O, O per group, C per group, C, output batch, batch grouped, feature grouped,
 * taps, input plane, output plane; then per spatial axis: in, kernel, out, stride, kernel dilation,
 * input dilation, padLow.
 */
public final class DirectConvPlan {
    private DirectConvPlan() {}

    /** The most spatial axes the kernels walk. */
    public static final int MAX_RANK = 6;
    /** Words before the per-axis records. */
    public static final int HEADER = 11;
    /** Words per spatial axis. */
    public static final int PER_AXIS = 7;
    private static final long LIMIT = Integer.MAX_VALUE;

    /**
     * The words for {@code input} and {@code kernel} under {@code spec}; {@code null} past {@link #MAX_RANK}
     * spatial axes or 32-bit indices (the caller falls back).
     */
    public static int[] params(Shape input, Shape kernel, ConvSpec spec) {
        int r = spec.spatialRank();
        if (r > MAX_RANK) return null;
        int n = input.dim(0), c = input.dim(1), o = kernel.dim(0), cg = kernel.dim(1);
        int groups = Math.max(spec.featureGroups(), spec.batchGroups());
        long taps = 1, inPlane = 1, outPlane = 1;
        int[] w = new int[HEADER + PER_AXIS * r];
        for (int d = 0; d < r; d++) {
            int in = input.dim(d + 2), k = kernel.dim(d + 2);
            long inEff = in == 0 ? 0 : (long) (in - 1) * spec.inputDilation()[d] + 1;
            long kEff = (long) (k - 1) * spec.kernelDilation()[d] + 1;
            long out = Math.max(0, Math.floorDiv(inEff + spec.padLow()[d] + spec.padHigh()[d] - kEff, spec.strides()[d]) + 1);
            if (out >= LIMIT || Math.abs((long) spec.padLow()[d]) >= LIMIT / 4 || inEff + kEff >= LIMIT / 4 || out * spec.strides()[d] >= LIMIT / 4) return null;
            int a = HEADER + PER_AXIS * d;
            w[a] = in;
            w[a + 1] = k;
            w[a + 2] = (int) out;
            w[a + 3] = spec.strides()[d];
            w[a + 4] = spec.kernelDilation()[d];
            w[a + 5] = spec.inputDilation()[d];
            w[a + 6] = spec.padLow()[d];
            taps *= k;
            inPlane *= in;
            outPlane *= out;
        }
        long outSize = (long) (n / spec.batchGroups()) * o * outPlane;
        if (outSize >= LIMIT || input.size() >= LIMIT || kernel.size() >= LIMIT || taps * cg >= LIMIT) return null;
        w[0] = r;
        w[1] = o;
        w[2] = o / groups;
        w[3] = cg;
        w[4] = c;
        w[5] = n / spec.batchGroups();
        w[6] = spec.batchGroups() > 1 ? 1 : 0;
        w[7] = spec.featureGroups() > 1 ? 1 : 0;
        w[8] = (int) taps;
        w[9] = (int) inPlane;
        w[10] = (int) outPlane;
        return w;
    }

    /** Output elements of the convolution {@code words} describe. */
    public static long outputSize(int[] words) { return (long) words[5] * words[1] * words[10]; }

    /** Products each output element sums (channels per group × taps): zero means the output is all zeros. */
    public static long productsPerOutput(int[] words) { return (long) words[3] * words[8]; }
}
