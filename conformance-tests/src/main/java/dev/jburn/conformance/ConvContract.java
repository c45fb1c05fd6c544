package dev.jburn.conformance;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

import java.util.Arrays;
import java.util.List;

/**
 * {@code conv} and {@code convTranspose}: random spatial rank 1 or 2 (3 now and then, small),
 * strides, padding ({@code VALID}, {@code SAME}, explicit pairs with negative amounts that crop),
 * input and kernel dilation, feature groups and batch groups, channels-first and channels-last
 * layouts (and spatial-first kernels) match the oracle within the accumulation allowance of the
 * terms of one output element, float and integer inputs. Laws: a channels-first conv equals a
 * direct loop written in the kit (in double); a 1×1 identity kernel is the identity;
 * {@code convTranspose} is {@code conv}'s adjoint: {@code <conv(x, k), y> = <x, convTranspose(y, k)>}.
 * Mismatched channels and groups name the op.
 */
public interface ConvContract extends EngineContract {

    /** Examples per conv property: each example runs a few hundred multiply-adds on two engines. */
    int CONV_EXAMPLES = 80;

    /**
     * A convolution in canonical terms (channels first) and its layouts: {@code x} and {@code k}
     * are stored permuted by {@code inPerm} / {@code kPerm} (null: canonical).
     */
    record ConvCase(TensorCase x, TensorCase k, int[] strides, int[] lo, int[] hi, boolean same, int[] inDil, int[] kDil,
                    int groups, int batchGroups, int[] inPerm, int[] kPerm, int[] outPerm) {
        ConvOptions options() {
            Padding p = same ? Padding.SAME : Padding.explicit(pairs());
            ConvOptions o = ConvOptions.defaults().withStrides(strides).withPadding(p).withInputDilation(inDil)
                    .withKernelDilation(kDil).withFeatureGroupSize(groups).withBatchGroupSize(batchGroups);
            if (inPerm != null) o = o.withInputPermutation(inPerm);
            if (kPerm != null) o = o.withKernelPermutation(kPerm);
            if (outPerm != null) o = o.withOutputPermutation(outPerm);
            return o;
        }

        private int[][] pairs() {
            int[][] p = new int[lo.length][];
            for (int i = 0; i < lo.length; i++) p[i] = new int[] {lo[i], hi[i]};
            return p;
        }

        /** Multiply-adds per output element: input channels per group times the kernel's spatial size. */
        long terms() {
            long n = 1;
            for (int d : k.shape().dims()) n *= d;
            return n / k.shape().dim(kPerm == null ? 0 : kPerm[0]);
        }

        @Override
        public String toString() {
            return "conv(" + x + ", " + k + ", " + options() + ")";
        }
    }

    @Test
    @Covers("conv")
    default void convMatchesTheOracle() {
        Props.forAll(convCases(true), CONV_EXAMPLES, c -> Oracle.check(engine(), c, tolerance(c), List.of(c.x(), c.k()),
                in -> List.of(in.get(0).conv(in.get(1), c.options()))));
    }

    @Test
    @Covers("conv")
    default void convEqualsADirectLoop() {
        Props.forAll(convCases(false), CONV_EXAMPLES, c -> {
            TensorCase expected = direct(c);
            Tensor got = c.x().on(engine()).conv(c.k().on(engine()), c.options());
            TensorAssert.assertClose(c + " vs the kit's loop", expected, got, tolerance(c), c.x(), c.k());
        });
    }

    @Test
    @Covers("conv")
    default void aOneByOneIdentityKernelIsTheIdentity() {
        Gen<TensorCase> images = rs -> {
            int spatial = Axes.between(rs, 1, 2);
            int[] dims = new int[spatial + 2];
            dims[0] = Axes.between(rs, 1, 3);
            dims[1] = Axes.between(rs, 1, 4);
            for (int i = 2; i < dims.length; i++) dims[i] = Axes.between(rs, 1, 5);
            return Generators.values(Generators.oneOf(DType.F32, DType.F64).generate(rs), Shape.of(dims), Elements.Mix.FINITE).generate(rs);
        };
        Props.forAll(images, CONV_EXAMPLES, x -> {
            int c = x.shape().dim(1), rank = x.shape().rank();
            int[] kd = new int[rank];
            Arrays.fill(kd, 1);
            kd[0] = c;
            kd[1] = c;
            Tensor eye = Tensor.eye(c, x.dtype()).reshape(kd).to(engine());
            // finite values only: Inf times the zeros of the identity would give NaN
            TensorAssert.assertClose(x + " conv 1x1 identity", x, x.on(engine()).conv(eye), Tolerance.ARITHMETIC);
        });
    }

