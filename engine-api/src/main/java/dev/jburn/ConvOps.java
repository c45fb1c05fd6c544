package dev.jburn;

import dev.jburn.op.ConvOp;
import dev.jburn.spi.ConvSpec;

import java.util.Arrays;

/**
 * Front end of {@code conv} (Nx semantics: cross-correlation, layouts by permutation, groups,
 * dilations, negative padding) and {@code convTranspose} (its adjoint, built from conv).
 * Operands are permuted into the canonical layout (input {@code [N, C, s...]}, kernel
 * {@code [O, C/groups, k...]}) and cast to {@code toFloating(merge(input, kernel))}; the
 * backend sees only canonical, validated convolutions.
 */
final class ConvOps {
    private ConvOps() {}

    private static final String CONV = ConvOp.CONV.opName();
    private static final String TRANSPOSE = ConvOp.CONV_TRANSPOSE.opName();

    /** Nx {@code conv}. */
    static Tensor conv(Tensor input, Tensor kernel, ConvOptions o) {
        Tensor[] on = CommonEngine.of(CONV, input, kernel);
        input = on[0];
        kernel = on[1];
        checkRanks(CONV, input.shape(), kernel.shape());
        int r = input.rank();
        int sr = r - 2;
        int[] inPerm = permutation(CONV, "input", o.inputPermutation(), input.shape());
        int[] kPerm = permutation(CONV, "kernel", o.kernelPermutation(), kernel.shape());
        int[] outPerm = permutation(CONV, "output", o.outputPermutation(), input.shape());
        for (int p : o.outputPadding()) {
            if (p != 0) throw new JBurnException(CONV, "output padding applies only to convTranspose, got " + Arrays.toString(o.outputPadding()));
        }
        Shape in = permuted(input.shape(), inPerm);
        Shape k = permuted(kernel.shape(), kPerm);
        int[] strides = WindowOps.perAxis(CONV, "stride", o.strides(), sr, in);
        int[] inDil = WindowOps.perAxis(CONV, "input dilation", o.inputDilation(), sr, in);
        int[] kDil = WindowOps.perAxis(CONV, "kernel dilation", o.kernelDilation(), sr, k);
        checkGroups(CONV, in, k, o.featureGroupSize(), o.batchGroupSize());
        int[] kEff = kernelExtent(CONV, k, kDil);
        int[][] pad = o.padding().resolve(CONV, kEff, true, in);
        int[] out = new int[r];
        out[0] = in.dim(0) / o.batchGroupSize();
        out[1] = k.dim(0);
        for (int i = 0; i < sr; i++) {
            out[i + 2] = spatialOut(CONV, in, k, i, inDil[i], pad[0][i], pad[1][i], kEff[i], strides[i]);
        }
        ConvSpec spec = new ConvSpec(strides, pad[0], pad[1], inDil, kDil, o.featureGroupSize(), o.batchGroupSize());
        try (Tensor ci = input.transpose(inPerm); Tensor ck = kernel.transpose(kPerm);
             Tensor canonical = run(ci, ck, spec, Shape.of(out))) {
            return canonical.transpose(inverse(outPerm));
        }
    }

