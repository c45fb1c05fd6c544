package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.WindowSpec;

/**
 * A window reduction as movement plus one reduction: the input is padded with the reduction's
 * identity, a strided view gathers every window into {@code [o..., k...]}, and the generated
 * reduction folds the window axes. Pure arithmetic on shapes, tested against the cpu engine
 * without a GPU. Covers operands of rank up to 4 (the view has twice the rank; the copy kernel
 * takes 8); F16/BF16 sums and products, PRED, and the window scatters fall back.
 *
 * @param padLo      low padding per axis
 * @param padHi      high padding per axis
 * @param padded     the padded input's shape
 * @param windows    the view {@code [o..., k...]} of the padded input
 * @param reduceAxes the window axes {@code r .. 2r-1}
 * @param outShape   {@code [o...]}
 */
record WindowPlan(int[] padLo, int[] padHi, Shape padded, StridedView windows, int[] reduceAxes, Shape outShape) {

    /** The reduction a window op folds with, or null for the scatters. */
    static ReduceOp reduction(WindowOp op) {
        return switch (op) {
            case WINDOW_SUM -> ReduceOp.SUM;
            case WINDOW_PRODUCT -> ReduceOp.PRODUCT;
            case WINDOW_MAX -> ReduceOp.REDUCE_MAX;
            case WINDOW_MIN -> ReduceOp.REDUCE_MIN;
            case WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> null;
        };
    }

    /** Whether the GPU path covers {@code op} on {@code t} (the scatters: {@link WindowScatterKernels}). */
    static boolean covers(WindowOp op, DType t) {
        if (op == WindowOp.WINDOW_SCATTER_MAX || op == WindowOp.WINDOW_SCATTER_MIN) return WindowScatterKernels.covers(t);
        ReduceOp r = reduction(op);
        if (r == null || t == DType.PRED) return false;
        return !((r == ReduceOp.SUM || r == ReduceOp.PRODUCT) && (t == DType.F16 || t == DType.BF16));
    }

    /** The identity of {@code op}'s reduction on {@code t}, as the element's bits (little end first). */
    static long identityBits(WindowOp op, DType t) { return identityBits(reduction(op), t); }

    /** The identity of a reduction on {@code t} (the result of reducing nothing), as the element's bits. */
    static long identityBits(ReduceOp op, DType t) {
        boolean max = op == ReduceOp.REDUCE_MAX;
        return switch (op) {
            case SUM, ANY -> 0;
            case ALL -> 1;
            case PRODUCT -> switch (t) {
                case F64 -> Double.doubleToRawLongBits(1.0);
                case F32 -> Float.floatToRawIntBits(1f) & 0xffffffffL;
                case F16 -> 0x3c00;
                case BF16 -> 0x3f80;
                default -> 1;
            };
            case REDUCE_MAX, REDUCE_MIN -> switch (t) {
                case F64 -> Double.doubleToRawLongBits(max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
                case F32 -> Float.floatToRawIntBits(max ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY) & 0xffffffffL;
                case F16 -> max ? 0xfc00 : 0x7c00;
                case BF16 -> max ? 0xff80 : 0x7f80;
                case PRED -> max ? 0 : 1; // false and true: a PRED byte holds 0 or 1, never 0xFF
                case U8, U16, U32, U64 -> max ? 0 : -1L;
                case S8, S16, S32, S64 -> max ? 1L << (t.bits() - 1) : ~(1L << (t.bits() - 1)) & (t.bits() == 64 ? -1L : (1L << t.bits()) - 1);
            };
            case ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new IllegalArgumentException(op.opName() + " has no identity here");
        };
    }

    /** The plan, or null outside the covered cases. */
    static WindowPlan of(Shape x, WindowSpec spec) {
        int r = x.rank();
        if (r < 1 || 2 * r > StridedView.MAX_RANK) return null;
        long[] pd = new long[r];
        for (int i = 0; i < r; i++) pd[i] = spec.padLow()[i] + spec.padHigh()[i] + (long) x.dim(i);
        Shape padded = Shape.of(pd);
        long[] ps = StridedView.rowMajorStrides(padded);
        long[] vd = new long[2 * r], vs = new long[2 * r];
        long[] out = new long[r];
        for (int i = 0; i < r; i++) {
            long effective = (spec.dims()[i] - 1L) * spec.dilations()[i] + 1;
            out[i] = pd[i] < effective ? 0 : (pd[i] - effective) / spec.strides()[i] + 1;
            vd[i] = out[i];
            vs[i] = ps[i] * spec.strides()[i];
            vd[r + i] = spec.dims()[i];
            vs[r + i] = ps[i] * spec.dilations()[i];
        }
        int[] axes = new int[r];
        for (int i = 0; i < r; i++) axes[i] = r + i;
        return new WindowPlan(spec.padLow().clone(), spec.padHigh().clone(), padded, new StridedView(0, vd, vs), axes, Shape.of(out));
    }
}
