package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.AlphaDropout;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.nn.layers.GroupNorm;
import dev.jburn.nn.layers.InstanceNorm;
import dev.jburn.nn.layers.LayerNorm;
import dev.jburn.nn.layers.RmsNorm;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

import static dev.jburn.conformance.LayerCases.input;

/**
 * Layer cases of the normalization kinds (batch, layer, group, instance and RMS norm) and alpha
 * dropout. Each formula computes its statistics with direct loops: the mean and the biased
 * variance of every group of elements that share a statistic.
 */
final class NormLayerCases {
    private NormLayerCases() {}

    static List<LayerCase> cases(long seed) {
        java.util.Random r = new java.util.Random(seed * 6151 + 3);
        List<LayerCase> c = new ArrayList<>();

        // ---- batch norm: inference on the running statistics, training on the batch's and the Keras update
        {
            int b = 2 + r.nextInt(3), f = 1 + r.nextInt(4);
            BatchNorm bn = randomized(BatchNorm.of());
            c.add(batchNorm("[b, f], defaults", bn, List.of(input(r, b, f)), new int[] {b, f}, 1));
        }
        {
            int b = 2, h = 1 + r.nextInt(2), w = 2 + r.nextInt(2), ch = 1 + r.nextInt(3);
            BatchNorm bn = randomized(BatchNorm.of()).withMomentum(0.9).withEpsilon(1e-5);
            c.add(batchNorm("channels-last [b, h, w, c], momentum 0.9, epsilon 1e-5", bn, List.of(input(r, b, h, w, ch)),
                    new int[] {b, h, w, ch}, 3));
        }
        {
            int b = 2 + r.nextInt(2), ch = 2 + r.nextInt(2), l = 1 + r.nextInt(3);
            BatchNorm bn = randomized(BatchNorm.of()).withAxis(1).withCenter(false).withMomentum(0.5);
            c.add(batchNorm("channels-first [b, c, l], axis 1, no beta, momentum 0.5", bn, List.of(input(r, b, ch, l)),
                    new int[] {b, ch, l}, 1));
        }
        {
            int b = 3, t = 2, f = 2;
            BatchNorm bn = randomized(BatchNorm.of()).withAxis(-2).withScale(false).withEpsilon(0.1);
            c.add(batchNorm("[b, t, f], axis -2, no gamma, epsilon 0.1", bn, List.of(input(r, b, t, f)), new int[] {b, t, f}, 1));
        }

        // ---- layer norm
        {
            int b = 1 + r.nextInt(3), f = 2 + r.nextInt(4);
            LayerNorm ln = LayerNorm.of().withGammaInitializer(Initializers.normal(1, 0.5)).withBetaInitializer(Initializers.normal(0, 0.5));
            c.add(trailingNorm("layer_norm", "[b, f], defaults", Model.input("x", Shape.of(-1, f), DType.F64).apply(ln),
                    input(r, b, f), new int[] {b, f}, 1, 1e-5, true, true));
        }
        {
            int b = 1 + r.nextInt(2), t = 2 + r.nextInt(2), f = 1 + r.nextInt(3);
            LayerNorm ln = LayerNorm.of().withAxes(2).withEpsilon(1e-3).withCenter(false).withGammaInitializer(Initializers.normal(1, 0.5));
            c.add(trailingNorm("layer_norm", "[b, t, f] over 2 axes, epsilon 1e-3, no beta", Model.input("x", Shape.of(-1, t, f), DType.F64).apply(ln),
                    input(r, b, t, f), new int[] {b, t, f}, 2, 1e-3, true, false));
        }
        {
            int b = 2, t = 1 + r.nextInt(3), f = 2 + r.nextInt(3);
            LayerNorm ln = LayerNorm.of().withScale(false).withBetaInitializer(Initializers.normal(0, 0.5));
            c.add(trailingNorm("layer_norm", "[b, t, f], no gamma", Model.input("x", Shape.of(-1, -1, f), DType.F64).apply(ln),
                    input(r, b, t, f), new int[] {b, t, f}, 1, 1e-5, false, true));
        }

        // ---- RMS norm
        {
            int b = 1 + r.nextInt(3), f = 1 + r.nextInt(5);
            RmsNorm rn = RmsNorm.of().withGammaInitializer(Initializers.normal(1, 0.5));
            c.add(rmsNorm("[b, f], defaults", Model.input("x", Shape.of(-1, f), DType.F64).apply(rn), input(r, b, f), new int[] {b, f}, 1, 1e-6, true));
        }
        {
            int b = 2, t = 2, f = 1 + r.nextInt(3);
            RmsNorm rn = RmsNorm.of().withAxes(2).withScale(false).withEpsilon(1e-2);
            c.add(rmsNorm("[b, t, f] over 2 axes, no gamma, epsilon 1e-2", Model.input("x", Shape.of(-1, t, f), DType.F64).apply(rn),
                    input(r, b, t, f), new int[] {b, t, f}, 2, 1e-2, false));
        }

        // ---- group norm
        {
            int b = 1 + r.nextInt(2), h = 1 + r.nextInt(2), w = 1 + r.nextInt(3), groups = 2, ch = 2 * (1 + r.nextInt(2));
            GroupNorm gn = randomized(GroupNorm.of(groups));
            c.add(groupNorm("channels-last [b, h, w, c], " + groups + " groups of " + ch, gn, input(r, b, h, w, ch), new int[] {b, h, w, ch},
                    3, groups, 1e-5, true, true));
        }
        {
            int b = 2, ch = 6, l = 1 + r.nextInt(3), groups = 3;
            GroupNorm gn = randomized(GroupNorm.of(groups)).withAxis(1).withEpsilon(1e-3);
            c.add(groupNorm("channels-first [b, c, l], 3 groups of 6, epsilon 1e-3", gn, input(r, b, ch, l), new int[] {b, ch, l},
                    1, groups, 1e-3, true, true));
        }
        {
            int b = 1 + r.nextInt(3), ch = 2 + r.nextInt(3);
            GroupNorm gn = randomized(GroupNorm.of(1)).withCenter(false);
            c.add(groupNorm("[b, c], 1 group, no beta", gn, input(r, b, ch), new int[] {b, ch}, 1, 1, 1e-5, true, false));
        }
        {
            int b = 2, l = 2 + r.nextInt(2), ch = 3;
            GroupNorm gn = GroupNorm.of(3).withScale(false).withBetaInitializer(Initializers.normal(0, 0.5));
            c.add(groupNorm("[b, l, c], groups = channels, no gamma", gn, input(r, b, l, ch), new int[] {b, l, ch}, 2, 3, 1e-5, false, true));
        }

        // ---- instance norm: a group norm with one channel per group, over the spatial axes only
        {
            int b = 1 + r.nextInt(2), h = 2, w = 1 + r.nextInt(3), ch = 1 + r.nextInt(3);
            InstanceNorm in = InstanceNorm.of().withGammaInitializer(Initializers.normal(1, 0.5)).withBetaInitializer(Initializers.normal(0, 0.5));
            c.add(instanceNorm("channels-last [b, h, w, c], affine", in, input(r, b, h, w, ch), new int[] {b, h, w, ch}, 3, 1e-5, true));
        }
        {
            int b = 2, ch = 1 + r.nextInt(3), l = 2 + r.nextInt(3);
            InstanceNorm in = InstanceNorm.of().withAxis(1).withAffine(false).withEpsilon(1e-3);
            c.add(instanceNorm("channels-first [b, c, l], no affine, epsilon 1e-3", in, input(r, b, ch, l), new int[] {b, ch, l}, 1, 1e-3, false));
        }

        // ---- alpha dropout: identity in inference; a·x + b or a·α' + b in training
        {
            int b = 1 + r.nextInt(3);
            double rate = 0.25 + 0.5 * r.nextDouble();
            c.add(LayerCase.of("alpha_dropout", "rate " + rate, Model.input("x", Shape.of(-1, 64), DType.F64).alphaDropout(rate),
                    List.of(input(r, b, 64)), v -> new LayerCase.Expected(v.x(0).clone(), Shape.of(b, 64)))
                    .withTraining(run -> checkAlphaDropout(run, rate)));
        }
        return c;
    }

