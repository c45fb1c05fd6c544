package dev.jburn;

import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.WindowSpec;

/**
 * Composite forms of primitives an engine's {@link dev.jburn.spi.Capabilities} lack, built from
 * the movement and element-wise primitives every device engine runs: a window reduction as the
 * element-wise combination of its strided window slices, a scan as log-depth shifted combinations
 * (Hillis–Steele), a convolution as one matrix product per kernel position. The front end uses them instead of the primitive when the tensor's engine says
 * it lacks it — also while tracing, where the tracing engine answers for the engine the compiled
 * function is being built for — so an accelerator runs these on the device instead of sending them
 * to the cpu. Max and min give exactly the primitive's result; sums and products may round
 * differently (another order), as any reassociation does.
 */
final class Decompositions {
    private Decompositions() {}

    /**
     * {@code y}, the decomposed result of primitive {@code prim} applied to {@code inputs}, marked in a
     * trace so that autodiff differentiates it by {@code prim}'s rule rather than through the
     * decomposition's ops (the same gradients, and tie conventions, as an engine with the primitive).
     */
    static Tensor differentiatedAs(dev.jburn.graph.Prim prim, java.util.List<Tensor> inputs, Tensor y) {
        java.util.List<Tensor> all = new java.util.ArrayList<>(inputs);
        all.add(y);
        return dev.jburn.graph.GradientMarks.mark(new dev.jburn.graph.Prim.GradientMark(prim), all);
    }

    /** Whether {@code x}'s engine lacks {@code op} on {@code t}, so the composite form should be used. */
    static boolean lacks(Tensor x, dev.jburn.op.Op op, DType t) {
        return !x.engine().capabilities().supports(op, t);
    }

    /** {@code op}'s windows of {@code x} (already in the output type) as a fold over the window's element slices. */
    static Tensor windowReduce(WindowOp op, Tensor x, WindowSpec s, Shape out) {
        int r = s.rank();
        int[][] config = new int[r][];
        for (int i = 0; i < r; i++) config[i] = new int[] {s.padLow()[i], s.padHigh()[i], 0};
        BinaryOp combine = switch (op) {
            case WINDOW_SUM -> BinaryOp.ADD;
            case WINDOW_PRODUCT -> BinaryOp.MULTIPLY;
            case WINDOW_MAX -> BinaryOp.MAX;
            case WINDOW_MIN -> BinaryOp.MIN;
            case WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> throw new IllegalArgumentException(op.opName());
        };
        int k = 1;
        for (int d : s.dims()) k *= d;
        try (Tensor id = identity(x, combine); Tensor padded = x.pad(id, config)) {
            int[] j = new int[r];
            int[] starts = new int[r];
            int[] lengths = new int[r];
            Tensor acc = null;
            for (int n = 0; n < k; n++) {
                int rest = n;
                for (int i = r - 1; i >= 0; i--) {
                    j[i] = rest % s.dims()[i];
                    rest /= s.dims()[i];
                }
                for (int i = 0; i < r; i++) {
                    starts[i] = j[i] * s.dilations()[i];
                    lengths[i] = out.dim(i) == 0 ? 0 : (out.dim(i) - 1) * s.strides()[i] + 1;
                }
                Tensor slice = padded.slice(starts, lengths, s.strides());
                if (acc == null) {
                    acc = slice;
                } else {
                    try (Tensor previous = acc; slice) {
                        acc = ElementwiseOps.binary(combine, previous, slice);
                    }
                }
            }
            return acc;
        }
    }