    /** A forward conv case, a {@code y} of its output shape, and the output padding that gives {@code convTranspose} x's size back. */
    record AdjointCase(ConvCase c, TensorCase y, int[] outputPadding) {
        @Override
        public String toString() { return c + ", y " + y + ", output padding " + Arrays.toString(outputPadding); }
    }

    @Test
    @Covers({"convTranspose", "conv"})
    default void convTransposeMatchesTheOracleAndIsTheAdjointOfConv() {
        Gen<AdjointCase> cases = rs -> {
            ConvCase c = adjointCase(rs);
            return new AdjointCase(c, Generators.values(DType.F64, outShape(c), Elements.Mix.SMALL).generate(rs), outputPadding(c));
        };
        Props.forAll(cases, CONV_EXAMPLES, a -> {
            ConvCase c = a.c();
            TensorCase x = c.x(), k = c.k(), y = a.y();
            ConvOptions o = c.options().withOutputPadding(a.outputPadding());
            String what = a.toString();
            Oracle.check(engine(), "convTranspose of " + what, Tolerance.accumulation(DType.F64, c.terms() * 4, c.terms() * 4 * Specs.maxAbs(y) * Specs.maxAbs(k)),
                    List.of(y, k), t -> List.of(t.get(0).convTranspose(t.get(1), o)));
            Tensor xe = x.on(engine()), ke = k.on(engine()), ye = y.on(engine());
            double[] cx = xe.conv(ke, c.options()).toDoubleArray(), yv = ye.toDoubleArray();
            double[] ty = ye.convTranspose(ke, o).toDoubleArray(), xv = xe.toDoubleArray();
            Assertions.assertEquals(yv.length, cx.length, what + ": conv's output has y's size");
            Assertions.assertEquals(xv.length, ty.length, what + ": convTranspose's output has x's size");
            double left = 0, right = 0, scale = 0;
            for (int i = 0; i < yv.length; i++) left += cx[i] * yv[i];
            for (int i = 0; i < xv.length; i++) {
                right += xv[i] * ty[i];
                scale += Math.abs(xv[i]);
            }
            double bound = 1e-12 * scale * Specs.maxAbs(k) * c.terms() * Math.max(1, Specs.sumAbs(y));
            Assertions.assertTrue(Math.abs(left - right) <= bound,
                    what + ": <conv(x, k), y> = " + left + " but <x, convTranspose(y, k)> = " + right);
        });
    }

    @Test
    @Covers({"conv", "convTranspose"})
    default void mismatchedChannelsAndGroupsNameTheOp() {
        Props.forAll(Generators.oneOf(DType.F32, DType.F64), 20, t -> {
            TensorCase x = Specs.zeros(t, Shape.of(1, 3, 4)), k = Specs.zeros(t, Shape.of(2, 2, 2));
            Oracle.checkFails(engine(), "conv(" + x.shape() + ", " + k.shape() + ")", List.of(x, k), "conv", in -> in.get(0).conv(in.get(1)));
            TensorCase k3 = Specs.zeros(t, Shape.of(2, 3, 2));
            Oracle.checkFails(engine(), "conv with 2 feature groups of 3 channels", List.of(x, k3), "conv",
                    in -> in.get(0).conv(in.get(1), ConvOptions.defaults().withFeatureGroupSize(2)));
            Oracle.checkFails(engine(), "conv with 2 batch groups of a batch of 1", List.of(x, k3), "conv",
                    in -> in.get(0).conv(in.get(1), ConvOptions.defaults().withBatchGroupSize(2)));
            Oracle.checkFails(engine(), "conv of a rank-2 input", List.of(Specs.zeros(t, Shape.of(3, 4)), k3), "conv",
                    in -> in.get(0).conv(in.get(1)), "rank");
            Oracle.checkFails(engine(), "convTranspose(" + x.shape() + ", " + k.shape() + ")", List.of(x, k), "convTranspose",
                    in -> in.get(0).convTranspose(in.get(1)));
        });
    }

    // ---- generators -----------------------------------------------------------------------------