    private static BatchNorm randomized(BatchNorm bn) {
        return bn.withGammaInitializer(Initializers.normal(1, 0.5)).withBetaInitializer(Initializers.normal(0, 0.5))
                .withMeanInitializer(Initializers.normal(0, 0.5)).withVarInitializer(Initializers.uniform(0.5, 2));
    }

    private static GroupNorm randomized(GroupNorm gn) {
        return gn.withGammaInitializer(Initializers.normal(1, 0.5)).withBetaInitializer(Initializers.normal(0, 0.5));
    }

    // ==== batch norm ==============================================================================

    private static LayerCase batchNorm(String label, BatchNorm bn, List<LayerCase.Input> in, int[] dims, int featureAxis) {
        Model m = Model.input("x", Shape.of(open0(dims)), DType.F64).apply(bn);
        int fa = featureAxis;
        return LayerCase.of("batch_norm", label, m, in, v -> {
            double[] mean = v.p("batch_norm_0.mean"), var = v.p("batch_norm_0.var");
            return new LayerCase.Expected(batchNormOut(v, bn, dims, fa, mean, var), Shape.of(dims));
        }).withTraining(run -> {
            LayerCase.Values v = run.values();
            double[][] st = stats(v.x(0), dims, idx -> idx[fa], dims[fa]);
            LayerContract.close(run.trainingA(), batchNormOut(v, bn, dims, fa, st[0], st[1]), 1e-9, "training output (batch statistics)");
            LayerContract.close(run.trainingB(), run.trainingA(), 0, "batch norm draws nothing random: the same output for every key");
            double[] rm = v.p("batch_norm_0.mean"), rv = v.p("batch_norm_0.var");
            double[] em = new double[rm.length], ev = new double[rv.length];
            for (int k = 0; k < rm.length; k++) {
                em[k] = bn.momentum() * rm[k] + (1 - bn.momentum()) * st[0][k];
                ev[k] = bn.momentum() * rv[k] + (1 - bn.momentum()) * st[1][k];
            }
            LayerContract.close(run.updatedState().get("batch_norm_0.mean"), em, 1e-12,
                    "updated mean = momentum·mean + (1 - momentum)·batch mean");
            LayerContract.close(run.updatedState().get("batch_norm_0.var"), ev, 1e-12,
                    "updated var = momentum·var + (1 - momentum)·biased batch variance");
        });
    }