    /**
     * The transposed convolution: the adjoint of {@code conv} with respect to its input. The kernel
     * keeps the forward conv's layout {@code [C_y, C_out/groups, k...]} (PyTorch's conv-transpose
     * weight layout); the result is {@code conv(y, k', strides 1, inputDilation = strides,
     * padding (k_eff-1-lo, k_eff-1-hi+outputPadding))} with {@code k'} spatially flipped and its
     * channel axes swapped per group. Output spatial size: {@code (o-1)*s + k_eff - lo - hi + outputPadding};
     * {@code SAME} uses the forward SAME pads and gives {@code o*s}.
     */
    static Tensor convTranspose(Tensor y, Tensor kernel, ConvOptions o) {
        Tensor[] on = CommonEngine.of(TRANSPOSE, y, kernel);
        y = on[0];
        kernel = on[1];
        checkRanks(TRANSPOSE, y.shape(), kernel.shape());
        int r = y.rank();
        int sr = r - 2;
        if (o.batchGroupSize() != 1) {
            throw new JBurnException(TRANSPOSE, "batch groups are not supported by convTranspose, got batch_group_size = "
                    + o.batchGroupSize());
        }
        for (int d : o.inputDilation()) {
            if (d != 1) {
                throw new JBurnException(TRANSPOSE, "input dilation is not supported by convTranspose (its strides dilate the input),"
                        + " got " + Arrays.toString(o.inputDilation()));
            }
        }
        int[] inPerm = permutation(TRANSPOSE, "input", o.inputPermutation(), y.shape());
        int[] kPerm = permutation(TRANSPOSE, "kernel", o.kernelPermutation(), kernel.shape());
        int[] outPerm = permutation(TRANSPOSE, "output", o.outputPermutation(), y.shape());
        Shape in = permuted(y.shape(), inPerm);
        Shape k = permuted(kernel.shape(), kPerm);
        int groups = o.featureGroupSize();
        int cy = in.dim(1);
        if (k.dim(0) != cy) {
            throw new JBurnException(TRANSPOSE, "the kernel's leading (input) channel axis must match the input channels, got "
                    + k.dim(0) + " != " + cy + " for shapes " + in + " and " + k + " (kernel layout [C_in, C_out/groups, k...])");
        }
        if (cy % groups != 0) {
            throw new JBurnException(TRANSPOSE, "size of input channels must be evenly divisible by feature groups, got rem("
                    + cy + ", " + groups + ") != 0 for shape " + in);
        }
        int[] strides = WindowOps.perAxis(TRANSPOSE, "stride", o.strides(), sr, in);
        int[] kDil = WindowOps.perAxis(TRANSPOSE, "kernel dilation", o.kernelDilation(), sr, k);
        int[] outPad = WindowOps.perAxis(TRANSPOSE, "output padding", o.outputPadding(), sr, in);
        int[] kEff = kernelExtent(TRANSPOSE, k, kDil);
        boolean same = o.padding().mode() == Padding.Mode.SAME;
        int[][] pad = o.padding().resolve(TRANSPOSE, kEff, true, in);
        int[] loT = new int[sr], hiT = new int[sr], out = new int[r];
        out[0] = in.dim(0);
        out[1] = k.dim(1) * groups;
        for (int i = 0; i < sr; i++) {
            if (outPad[i] >= strides[i] || (same && outPad[i] != 0)) {
                throw new JBurnException(TRANSPOSE, "output padding must be smaller than the stride" + (same ? " and 0 with SAME padding" : "")
                        + ", got output padding " + Arrays.toString(o.outputPadding()) + " with strides " + Arrays.toString(strides));
            }
            int extra = same ? strides[i] - 1 : outPad[i];
            int n = in.dim(i + 2);
            long size = (long) (n - 1) * strides[i] + kEff[i] - pad[0][i] - pad[1][i] + extra;
            if (n == 0 || size < 1 || size > Integer.MAX_VALUE) {
                throw new JBurnException(TRANSPOSE, "convTranspose would result in an output of size " + (n == 0 ? 0 : size)
                        + " on spatial axis " + i + ": input " + in + ", kernel " + k + ", strides " + Arrays.toString(strides)
                        + ", padding " + o.padding());
            }
            out[i + 2] = (int) size;
            loT[i] = kEff[i] - 1 - pad[0][i];
            hiT[i] = kEff[i] - 1 - pad[1][i] + extra;
        }
        ConvSpec spec = new ConvSpec(WindowOps.ones(sr), loT, hiT, strides, kDil, groups, 1);
        try (Tensor ci = y.transpose(inPerm); Tensor ck = kernel.transpose(kPerm);
             Tensor flipped = adjointKernel(ck, groups);
             Tensor canonical = run(ci, flipped, spec, Shape.of(out))) {
            return canonical.transpose(inverse(outPerm));
        }
    }

    /**
     * {@code [C_y, C_x/g, k...]} to {@code [C_x, C_y/g, k...]}: within each group the two channel
     * axes swap, and every spatial axis is reversed.
     */
    private static Tensor adjointKernel(Tensor k, int groups) {
        int[] d = k.shape().dims();
        int sr = d.length - 2;
        int[] split = new int[d.length + 1];
        split[0] = groups;
        split[1] = d[0] / groups;
        split[2] = d[1];
        System.arraycopy(d, 2, split, 3, sr);
        int[] perm = new int[split.length];
        perm[0] = 0;
        perm[1] = 2;
        perm[2] = 1;
        for (int i = 3; i < perm.length; i++) perm[i] = i;
        int[] merged = d.clone();
        merged[0] = d[1] * groups;
        merged[1] = d[0] / groups;
        int[] spatial = new int[sr];
        for (int i = 0; i < sr; i++) spatial[i] = i + 2;
        try (Tensor s = k.reshape(Shape.of(split)); Tensor t = s.transpose(perm); Tensor m = t.reshape(Shape.of(merged))) {
            return m.reverse(spatial);
        }
    }

    /** Casts canonical operands to the output type and runs the backend. */
    private static Tensor run(Tensor input, Tensor kernel, ConvSpec spec, Shape out) {
        DType type = DType.merge(input.dtype(), kernel.dtype()).toFloating();
        try (Tensor ci = input.asType(type); Tensor ck = kernel.asType(type)) {
            if (out.size() == 0) return Tensor.wrap(input.engine(), input.backend().allocate(0), type, out);
            if (spec.featureGroups() == 1 && spec.batchGroups() == 1 && Decompositions.lacks(ci, ConvOp.CONV, type)) {
                return Decompositions.differentiatedAs(new dev.jburn.graph.Prim.Conv(spec, type), java.util.List.of(ci, ck),
                        Decompositions.conv(ci, ck, spec, out));
            }
            return Tensor.wrap(input.engine(), input.backend().conv(ci.operand(), ck.operand(), spec, type), type, out);
        }
    }