    /** Conv cases; {@code layouts}: also channels-last inputs/outputs and spatial-first kernels, and integer inputs. */
    private static Gen<ConvCase> convCases(boolean layouts) {
        return rs -> {
            int spatial = Axes.oneIn(rs, 10) ? 3 : Axes.between(rs, 1, 2);
            int groups = 1, batchGroups = 1;
            int g = Axes.oneIn(rs, 3) ? 2 : 1;
            if (Axes.coin(rs)) groups = g;
            else batchGroups = g;
            int batch = batchGroups * Axes.between(rs, 1, 2);
            int cin = groups * Axes.between(rs, 1, 2);
            int cout = groups * batchGroups * Axes.between(rs, 1, 2);
            int[] in = new int[spatial], kk = new int[spatial], strides = new int[spatial], lo = new int[spatial], hi = new int[spatial];
            int[] inDil = new int[spatial], kDil = new int[spatial];
            boolean same = Axes.oneIn(rs, 4);
            for (int i = 0; i < spatial; i++) {
                in[i] = Axes.between(rs, 1, spatial == 3 ? 3 : 6);
                kk[i] = Axes.between(rs, 1, spatial == 3 ? 2 : 3);
                strides[i] = Axes.between(rs, 1, 2);
                inDil[i] = Axes.oneIn(rs, 4) ? 2 : 1;
                kDil[i] = Axes.oneIn(rs, 4) ? 2 : 1;
                lo[i] = Axes.between(rs, -1, 2);
                hi[i] = Axes.between(rs, -1, 2);
                int inEff = (in[i] - 1) * inDil[i] + 1, kEff = (kk[i] - 1) * kDil[i] + 1;
                if (inEff + lo[i] + hi[i] < kEff) hi[i] += kEff - (inEff + lo[i] + hi[i]);   // at least one output
            }
            DType tx, tk;
            if (layouts && Axes.oneIn(rs, 5)) {
                tx = Generators.oneOf(DType.S32, DType.S8, DType.U8).generate(rs);
                tk = Axes.coin(rs) ? tx : DType.F32;
            } else {
                tx = Generators.oneOf(DType.F32, DType.F64, DType.F32, DType.F64, DType.F16, DType.BF16).generate(rs);
                tk = Axes.oneIn(rs, 4) ? Generators.floatTypes().generate(rs) : tx;
            }
            Elements.Mix mix = tx.isFloat() ? Elements.Mix.BOUNDED : Elements.Mix.SMALL;
            int rank = spatial + 2;
            int[] inPerm = layouts && Axes.coin(rs) ? ConvOptions.channelsLast(rank) : null;
            int[] kPerm = layouts && Axes.oneIn(rs, 3) ? ConvOptions.kernelSpatialFirst(rank) : null;
            int[] outPerm = layouts && Axes.coin(rs) ? ConvOptions.channelsLast(rank) : null;
            TensorCase x = Generators.values(tx, laidOut(concat(batch, cin, in), inPerm), mix).generate(rs);
            TensorCase k = Generators.values(tk, laidOut(concat(cout, cin / groups, kk), kPerm), tk.isFloat() ? mix : Elements.Mix.SMALL).generate(rs);
            return new ConvCase(x, k, strides, lo, hi, same, inDil, kDil, groups, batchGroups, inPerm, kPerm, outPerm);
        };
    }

    /** Channels-first F64 cases without input dilation or batch groups (what convTranspose accepts), explicit padding. */
    private static ConvCase adjointCase(RandomnessSource rs) {
        int spatial = Axes.between(rs, 1, 2);
        int groups = Axes.oneIn(rs, 3) ? 2 : 1;
        int batch = Axes.between(rs, 1, 2), cin = groups * Axes.between(rs, 1, 2), cout = groups * Axes.between(rs, 1, 2);
        int[] in = new int[spatial], kk = new int[spatial], strides = new int[spatial], lo = new int[spatial], hi = new int[spatial];
        int[] ones = new int[spatial], kDil = new int[spatial];
        for (int i = 0; i < spatial; i++) {
            in[i] = Axes.between(rs, 1, 6);
            kk[i] = Axes.between(rs, 1, 3);
            strides[i] = Axes.between(rs, 1, 3);
            kDil[i] = Axes.oneIn(rs, 4) ? 2 : 1;
            ones[i] = 1;
            int kEff = (kk[i] - 1) * kDil[i] + 1;
            lo[i] = Axes.between(rs, -1, Math.max(-1, kEff - 1));
            hi[i] = Axes.between(rs, -1, Math.max(-1, kEff - 1));
            if (in[i] + lo[i] + hi[i] < kEff) hi[i] += kEff - (in[i] + lo[i] + hi[i]);
        }
        TensorCase x = Generators.values(DType.F64, Shape.of(concat(batch, cin, in)), Elements.Mix.SMALL).generate(rs);
        TensorCase k = Generators.values(DType.F64, Shape.of(concat(cout, cin / groups, kk)), Elements.Mix.SMALL).generate(rs);
        return new ConvCase(x, k, strides, lo, hi, false, ones, kDil, groups, 1, null, null, null);
    }

    // ---- the kit's own convolution --------------------------------------------------------------

