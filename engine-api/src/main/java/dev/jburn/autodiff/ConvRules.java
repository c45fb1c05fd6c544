package dev.jburn.autodiff;

import dev.jburn.ConvOptions;
import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.graph.Prim;
import dev.jburn.spi.ConvSpec;

import java.util.Arrays;
import java.util.List;

/**
 * Backward rules of {@code conv} in canonical layout (input {@code [N, C, s...]}, kernel
 * {@code [O, C, k...]}, output {@code [N, O, o...]}), as JAX transposes
 * {@code conv_general_dilated}: both cotangents are convolutions again. Feature or batch
 * groups are not built yet.
 */
final class ConvRules {
    private ConvRules() {}

    static List<Tensor> conv(Prim.Conv c, Tensor input, Tensor kernel, Tensor g) {
        ConvSpec s = c.spec();
        if (s.featureGroups() != 1 || s.batchGroups() != 1) {
            throw new JBurnException("grad", "the gradient of a grouped conv (featureGroups=" + s.featureGroups() + ", batchGroups="
                    + s.batchGroups() + ") is not differentiable yet");
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
        Tensor w = kernel.reverse(spatial).transpose(swapFirstTwo(kernel.rank()));
        ConvOptions o = ConvOptions.defaults().withStrides(s.inputDilation()).withPadding(Padding.explicit(pads))
                .withInputDilation(s.strides()).withKernelDilation(s.kernelDilation());
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
                .withInputDilation(s.inputDilation()).withKernelDilation(s.strides());
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
