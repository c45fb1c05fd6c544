package dev.jburn.conformance;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

import java.util.Arrays;
import java.util.Random;

/**
 * Random canonical-layout convolutions for an engine's backend-level conv tests (input {@code [N, C, s...]},
 * kernel {@code [O, C/G, k...]}): 1 to 3 spatial axes, strides, negative and positive padding, input and
 * kernel dilation, feature and batch groups, and now and then an empty channel sum.
 *
 * <pre>{@code
 * RandomConvs.Case c = RandomConvs.next(new Random(1), 0);
 * Buffer y = backend.conv(input(c.input()), input(c.kernel()), c.spec(), DType.F32);
 * }</pre>
 *
 * @param input  the input's shape
 * @param kernel the kernel's shape
 * @param spec   strides, padding, dilations and groups
 */
public record RandomConvs(Shape input, Shape kernel, ConvSpec spec) {
    /**
     * The {@code index}-th case drawn from {@code rnd}: feature groups on every fifth index from 1, batch groups on
     * every fifth from 3.
     */
    public static RandomConvs next(Random rnd, int index) {
        int rank = 1 + rnd.nextInt(3);
        int fg = index % 5 == 1 ? 2 : 1, bg = index % 5 == 3 ? 2 : 1;
        int n = bg * (1 + rnd.nextInt(2)), cg = rnd.nextInt(12) == 0 ? 0 : 1 + rnd.nextInt(3), o = Math.max(fg, bg) * (1 + rnd.nextInt(3));
        int[] in = new int[rank + 2], k = new int[rank + 2];
        in[0] = n;
        in[1] = cg * fg;
        k[0] = o;
        k[1] = cg;
        int[] strides = new int[rank], lo = new int[rank], hi = new int[rank], inDil = new int[rank], kDil = new int[rank];
        for (int d = 0; d < rank; d++) {
            in[d + 2] = 1 + rnd.nextInt(rank == 3 ? 4 : 7);
            k[d + 2] = 1 + rnd.nextInt(3);
            strides[d] = 1 + rnd.nextInt(2);
            lo[d] = rnd.nextInt(4) - 1;
            hi[d] = rnd.nextInt(4) - 1;
            inDil[d] = rnd.nextInt(4) == 0 ? 2 : 1;
            kDil[d] = rnd.nextInt(4) == 0 ? 2 : 1;
        }
        return new RandomConvs(Shape.of(in), Shape.of(k), new ConvSpec(strides, lo, hi, inDil, kDil, fg, bg));
    }

    /** Products each output element sums: channels per group times kernel taps. */
    public long productsPerOutput() { return kernel.size() / Math.max(1, kernel.dim(0)); }

    /** The case as one line for a failure message. */
    public String describe() {
        return input + " * " + kernel + " strides " + Arrays.toString(spec.strides()) + " pad " + Arrays.toString(spec.padLow()) + "/"
                + Arrays.toString(spec.padHigh()) + " dilation " + Arrays.toString(spec.inputDilation()) + "/"
                + Arrays.toString(spec.kernelDilation()) + " groups " + spec.featureGroups() + "/" + spec.batchGroups();
    }
}
