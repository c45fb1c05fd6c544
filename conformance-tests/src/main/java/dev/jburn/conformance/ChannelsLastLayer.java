package dev.jburn.conformance;

import dev.jburn.ConvOptions;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;

import java.util.List;

/**
 * A channels-last conv layer for the engines' tests of their channels-last conv groups: input {@code [N, s..., C]},
 * kernel {@code [k..., C, O]}, output {@code [N, o..., O]}, and its training step's three convolutions (the forward
 * conv, the input cotangent and the kernel cotangent, {@link #step}).
 *
 * <pre>{@code
 * ChannelsLastLayer c = new ChannelsLastLayer(new int[] {13, 13}, 32, 64, new int[] {3, 3}, new int[] {1, 1},
 *         new int[][] {{0, 0}, {0, 0}}, new int[] {1, 1});
 * List<Tensor> out = Jit.compileList(c::step).apply(List.of(x, kernel, probe));
 * }</pre>
 *
 * @param in       the spatial dims of the input
 * @param channels input channels C
 * @param filters  output channels O
 * @param kernel   the kernel's spatial dims
 * @param strides  per spatial axis
 * @param pads     low and high padding per spatial axis
 * @param dilation kernel dilation per spatial axis
 */
public record ChannelsLastLayer(int[] in, int channels, int filters, int[] kernel, int[] strides, int[][] pads, int[] dilation) {
    /** The rank of the input, batch and channel axes included. */
    public int rank() { return in.length + 2; }

    /** The conv's options: this layer's strides, padding and dilation, channels-last input and output, kernel spatial-first. */
    public ConvOptions options() {
        int r = rank();
        return ConvOptions.defaults().withStrides(strides).withPadding(Padding.explicit(pads)).withKernelDilation(dilation)
                .withKernelPermutation(ConvOptions.kernelSpatialFirst(r)).withInputPermutation(ConvOptions.channelsLast(r))
                .withOutputPermutation(ConvOptions.channelsLast(r));
    }

    /**
     * {@code xs = [x, kernel, probe]}: the conv's output and the gradients of {@code sum(conv(x, kernel) · probe)}
     * with respect to {@code x} and {@code kernel}.
     */
    public List<Tensor> step(List<Tensor> xs) {
        ConvOptions o = options();
        Tensor probe = xs.get(2);
        List<Tensor> g = Autodiff.gradList((List<Tensor> p) -> p.get(0).conv(p.get(1), o).multiply(probe).sum()).apply(xs.subList(0, 2));
        return List.of(xs.get(0).conv(xs.get(1), o), g.get(0), g.get(1));
    }

    /** The input's dims for {@code batch} images: {@code [batch, in..., channels]}. */
    public int[] inputDims(int batch) {
        int[] d = new int[rank()];
        d[0] = batch;
        System.arraycopy(in, 0, d, 1, in.length);
        d[d.length - 1] = channels;
        return d;
    }

    /** The kernel's dims: {@code [kernel..., channels, filters]}. */
    public int[] kernelDims() {
        int[] d = new int[kernel.length + 2];
        System.arraycopy(kernel, 0, d, 0, kernel.length);
        d[kernel.length] = channels;
        d[kernel.length + 1] = filters;
        return d;
    }
}
