package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.WindowSpec;

/**
 * A window over the last two axes only (every leading axis has a trivial window), seen as
 * {@code planes} independent {@code h×w} planes pooled to {@code oh×ow}: the shape of 2-D (and
 * 1-D) pooling over NCHW tensors. Row {@code r} of {@link #rowTable} lists, per window row, the
 * input row or -1 for padding.
 */
record PoolPlan(long planes, int h, int w, int oh, int ow, int kh, int kw, int sh, int sw, int dh, int dw,
                int padTop, int padLeft, int[] rowTable) {

    /** The plan, or {@code null} when some leading axis has a real window. */
    static PoolPlan of(Shape in, WindowSpec spec) {
        int r = in.rank();
        if (r == 0 || WindowGeometry.trivialLeadingAxes(spec) < r - 2) return null;
        int[] out = WindowGeometry.outputDims(in, spec);
        long planes = 1;
        for (int a = 0; a < r - 2; a++) planes *= in.dim(a);
        boolean two = r >= 2;
        int ha = r - 2, wa = r - 1;
        int h = two ? in.dim(ha) : 1, oh = two ? out[ha] : 1, kh = two ? spec.dims()[ha] : 1;
        int sh = two ? spec.strides()[ha] : 1, dh = two ? spec.dilations()[ha] : 1, top = two ? spec.padLow()[ha] : 0;
        int[] rows = new int[oh * kh];
        for (int o = 0; o < oh; o++) {
            for (int k = 0; k < kh; k++) {
                long y = (long) o * sh + (long) k * dh - top;
                rows[o * kh + k] = y >= 0 && y < h ? (int) y : -1;
            }
        }
        return new PoolPlan(planes, h, in.dim(wa), oh, out[wa], kh, spec.dims()[wa], sh, spec.strides()[wa], dh,
                spec.dilations()[wa], top, spec.padLow()[wa], rows);
    }

    /**
     * Length of the padded row buffer: the input row sits at {@code [padLeft, padLeft + w)}, and
     * every position a (possibly gathered) vector of {@code lanes} output elements can touch fits.
     */
    int rowBufferLength(int lanes) {
        long outLanes = (long) (ow + lanes - 1) / lanes * lanes;
        long reach = (outLanes - 1) * sw + (long) (kw - 1) * dw + 1;
        return (int) Math.max(reach, (long) padLeft + w + lanes) + lanes;
    }
}
