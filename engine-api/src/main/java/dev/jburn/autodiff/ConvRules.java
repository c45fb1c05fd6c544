package dev.jburn.autodiff;

import dev.jburn.ConvOptions;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Prim;
import dev.jburn.spi.ConvSpec;

import java.util.Arrays;
import java.util.List;

/**
 * Backward rules of {@code conv} in canonical layout (input {@code [N, C, s...]}, kernel
 * {@code [O, C, k...]}, output {@code [N, O, o...]}), as JAX transposes
 * {@code conv_general_dilated}: both cotangents are convolutions again (feature groups become
 * feature groups of the input's and batch groups of the kernel's); a batch-grouped conv is
 * differentiated group by group.
 */
final class ConvRules {
    private ConvRules() {}

    static List<Tensor> conv(Prim.Conv c, Tensor input, Tensor kernel, Tensor g) {
        ConvSpec s = c.spec();
        int n = s.spatialRank();
        int[] spatial = new int[n];
        for (int i = 0; i < n; i++) spatial[i] = 2 + i;
        if (s.batchGroups() != 1) return batchGrouped(s, input, kernel, g, spatial);
        return Arrays.asList(inputCotangent(s, input, kernel, g, spatial), kernelCotangent(s, input, kernel, g, spatial));
    }

    /**
     * With {@code B} batch groups, group {@code b} convolves images {@code [b·N/B, (b+1)·N/B)} with
     * output channels {@code [b·O/B, (b+1)·O/B)} (the kernels' convention): each group is an
     * ungrouped conv, differentiated on its own, and the cotangents are joined again.
     */
    private static List<Tensor> batchGrouped(ConvSpec s, Tensor input, Tensor kernel, Tensor g, int[] spatial) {
        int groups = s.batchGroups();
        int nb = input.shape().dim(0) / groups, ob = kernel.shape().dim(0) / groups;
        ConvSpec one = new ConvSpec(s.strides(), s.padLow(), s.padHigh(), s.inputDilation(), s.kernelDilation(), 1, 1);
        List<Tensor> dIn = new java.util.ArrayList<>(), dK = new java.util.ArrayList<>();
        for (int b = 0; b < groups; b++) {
            Tensor in = slice(input, 0, b * nb, nb), k = slice(kernel, 0, b * ob, ob), gb = slice(g, 1, b * ob, ob);
            dIn.add(inputCotangent(one, in, k, gb, spatial));
            dK.add(kernelCotangent(one, in, k, gb, spatial));
        }
        return Arrays.asList(Tensor.concatenate(dIn, 0), Tensor.concatenate(dK, 0));
    }

    private static Tensor slice(Tensor t, int axis, int start, int length) {
        int[] starts = new int[t.rank()];
        int[] lengths = t.shape().dims().clone();
        starts[axis] = start;
        lengths[axis] = length;
        return t.slice(starts, lengths);
    }

    private static int dilated(int size, int d) { return size == 0 ? 0 : (size - 1) * d + 1; }

    /** conv(g, reversed kernel with O and C swapped), strided by the input dilation and input-dilated by the strides. */
    private static Tensor inputCotangent(ConvSpec s, Tensor input, Tensor kernel, Tensor g, int[] spatial) {
        int n = spatial.length;
        int[][] pads = new int[n][];
        for (int i = 0; i < n; i++) {
            int lhs = dilated(input.shape().dim(2 + i), s.inputDilation()[i]);
            int rhs = dilated(kernel.shape().dim(2 + i), s.kernelDilation()[i]);
            int out = dilated(g.shape().dim(2 + i), s.strides()[i]);
            int before = rhs - s.padLow()[i] - 1;
            pads[i] = new int[] {before, lhs + rhs - 1 - out - before};
        }
        Tensor w = kernel.reverse(spatial);
        int groups = s.featureGroups();
        if (groups > 1) {
            // [O, C/G, k] -> [O/G, C, k] with C group-major, so that the transposed conv has G groups too
            int[] d = kernel.shape().dims();
            int[] split = new int[d.length + 1];
            split[0] = groups;
            split[1] = d[0] / groups;
            System.arraycopy(d, 1, split, 2, d.length - 1);
            int[] merged = d.clone();
            merged[0] = d[0] / groups;
            merged[1] = d[1] * groups;
            w = w.reshape(Shape.of(split)).transpose(swapFirstTwo(split.length)).reshape(Shape.of(merged));
        }
        w = w.transpose(swapFirstTwo(kernel.rank()));
        ConvOptions o = ConvOptions.defaults().withStrides(s.inputDilation()).withPadding(Padding.explicit(pads))
                .withInputDilation(s.strides()).withKernelDilation(s.kernelDilation()).withFeatureGroupSize(groups);
        return g.conv(w, o);
    }

    /** conv(input as [C, N, s], g as a kernel [O, N, o]) strided by the kernel dilation, kernel-dilated by the strides. */
    private static Tensor kernelCotangent(ConvSpec s, Tensor input, Tensor kernel, Tensor g, int[] spatial) {
        int n = spatial.length;
        int[][] pads = new int[n][];
        for (int i = 0; i < n; i++) {
            int lhs = dilated(input.shape().dim(2 + i), s.inputDilation()[i]);
            int rhs = dilated(kernel.shape().dim(2 + i), s.kernelDilation()[i]);
            int out = dilated(g.shape().dim(2 + i), s.strides()[i]);
            int lo = s.padLow()[i];
            pads[i] = new int[] {lo, (out - lhs) + (rhs - lo - 1)};
        }
        int[] swap = swapFirstTwo(input.rank());
        ConvOptions o = ConvOptions.defaults().withStrides(s.kernelDilation()).withPadding(Padding.explicit(pads))
                .withInputDilation(s.inputDilation()).withKernelDilation(s.strides()).withBatchGroupSize(s.featureGroups());
        Tensor r = input.transpose(swap).conv(g.transpose(swap), o); // [C, O, k]
        return r.transpose(swap);
    }

    private static int[] swapFirstTwo(int rank) {
        int[] p = new int[rank];
        for (int i = 0; i < rank; i++) p[i] = i;
        p[0] = 1;
        p[1] = 0;
        return p;
    }
}
