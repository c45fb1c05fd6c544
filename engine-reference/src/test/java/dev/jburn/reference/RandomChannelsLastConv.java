package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

import java.util.Arrays;
import java.util.Random;

/**
 * A random channels-last conv for the tile tests: {@code x [n, in..., c]}, the canonical kernel {@code [o, c, k...]}, per
 * axis a size from {@code minIn} (fewer than {@code inSpan} more; at most 5 more with three axes), a kernel of 1-3, a
 * stride and a kernel dilation of 2 one time in four, low padding 0-2 (-1 one time in {@code negativeOneIn} less), high
 * padding 0-2.
 *
 * @param x      the input's shape
 * @param kernel the kernel's shape
 * @param spec   the conv
 */
record RandomChannelsLastConv(Shape x, Shape kernel, ConvSpec spec) {
    static RandomChannelsLastConv next(Random rnd, int sr, int n, int c, int o, int minIn, int inSpan, int negativeOneIn) {
        int[] strides = new int[sr], lo = new int[sr], hi = new int[sr], dil = new int[sr];
        int[] xd = new int[sr + 2], kshape = new int[sr + 2];
        xd[0] = n;
        kshape[0] = o;
        kshape[1] = c;
        for (int a = 0; a < sr; a++) {
            xd[a + 1] = minIn + rnd.nextInt(sr == 3 ? 5 : inSpan);
            kshape[a + 2] = 1 + rnd.nextInt(3);
            strides[a] = rnd.nextInt(4) == 0 ? 2 : 1;
            dil[a] = rnd.nextInt(4) == 0 ? 2 : 1;
            lo[a] = rnd.nextInt(3) - (rnd.nextInt(negativeOneIn) == 0 ? 1 : 0);
            hi[a] = rnd.nextInt(3);
        }
        xd[sr + 1] = c;
        return new RandomChannelsLastConv(Shape.of(xd), Shape.of(kshape), new ConvSpec(strides, lo, hi, ChannelsLastConvTest.ones(sr), dil, 1, 1));
    }

    /** Elements of the input. */
    int xCount() { return Math.toIntExact(x.size()); }

    /** Elements of the kernel. */
    int kCount() { return Math.toIntExact(kernel.size()); }

    /** The shapes and the spec, for failure messages. */
    String describe() {
        return "x " + x + ", kernel " + kernel + ", strides " + Arrays.toString(spec.strides()) + ", dilation "
                + Arrays.toString(spec.kernelDilation()) + ", pads " + Arrays.toString(spec.padLow()) + Arrays.toString(spec.padHigh());
    }
}