    // ---- validation -----------------------------------------------------------------------------

    private static void checkRanks(String op, Shape input, Shape kernel) {
        if (input.rank() < 3) {
            throw new JBurnException(op, "input shape in " + op + " requires at least rank 3, shape " + input + " has rank " + input.rank());
        }
        if (kernel.rank() < 3) {
            throw new JBurnException(op, "kernel shape in " + op + " requires at least rank 3, shape " + kernel + " has rank " + kernel.rank());
        }
        if (input.rank() != kernel.rank()) {
            throw new JBurnException(op, "input and kernel must have the same rank, got shapes " + input + " and " + kernel);
        }
    }

    /** Nx's group checks, in Nx's order, on canonical shapes. */
    private static void checkGroups(String op, Shape in, Shape k, int featureGroups, int batchGroups) {
        int batch = in.dim(0), channels = in.dim(1), kernelIn = k.dim(1), kernelOut = k.dim(0);
        if (batchGroups != 1 && featureGroups != 1) {
            throw new JBurnException(op, "either batch groups or feature groups must be 1, got batch_groups = " + batchGroups
                    + " and feature_groups = " + featureGroups);
        }
        if (batch % batchGroups != 0) {
            throw new JBurnException(op, "batch groups must evenly divide input batch size, got rem(" + batch + ", " + batchGroups
                    + ") != 0 for shape " + in);
        }
        if (kernelOut % featureGroups != 0) {
            throw new JBurnException(op, "size of kernel output channels must be evenly divisible by feature groups, got rem("
                    + kernelOut + ", " + featureGroups + ") != 0 for kernel with shape " + k);
        }
        if (kernelOut % batchGroups != 0) {
            throw new JBurnException(op, "size of kernel output channels must be evenly divisible by batch groups, got rem("
                    + kernelOut + ", " + batchGroups + ") != 0 for kernel with shape " + k);
        }
        if ((long) kernelIn * featureGroups != channels) {
            throw new JBurnException(op, "size of input channels divided by feature groups must match size of kernel channels, got "
                    + channels + " / " + featureGroups + " != " + kernelIn + " for shapes " + in + " and " + k);
        }
    }

    /** Dilated kernel sizes {@code (k-1)*d + 1}; spatial kernel axes must be non-empty. */
    private static int[] kernelExtent(String op, Shape k, int[] kDil) {
        int sr = k.rank() - 2;
        int[] eff = new int[sr];
        for (int i = 0; i < sr; i++) {
            int size = k.dim(i + 2);
            if (size < 1) throw new JBurnException(op, "kernel spatial dimensions must be positive, got kernel shape " + k);
            eff[i] = WindowOps.effectiveSize(op, size, kDil[i]);
        }
        return eff;
    }

    /** {@code floor((in_eff + lo + hi - k_eff)/s) + 1} on spatial axis {@code i}, which must be positive unless the input axis is empty. */
    private static int spatialOut(String op, Shape in, Shape k, int i, int inDil, int lo, int hi, int kEff, int stride) {
        int n = in.dim(i + 2);
        long inEff = n == 0 ? 0 : (long) (n - 1) * inDil + 1;
        if (inEff > Integer.MAX_VALUE) throw new JBurnException(op, "dilated input size " + inEff + " is too large");
        int out = WindowOps.outputSize((int) inEff, lo, hi, kEff, stride);
        if (out < 0) {
            throw new JBurnException(op, "conv would result in empty tensor: spatial axis " + i + " of input " + in
                    + " (dilated size " + inEff + ", padding " + lo + ", " + hi + ") is smaller than the dilated kernel size "
                    + kEff + " of kernel " + k);
        }
        return out;
    }

    /** A validated permutation of {@code [0, rank)}; {@code null} is the identity. */
    private static int[] permutation(String op, String which, int[] perm, Shape s) {
        int r = s.rank();
        if (perm == null) return s.allAxes();
        if (perm.length != r) {
            throw new JBurnException(op, "expected length of " + which + " permutation (" + perm.length + ") to match rank of shape ("
                    + r + "), got " + Arrays.toString(perm) + " for shape " + s);
        }
        boolean[] seen = new boolean[r];
        for (int p : perm) {
            if (p < 0 || p >= r || seen[p]) {
                throw new JBurnException(op, which + " permutation " + Arrays.toString(perm) + " must hold each axis of 0 to "
                        + (r - 1) + " once, for shape " + s);
            }
            seen[p] = true;
        }
        return perm.clone();
    }

    private static Shape permuted(Shape s, int[] perm) {
        int[] d = new int[perm.length];
        for (int i = 0; i < perm.length; i++) d[i] = s.dim(perm[i]);
        return Shape.of(d);
    }

    /** {@code inv[perm[i]] = i}: the transpose that puts canonical axis {@code i} at position {@code perm[i]}. */
    private static int[] inverse(int[] perm) {
        int[] inv = new int[perm.length];
        for (int i = 0; i < perm.length; i++) inv[perm[i]] = i;
        return inv;
    }
}