    private static double[] batchNormOut(LayerCase.Values v, BatchNorm bn, int[] dims, int fa, double[] mean, double[] var) {
        double[] x = v.x(0), y = new double[x.length];
        double[] g = bn.scale() ? v.p("batch_norm_0.gamma") : null, be = bn.center() ? v.p("batch_norm_0.beta") : null;
        for (int i = 0; i < x.length; i++) {
            int k = unflat(dims, i)[fa];
            double t = (x[i] - mean[k]) / Math.sqrt(var[k] + bn.epsilon());
            if (g != null) t *= g[k];
            if (be != null) t += be[k];
            y[i] = t;
        }
        return y;
    }

    // ==== layer norm, RMS norm ====================================================================

    private static LayerCase trailingNorm(String kind, String label, Model m, LayerCase.Input in, int[] dims, int axes, double eps,
                                          boolean scale, boolean center) {
        return LayerCase.of(kind, label, m, List.of(in), v -> {
            int inner = 1;
            for (int i = dims.length - axes; i < dims.length; i++) inner *= dims[i];
            final int n = inner;
            double[] x = v.x(0), y = new double[x.length];
            double[][] st = stats(x, dims, idx -> flat(dims, idx) / n, x.length / n);
            double[] g = scale ? v.p("layer_norm_0.gamma") : null, be = center ? v.p("layer_norm_0.beta") : null;
            for (int i = 0; i < x.length; i++) {
                int row = i / n, k = i % n;
                double t = (x[i] - st[0][row]) / Math.sqrt(st[1][row] + eps);
                if (g != null) t *= g[k];
                if (be != null) t += be[k];
                y[i] = t;
            }
            return new LayerCase.Expected(y, Shape.of(dims));
        });
    }

    private static LayerCase rmsNorm(String label, Model m, LayerCase.Input in, int[] dims, int axes, double eps, boolean scale) {
        return LayerCase.of("rms_norm", label, m, List.of(in), v -> {
            int n = 1;
            for (int i = dims.length - axes; i < dims.length; i++) n *= dims[i];
            double[] x = v.x(0), y = new double[x.length];
            double[] g = scale ? v.p("rms_norm_0.gamma") : null;
            for (int row = 0; row < x.length / n; row++) {
                double ms = 0;
                for (int k = 0; k < n; k++) ms += x[row * n + k] * x[row * n + k];
                ms /= n;
                for (int k = 0; k < n; k++) {
                    double t = x[row * n + k] / Math.sqrt(ms + eps);
                    y[row * n + k] = g != null ? t * g[k] : t;
                }
            }
            return new LayerCase.Expected(y, Shape.of(dims));
        });
    }

    // ==== group norm, instance norm ===============================================================