    /** The canonical (channels-first, unpermuted) convolution in double, rounded to the result type; the inputs are cast to it first. */
    private static TensorCase direct(ConvCase c) {
        Shape xs = c.x().shape(), ks = c.k().shape(), os = outShape(c);
        int s = xs.rank() - 2;
        int[] lo = c.lo().clone();
        if (c.same()) for (int i = 0; i < s; i++) lo[i] = ((ks.dim(2 + i) - 1) * c.kDil()[i]) / 2;
        int cg = ks.dim(1), outPerGroup = ks.dim(0) / c.groups(), outPerBatchGroup = ks.dim(0) / c.batchGroups();
        int outBatch = os.dim(0);
        double[] out = new double[Math.toIntExact(os.size())];
        int kSpatial = 1;
        for (int i = 0; i < s; i++) kSpatial *= ks.dim(2 + i);
        Shape kWindow = Shape.of(Arrays.copyOfRange(ks.dims(), 2, 2 + s));
        for (int f = 0; f < out.length; f++) {
            int[] o = TensorAssert.index(os, f);
            int n = o[0], oc = o[1];
            int nIn = (oc / outPerBatchGroup) * outBatch + n;
            int cBase = (oc / outPerGroup) * cg;
            double acc = 0;
            for (int ci = 0; ci < cg; ci++) {
                for (int q = 0; q < kSpatial; q++) {
                    int[] qi = TensorAssert.index(kWindow, q);
                    int[] xi = new int[s + 2];
                    xi[0] = nIn;
                    xi[1] = cBase + ci;
                    boolean inside = true;
                    for (int i = 0; i < s && inside; i++) {
                        int pos = o[2 + i] * c.strides()[i] + qi[i] * c.kDil()[i] - lo[i];
                        inside = pos >= 0 && pos % c.inDil()[i] == 0 && pos / c.inDil()[i] < xs.dim(2 + i);
                        xi[2 + i] = inside ? pos / c.inDil()[i] : 0;
                    }
                    int[] ki = new int[s + 2];
                    ki[0] = oc;
                    ki[1] = ci;
                    System.arraycopy(qi, 0, ki, 2, s);
                    // padding and dilation holes are zeros that still multiply (Nx pads, then convolves): 0 * Inf = NaN
                    acc += (inside ? c.x().doubleAt((int) Specs.flat(xs, xi)) : 0.0) * c.k().doubleAt((int) Specs.flat(ks, ki));
                }
            }
            out[f] = acc;
        }
        return TensorCase.ofDoubles(resultType(c), os, out);
    }

    /** The canonical output shape [N / batchGroups, O, spatial...] (before the output permutation). */
    private static Shape outShape(ConvCase c) {
        int[] xs = canonical(c.x().shape(), c.inPerm()), ks = canonical(c.k().shape(), c.kPerm());
        int s = xs.length - 2;
        int[] out = new int[s + 2];
        out[0] = xs[0] / c.batchGroups();
        out[1] = ks[0];
        for (int i = 0; i < s; i++) {
            int inEff = (xs[2 + i] - 1) * c.inDil()[i] + 1, kEff = (ks[2 + i] - 1) * c.kDil()[i] + 1;
            int lo = c.same() ? (kEff - 1) / 2 : c.lo()[i], hi = c.same() ? kEff - 1 - lo : c.hi()[i];
            out[2 + i] = (inEff + lo + hi - kEff) / c.strides()[i] + 1;
        }
        return Shape.of(out);
    }

    /** The output padding per spatial axis that makes convTranspose's output as large as {@code c}'s input. */
    private static int[] outputPadding(ConvCase c) {
        int s = c.strides().length;
        int[] op = new int[s];
        for (int i = 0; i < s; i++) {
            int kEff = (c.k().shape().dim(2 + i) - 1) * c.kDil()[i] + 1;
            op[i] = (c.x().shape().dim(2 + i) + c.lo()[i] + c.hi()[i] - kEff) % c.strides()[i];
        }
        return op;
    }

    private static DType resultType(ConvCase c) { return DType.merge(c.x().dtype(), c.k().dtype()).toFloating(); }

    /** Exact for nothing (results are floats): the accumulation allowance of one output element's terms. */
    private static Tolerance tolerance(ConvCase c) {
        DType t = resultType(c);
        double mx = Specs.maxAbs(Specs.cast(c.x(), t)), mk = Specs.maxAbs(Specs.cast(c.k(), t));
        return Tolerance.accumulation(t, c.terms(), c.terms() * mx * mk);
    }

    private static int[] canonical(Shape s, int[] perm) {
        int[] d = new int[s.rank()];
        for (int i = 0; i < d.length; i++) d[i] = s.dim(perm == null ? i : perm[i]);
        return d;
    }

    /** The stored shape of canonical dims under {@code perm}: stored[perm[i]] = canonical[i]. */
    private static Shape laidOut(int[] canonical, int[] perm) {
        if (perm == null) return Shape.of(canonical);
        int[] d = new int[canonical.length];
        for (int i = 0; i < d.length; i++) d[perm[i]] = canonical[i];
        return Shape.of(d);
    }

    private static int[] concat(int a, int b, int[] rest) {
        int[] d = new int[rest.length + 2];
        d[0] = a;
        d[1] = b;
        System.arraycopy(rest, 0, d, 2, rest.length);
        return d;
    }
}