    /** The inclusive scan {@code op} of {@code x} along {@code axis}: {@code ceil(log2 n)} shifted combinations. */
    static Tensor cumulative(CumulativeOp op, Tensor x, int axis, boolean reverse) {
        BinaryOp combine = switch (op) {
            case CUMULATIVE_SUM -> BinaryOp.ADD;
            case CUMULATIVE_PRODUCT -> BinaryOp.MULTIPLY;
            case CUMULATIVE_MAX -> BinaryOp.MAX;
            case CUMULATIVE_MIN -> BinaryOp.MIN;
        };
        int n = x.shape().dim(axis);
        Tensor acc = x.asType(x.dtype());
        try (Tensor id = identity(x, combine)) {
            for (int step = 1; step < n; step *= 2) {
                int[][] config = new int[x.rank()][];
                for (int i = 0; i < x.rank(); i++) config[i] = new int[] {0, 0, 0};
                config[axis] = reverse ? new int[] {-step, step, 0} : new int[] {step, -step, 0};
                try (Tensor previous = acc; Tensor shifted = previous.pad(id, config)) {
                    acc = ElementwiseOps.binary(combine, previous, shifted);
                }
            }
        }
        return acc;
    }

    /**
     * A canonical-layout convolution without groups ({@code [N, C, s...]} by {@code [O, C, k...]})
     * as a sum over kernel positions of {@code kernel[:, :, j] · (strided input window at j)}: one
     * padded (and input-dilated) copy of the input, then per position a strided slice and a
     * contraction over {@code C}. F16 and BF16 are summed in F32 and rounded once, like the primitive.
     */
    static Tensor conv(Tensor input, Tensor kernel, dev.jburn.spi.ConvSpec spec, Shape out) {
        DType type = input.dtype();
        boolean narrow = type == DType.F16 || type == DType.BF16;
        try (Tensor in = narrow ? input.asType(DType.F32) : input.asType(type);
             Tensor k = narrow ? kernel.asType(DType.F32) : kernel.asType(type)) {
            int sr = spec.spatialRank();
            int r = sr + 2;
            int[][] config = new int[r][];
            config[0] = new int[] {0, 0, 0};
            config[1] = new int[] {0, 0, 0};
            for (int i = 0; i < sr; i++) config[i + 2] = new int[] {spec.padLow()[i], spec.padHigh()[i], spec.inputDilation()[i] - 1};
            int kn = 1;
            for (int i = 0; i < sr; i++) kn *= k.shape().dim(i + 2);
            int n = in.shape().dim(0), c = in.shape().dim(1), o = k.shape().dim(0);
            int[] perm = new int[r];
            perm[0] = 1;
            perm[1] = 0;
            for (int i = 2; i < r; i++) perm[i] = i;
            int pn = 1;
            for (int i = 0; i < sr; i++) pn *= out.dim(i + 2);
            try (Tensor padded = in.pad(0L, config)) {
                if (pn < kn) {
                    try (Tensor nout = perOutputPosition(padded, k, spec, out, pn)) {
                        return nout.asType(type);
                    }
                }
                Tensor acc = null;
                int[] j = new int[sr];
                for (int m = 0; m < kn; m++) {
                    int rest = m;
                    for (int i = sr - 1; i >= 0; i--) {
                        j[i] = rest % k.shape().dim(i + 2);
                        rest /= k.shape().dim(i + 2);
                    }
                    int[] starts = new int[r], lengths = new int[r], strides = new int[r];
                    int[] kStarts = new int[r], kLengths = new int[r];
                    lengths[0] = n;
                    lengths[1] = c;
                    strides[0] = strides[1] = 1;
                    kLengths[0] = o;
                    kLengths[1] = c;
                    for (int i = 0; i < sr; i++) {
                        starts[i + 2] = j[i] * spec.kernelDilation()[i];
                        lengths[i + 2] = (out.dim(i + 2) - 1) * spec.strides()[i] + 1;
                        strides[i + 2] = spec.strides()[i];
                        kStarts[i + 2] = j[i];
                        kLengths[i + 2] = 1;
                    }
                    try (Tensor patch = padded.slice(starts, lengths, strides);
                         Tensor kSlice = k.slice(kStarts, kLengths);
                         Tensor kj = kSlice.reshape(o, c)) {
                        Tensor term = kj.dot(new int[] {1}, new int[0], patch, new int[] {1}, new int[0]);
                        if (acc == null) {
                            acc = term;
                        } else {
                            try (Tensor previous = acc; term) {
                                acc = previous.add(term);
                            }
                        }
                    }
                }
                if (acc == null) return Tensor.wrap(input.engine(), input.backend().allocate(type.byteSize(out.size())), type, out);
                try (Tensor onm = acc; Tensor result = onm.transpose(perm)) {
                    return result.asType(type);
                }
            }
        }
    }