    private static LayerCase groupNorm(String label, GroupNorm gn, LayerCase.Input in, int[] dims, int ca, int groups, double eps,
                                       boolean scale, boolean center) {
        Model m = Model.input("x", Shape.of(open0(dims)), DType.F64).apply(gn);
        int per = dims[ca] / groups;
        return LayerCase.of("group_norm", label, m, List.of(in), v -> new LayerCase.Expected(
                perChannel(v, dims, ca, idx -> idx[0] * groups + idx[ca] / per, dims[0] * groups, eps,
                        scale ? v.p("group_norm_0.gamma") : null, center ? v.p("group_norm_0.beta") : null), Shape.of(dims)));
    }

    private static LayerCase instanceNorm(String label, InstanceNorm inorm, LayerCase.Input in, int[] dims, int ca, double eps, boolean affine) {
        Model m = Model.input("x", Shape.of(open0(dims)), DType.F64).apply(inorm);
        return LayerCase.of("instance_norm", label, m, List.of(in), v -> new LayerCase.Expected(
                perChannel(v, dims, ca, idx -> idx[0] * dims[ca] + idx[ca], dims[0] * dims[ca], eps,
                        affine ? v.p("instance_norm_0.gamma") : null, affine ? v.p("instance_norm_0.beta") : null), Shape.of(dims)));
    }

    /** Standardized per group ({@code key}), then per-channel (axis {@code ca}) gamma and beta when given. */
    private static double[] perChannel(LayerCase.Values v, int[] dims, int ca, ToIntFunction<int[]> key, int groups, double eps,
                                       double[] gamma, double[] beta) {
        double[] x = v.x(0), y = new double[x.length];
        double[][] st = stats(x, dims, key, groups);
        for (int i = 0; i < x.length; i++) {
            int[] idx = unflat(dims, i);
            int g = key.applyAsInt(idx), ch = idx[ca];
            double t = (x[i] - st[0][g]) / Math.sqrt(st[1][g] + eps);
            if (gamma != null) t *= gamma[ch];
            if (beta != null) t += beta[ch];
            y[i] = t;
        }
        return y;
    }

    // ==== alpha dropout ===========================================================================

    private static void checkAlphaDropout(LayerCase.TrainingRun run, double rate) {
        double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
        double ap = -scale * alpha;
        double a = 1 / Math.sqrt((1 - rate) * (1 + rate * ap * ap)), b = -a * ap * rate;
        double dropped = a * ap + b;
        double[] x = run.values().x(0), t = run.trainingA();
        int drops = 0;
        for (int i = 0; i < x.length; i++) {
            double kept = a * x[i] + b;
            if (Math.abs(t[i] - dropped) <= 1e-12 * (1 + Math.abs(dropped))) drops++;
            else if (!(Math.abs(t[i] - kept) <= 1e-12 * (1 + Math.abs(kept)))) {
                throw new AssertionError("element " + i + " is " + t[i] + ": neither a·x + b = " + kept + " (kept) nor a·α' + b = " + dropped + " (dropped)");
            }
        }
        if (drops == 0 || drops == x.length) throw new AssertionError(drops + " of " + x.length + " dropped at rate " + rate);
        if (java.util.Arrays.equals(t, run.trainingB())) throw new AssertionError("two keys gave the same mask");
    }

    // ==== helpers =================================================================================

    /** {@code [means, biased variances]} of the groups {@code key} assigns, by direct sums. */
    static double[][] stats(double[] x, int[] dims, ToIntFunction<int[]> key, int groups) {
        double[] sum = new double[groups], count = new double[groups], var = new double[groups];
        for (int i = 0; i < x.length; i++) {
            int g = key.applyAsInt(unflat(dims, i));
            sum[g] += x[i];
            count[g]++;
        }
        double[] mean = new double[groups];
        for (int g = 0; g < groups; g++) mean[g] = sum[g] / count[g];
        for (int i = 0; i < x.length; i++) {
            int g = key.applyAsInt(unflat(dims, i));
            var[g] += (x[i] - mean[g]) * (x[i] - mean[g]);
        }
        for (int g = 0; g < groups; g++) var[g] /= count[g];
        return new double[][] {mean, var};
    }

    /** The index tuple of row-major flat index {@code f} in {@code dims}. */
    static int[] unflat(int[] dims, int f) {
        int[] idx = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            idx[i] = f % dims[i];
            f /= dims[i];
        }
        return idx;
    }

    static int flat(int[] dims, int[] idx) { return LayerCases.flat(dims, idx); }

    /** {@code dims} with the batch axis open. */
    static int[] open0(int[] dims) {
        int[] d = dims.clone();
        d[0] = -1;
        return d;
    }
}
