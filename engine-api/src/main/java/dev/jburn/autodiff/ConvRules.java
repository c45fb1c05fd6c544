package dev.jburn.autodiff;

import dev.jburn.ConvOptions;
import dev.jburn.JBurnException;
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
 * feature groups of the input's and batch groups of the kernel's). Batch groups are not built yet.
 */
final class ConvRules {
    private ConvRules() {}

    static List<Tensor> conv(Prim.Conv c, Tensor input, Tensor kernel, Tensor g) {
        ConvSpec s = c.spec();
        if (s.batchGroups() != 1) {
            throw new JBurnException("grad", "the gradient of a conv with batchGroups=" + s.batchGroups() + " is not differentiable yet");
        }
        int n = s.spatialRank();
        int[] spatial = new int[n];
        for (int i = 0; i < n; i++) spatial[i] = 2 + i;
        return Arrays.asList(inputCotangent(s, input, kernel, g, spatial), kernelCotangent(s, input, kernel, g, spatial));
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