    /**
     * The convolution of {@link #conv} as one contraction per output position instead of one per kernel position:
     * {@code out[:, :, p] = (input window at p, [N, C, k...]) · kernel} over {@code C} and the kernel's axes, the
     * positions joined along the spatial axes. Chosen when the output has fewer positions than the kernel: a kernel
     * gradient, whose "kernel" is the cotangent (26x26 positions against 3x3 outputs: 9 contractions instead of 676).
     * {@code C} (there the batch) is a batch axis of each contraction, summed afterwards: one long contraction over
     * {@code C·k} (86,528 for the small CNN's first layer) would leave a GPU's matrix kernel a handful of outputs to
     * compute serially; {@code C} products over {@code k} run side by side.
     */
    private static Tensor perOutputPosition(Tensor padded, Tensor k, dev.jburn.spi.ConvSpec spec, Shape out, int pn) {
        int sr = spec.spatialRank(), r = sr + 2;
        int n = padded.shape().dim(0), c = padded.shape().dim(1), o = k.shape().dim(0);
        int[] swap = new int[r];
        swap[0] = 1;
        swap[1] = 0;
        for (int i = 2; i < r; i++) swap[i] = i;
        int[] contract = new int[sr];
        for (int i = 0; i < sr; i++) contract[i] = i + 2;
        int[] batch = {0};
        java.util.List<Tensor> columns = new java.util.ArrayList<>(pn);
        try (Tensor cn = padded.transpose(swap); Tensor co = k.transpose(swap)) {
            int[] p = new int[sr];
            for (int q = 0; q < pn; q++) {
                int rest = q;
                for (int i = sr - 1; i >= 0; i--) {
                    p[i] = rest % out.dim(i + 2);
                    rest /= out.dim(i + 2);
                }
                int[] starts = new int[r], lengths = new int[r], strides = new int[r];
                lengths[0] = c;
                lengths[1] = n;
                strides[0] = strides[1] = 1;
                for (int i = 0; i < sr; i++) {
                    starts[i + 2] = p[i] * spec.strides()[i];
                    lengths[i + 2] = (k.shape().dim(i + 2) - 1) * spec.kernelDilation()[i] + 1;
                    strides[i + 2] = spec.kernelDilation()[i];
                }
                try (Tensor window = cn.slice(starts, lengths, strides);
                     Tensor cno = window.dot(contract, batch, co, contract, batch);
                     Tensor no = cno.sum(batch)) {
                    columns.add(no.reshape(n, o, 1));
                }
            }
            int[] dims = out.dims().clone();
            try (Tensor joined = Tensor.concatenate(columns, 2)) {
                return joined.reshape(dims);
            }
        } finally {
            columns.forEach(Tensor::close);
        }
    }

    /** The identity of {@code combine} as a scalar of {@code x}'s type on its engine. */
    private static Tensor identity(Tensor x, BinaryOp combine) {
        DType t = x.dtype();
        return switch (combine) {
            case ADD -> ShapeOps.scalarOn(x.engine(), t, 0L);
            case MULTIPLY -> ShapeOps.scalarOn(x.engine(), t, 1L);
            case MAX -> t.isFloat() ? ShapeOps.scalarOn(x.engine(), t, Double.NEGATIVE_INFINITY)
                    : ShapeOps.scalarOn(x.engine(), t, t.isPred() ? 0 : t.minLong());
            case MIN -> t.isFloat() ? ShapeOps.scalarOn(x.engine(), t, Double.POSITIVE_INFINITY)
                    : ShapeOps.scalarOn(x.engine(), t, t.isPred() ? 1 : t.maxLong());
            default -> throw new IllegalArgumentException(combine.opName());
        };
    }
}
