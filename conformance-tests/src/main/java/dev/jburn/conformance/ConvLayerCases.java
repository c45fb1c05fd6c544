package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Layer;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.AdaptiveAvgPool;
import dev.jburn.nn.layers.Conv;
import dev.jburn.nn.layers.ConvTranspose;
import dev.jburn.nn.layers.DepthwiseConv;
import dev.jburn.nn.layers.GlobalPool;
import dev.jburn.nn.layers.Pool;
import dev.jburn.nn.layers.SeparableConv;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.jburn.conformance.LayerCases.input;

/**
 * Layer cases of the convolution and pooling kinds. The formulas are direct loops over output
 * positions in doubles, on channels-last arrays (channels-first cases transpose in and out with
 * loops): a convolution sums {@code x[b, o·stride + t·dilation - lo, group channel] · kernel[t, c, f]},
 * a transposed convolution scatters {@code x[b, i, c] · kernel[t, f, c]} to
 * {@code i·stride + t·dilation - lo}, pools reduce the real (non-padded) window elements. Keras's
 * {@code SAME} is written out: {@code out = ceil(in / stride)}, total padding
 * {@code max((out - 1)·stride + k_eff - in, 0)}, {@code floor} of half before; for a transposed
 * convolution {@code out = in·stride} and {@code lo = floor(max(k_eff - stride, 0) / 2)}.
 */
final class ConvLayerCases {
    private ConvLayerCases() {}

    static List<LayerCase> cases(long seed) {
        java.util.Random r = new java.util.Random(seed * 6151 + 3);
        List<LayerCase> c = new ArrayList<>();
        int b = 1 + r.nextInt(2);
        var normal = Initializers.normal(0, 1);

        // ---- conv1d / conv2d / conv3d
        c.add(conv(r, "valid, bias", Conv.of(1, 1 + r.nextInt(3), 2 + r.nextInt(2)).withBiasInitializer(normal),
                b, new int[] {5 + r.nextInt(3)}, 1 + r.nextInt(3), false));
        c.add(conv(r, "stride 2, same, dilation 2, tanh", Conv.of(1, 3, 3).withStrides(2).withPadding(Padding.SAME).withDilation(2)
                .withActivation(Activation.TANH).withBiasInitializer(normal), b, new int[] {6 + r.nextInt(3)}, 2, false));
        c.add(conv(r, "groups 2, explicit (2, 1), channels first, no bias", Conv.of(1, 4, 2).withGroups(2)
                .withPadding(Padding.explicit(new int[] {2, 1})).withChannelsFirst(true).withoutBias(), b, new int[] {4 + r.nextInt(3)}, 4, false));
        c.add(conv(r, "3x3 valid, bias", Conv.of(2, 2, 3).withBiasInitializer(normal), b, new int[] {5, 4 + r.nextInt(2)}, 1 + r.nextInt(2), false));
        c.add(conv(r, "stride 2, same, even input (Keras alignment), open spatial axes", Conv.of(2, 2, 3).withStrides(2)
                .withPadding(Padding.SAME).withBiasInitializer(normal), b, new int[] {6, 4 + 2 * r.nextInt(2)}, 2, true));
        c.add(conv(r, "kernel [2, 3], strides [1, 2], dilation [2, 1], explicit {{1, 0}, {2, 1}}, groups 2, channels first, tanh",
                Conv.of(2, 2, 2, 3).withStrides(1, 2).withDilation(2, 1).withPadding(Padding.explicit(new int[] {1, 0}, new int[] {2, 1}))
                        .withGroups(2).withChannelsFirst(true).withActivation(Activation.TANH).withBiasInitializer(normal),
                b, new int[] {4, 5}, 4, false));
        c.add(conv(r, "2x2x2 valid", Conv.of(3, 2, 2).withBiasInitializer(normal), b, new int[] {3, 3, 2 + r.nextInt(2)}, 2, false));
        c.add(conv(r, "3x3x3, stride 2, same, groups 2, channels first", Conv.of(3, 2, 3).withStrides(2).withPadding(Padding.SAME)
                .withGroups(2).withChannelsFirst(true).withBiasInitializer(normal), 1, new int[] {4, 3, 3}, 2, false));

        // ---- conv_transpose1d / 2d / 3d
        c.add(convT(r, "stride 2, explicit (1, 0), output padding 1, dilation 2", ConvTranspose.of(1, 3, 3).withStrides(2)
                .withPadding(Padding.explicit(new int[] {1, 0})).withOutputPadding(1).withDilation(2).withBiasInitializer(normal),
                b, new int[] {3 + r.nextInt(2)}, 2));
        c.add(convT(r, "stride 3, same, kernel 2 (k_eff < stride)", ConvTranspose.of(1, 2, 2).withStrides(3).withPadding(Padding.SAME)
                .withBiasInitializer(normal), b, new int[] {3}, 1));
        c.add(convT(r, "stride 2, valid, bias", ConvTranspose.of(2, 2, 3).withStrides(2).withBiasInitializer(normal),
                b, new int[] {3, 2 + r.nextInt(2)}, 2));
        c.add(convT(r, "stride 2, same, kernel 3 (Keras crop)", ConvTranspose.of(2, 1 + r.nextInt(2), 3).withStrides(2)
                .withPadding(Padding.SAME).withBiasInitializer(normal), b, new int[] {3, 4}, 2));
        c.add(convT(r, "groups 2, explicit {{1, 1}, {0, 2}}, output padding [1, 0], strides [2, 1], dilation [1, 2], channels first, tanh",
                ConvTranspose.of(2, 2, 2, 3).withGroups(2).withPadding(Padding.explicit(new int[] {1, 1}, new int[] {0, 2}))
                        .withStrides(2, 1).withOutputPadding(1, 0).withDilation(1, 2).withChannelsFirst(true)
                        .withActivation(Activation.TANH).withBiasInitializer(normal), b, new int[] {3, 3}, 4));
        c.add(convT(r, "2x2x2, stride 2, same", ConvTranspose.of(3, 2, 2).withStrides(2).withPadding(Padding.SAME)
                .withBiasInitializer(normal), 1, new int[] {2, 2, 2}, 2));

        // ---- depthwise_conv1d / 2d
        c.add(depthwise(r, "multiplier 2, stride 2, same", DepthwiseConv.of(1, 3).withDepthMultiplier(2).withStrides(2)
                .withPadding(Padding.SAME).withBiasInitializer(normal), b, new int[] {6 + r.nextInt(2)}, 2));
        c.add(depthwise(r, "3x3 valid, bias", DepthwiseConv.of(2, 3).withBiasInitializer(normal), b, new int[] {4, 4}, 1 + r.nextInt(3)));
        c.add(depthwise(r, "multiplier 2, dilation 2, explicit {{1, 1}, {0, 1}}, channels first, tanh", DepthwiseConv.of(2, 2)
                .withDepthMultiplier(2).withDilation(2).withPadding(Padding.explicit(new int[] {1, 1}, new int[] {0, 1}))
                .withChannelsFirst(true).withActivation(Activation.TANH).withBiasInitializer(normal), b, new int[] {4, 5}, 2));
        c.add(depthwise(r, "stride 2, same, no bias", DepthwiseConv.of(2, 3).withStrides(2).withPadding(Padding.SAME).withoutBias(),
                b, new int[] {5, 6}, 2));

        // ---- separable_conv1d / 2d
        c.add(separable(r, "multiplier 2, same, 3 filters", SeparableConv.of(1, 3, 3).withDepthMultiplier(2).withPadding(Padding.SAME)
                .withBiasInitializer(normal), b, new int[] {6}, 2));
        c.add(separable(r, "3x3 valid", SeparableConv.of(2, 3, 3).withBiasInitializer(normal), b, new int[] {4, 4 + r.nextInt(2)}, 2));
        c.add(separable(r, "multiplier 2, stride 2, same, channels first, tanh, no bias", SeparableConv.of(2, 2, 3).withDepthMultiplier(2)
                .withStrides(2).withPadding(Padding.SAME).withChannelsFirst(true).withActivation(Activation.TANH).withoutBias(),
                1, new int[] {5, 4}, 2));

        // ---- max_pool / avg_pool, 1-D to 3-D
        for (Pool.Op op : Pool.Op.values()) {
            boolean max = op == Pool.Op.MAX;
            c.add(pool(r, "window 2 (strides = window), odd length", pool(op, 1, 2), b, new int[] {7}, 2));
            c.add(pool(r, "window 3, stride 2, same", pool(op, 1, 3).withStrides(2).withPadding(Padding.SAME), b, new int[] {6 + r.nextInt(2)}, 2));
            c.add(pool(r, "window 3, stride 1, explicit (2, 1), channels first", pool(op, 1, 3).withStrides(1)
                    .withPadding(Padding.explicit(new int[] {2, 1})).withChannelsFirst(true), b, new int[] {5}, 2));
            c.add(pool(r, "2x2", pool(op, 2, 2), b, new int[] {5, 4 + r.nextInt(2)}, 2));
            c.add(pool(r, "3x3, stride 2, same" + (max ? "" : " (divides by the real elements)"), pool(op, 2, 3).withStrides(2)
                    .withPadding(Padding.SAME), b, new int[] {6, 5}, 2));
            c.add(pool(r, "window [2, 3], strides [1, 2], explicit {{1, 0}, {1, 2}}, channels first", pool(op, 2, 2, 3).withStrides(1, 2)
                    .withPadding(Padding.explicit(new int[] {1, 0}, new int[] {1, 2})).withChannelsFirst(true), b, new int[] {4, 5}, 2));
            c.add(pool(r, "2x2x2", pool(op, 3, 2), b, new int[] {4, 4, 3}, 2));
            c.add(pool(r, "2x2x2, stride 1, same, channels first", pool(op, 3, 2).withStrides(1).withPadding(Padding.SAME)
                    .withChannelsFirst(true), 1, new int[] {3, 3, 3}, 2));
        }

        // ---- global_max_pool / global_avg_pool
        for (Pool.Op op : Pool.Op.values()) {
            GlobalPool g = op == Pool.Op.MAX ? GlobalPool.max() : GlobalPool.avg();
            c.add(global(r, "rank 4", g, b, new int[] {3, 4}, 3));
            c.add(global(r, "rank 3, keep axes", g.withKeepAxes(true), b, new int[] {5}, 2));
            c.add(global(r, "rank 5, channels first, keep axes", g.withKeepAxes(true).withChannelsFirst(true), b, new int[] {2, 3, 2}, 2));
            c.add(global(r, "rank 4, channels first", g.withChannelsFirst(true), b, new int[] {3, 3}, 2));
        }

        // ---- adaptive_avg_pool1d / 2d / 3d
        c.add(adaptive(r, "5 to 3 (overlapping bins)", AdaptiveAvgPool.of(3), b, new int[] {5}, 2, false));
        c.add(adaptive(r, "2 to 5 (repeated bins), channels first", AdaptiveAvgPool.of(5).withChannelsFirst(true), b, new int[] {2}, 2, false));
        c.add(adaptive(r, "[5, 7] to [3, 4], open spatial axes", AdaptiveAvgPool.of(3, 4), b, new int[] {5, 7}, 2, true));
        c.add(adaptive(r, "[4, 5] to [2, 5] (one axis kept), channels first", AdaptiveAvgPool.of(2, 5).withChannelsFirst(true),
                b, new int[] {4, 5}, 2, false));
        c.add(adaptive(r, "[3, 4, 5] to [2, 2, 3]", AdaptiveAvgPool.of(2, 2, 3), 1, new int[] {3, 4, 5}, 2, false));
        return c;
    }

    private static Pool pool(Pool.Op op, int rank, int... window) {
        return op == Pool.Op.MAX ? Pool.max(rank, window) : Pool.avg(rank, window);
    }

    // ==== case builders ============================================================================

    private static LayerCase conv(java.util.Random r, String label, Conv l, int batch, int[] sp, int ch, boolean openSpatial) {
        boolean cf = l.channelsFirst();
        String n = l.kind() + "_0";
        return make(r, l, label, batch, sp, ch, cf, openSpatial, v -> {
            double[] x = cf ? toLast(v.x(0), batch, ch, sp) : v.x(0);
            Geo g = forward(l.padding(), sp, extent(l.kernel(), l.dilation()), l.strides());
            double[] y = conv(x, batch, sp, ch, v.p(n + ".kernel"), l.kernel(), l.filters(), l.groups(), l.strides(), l.dilation(), g.lo, g.out);
            if (l.useBias()) y = CoreLayerCases.addBias(y, v.p(n + ".bias"));
            return result(CoreLayerCases.activation(l.activation(), y, l.filters()), batch, g.out, l.filters(), cf);
        });
    }

    private static LayerCase convT(java.util.Random r, String label, ConvTranspose l, int batch, int[] sp, int ch) {
        boolean cf = l.channelsFirst();
        String n = l.kind() + "_0";
        return make(r, l, label, batch, sp, ch, cf, false, v -> {
            double[] x = cf ? toLast(v.x(0), batch, ch, sp) : v.x(0);
            int sr = sp.length;
            int[] ext = extent(l.kernel(), l.dilation()), st = l.strides(), op = l.outputPadding(), lo = new int[sr], out = new int[sr];
            for (int a = 0; a < sr; a++) {
                switch (l.padding().mode()) {
                    case SAME -> {
                        out[a] = sp[a] * st[a];
                        lo[a] = Math.max(ext[a] - st[a], 0) / 2;
                    }
                    case VALID -> out[a] = (sp[a] - 1) * st[a] + ext[a] + op[a];
                    case EXPLICIT -> {
                        lo[a] = l.padding().lo(a);
                        out[a] = (sp[a] - 1) * st[a] - l.padding().lo(a) - l.padding().hi(a) + ext[a] + op[a];
                    }
                }
            }
            double[] y = convTranspose(x, batch, sp, ch, v.p(n + ".kernel"), l.kernel(), l.filters(), l.groups(), st, l.dilation(), lo, out);
            if (l.useBias()) y = CoreLayerCases.addBias(y, v.p(n + ".bias"));
            return result(CoreLayerCases.activation(l.activation(), y, l.filters()), batch, out, l.filters(), cf);
        });
    }

    private static LayerCase depthwise(java.util.Random r, String label, DepthwiseConv l, int batch, int[] sp, int ch) {
        boolean cf = l.channelsFirst();
        String n = l.kind() + "_0";
        int f = ch * l.depthMultiplier();
        return make(r, l, label, batch, sp, ch, cf, false, v -> {
            double[] x = cf ? toLast(v.x(0), batch, ch, sp) : v.x(0);
            Geo g = forward(l.padding(), sp, extent(l.kernel(), l.dilation()), l.strides());
            double[] y = depthwise(x, batch, sp, ch, v.p(n + ".kernel"), l.kernel(), l.depthMultiplier(), l.strides(), l.dilation(), g.lo, g.out);
            if (l.useBias()) y = CoreLayerCases.addBias(y, v.p(n + ".bias"));
            return result(CoreLayerCases.activation(l.activation(), y, f), batch, g.out, f, cf);
        });
    }

    private static LayerCase separable(java.util.Random r, String label, SeparableConv l, int batch, int[] sp, int ch) {
        boolean cf = l.channelsFirst();
        String n = l.kind() + "_0";
        int mid = ch * l.depthMultiplier(), f = l.filters();
        return make(r, l, label, batch, sp, ch, cf, false, v -> {
            double[] x = cf ? toLast(v.x(0), batch, ch, sp) : v.x(0);
            Geo g = forward(l.padding(), sp, extent(l.kernel(), l.dilation()), l.strides());
            double[] d = depthwise(x, batch, sp, ch, v.p(n + ".depthwise_kernel"), l.kernel(), l.depthMultiplier(), l.strides(),
                    l.dilation(), g.lo, g.out);
            // pointwise: y[b, p, f] = Σ_m d[b, p, m] · pointwise[0..., m, f]
            double[] pw = v.p(n + ".pointwise_kernel");
            int positions = batch * prod(g.out);
            double[] y = new double[positions * f];
            for (int p = 0; p < positions; p++) {
                for (int o = 0; o < f; o++) {
                    double s = 0;
                    for (int m = 0; m < mid; m++) s += d[p * mid + m] * pw[m * f + o];
                    y[p * f + o] = s;
                }
            }
            if (l.useBias()) y = CoreLayerCases.addBias(y, v.p(n + ".bias"));
            return result(CoreLayerCases.activation(l.activation(), y, f), batch, g.out, f, cf);
        });
    }

    private static LayerCase pool(java.util.Random r, String label, Pool l, int batch, int[] sp, int ch) {
        boolean cf = l.channelsFirst();
        boolean max = l.op() == Pool.Op.MAX;
        return make(r, l, label, batch, sp, ch, cf, false, v -> {
            double[] x = cf ? toLast(v.x(0), batch, ch, sp) : v.x(0);
            Geo g = forward(l.padding(), sp, l.window(), l.strides());
            int[] win = l.window(), st = l.strides();
            int sr = sp.length, positions = prod(g.out), taps = prod(win), inSize = prod(sp);
            double[] y = new double[batch * positions * ch];
            for (int n = 0; n < batch; n++) {
                for (int p = 0; p < positions; p++) {
                    int[] o = unflat(g.out, p);
                    for (int k = 0; k < ch; k++) {
                        double m = Double.NEGATIVE_INFINITY, s = 0;
                        int count = 0;
                        for (int t = 0; t < taps; t++) {
                            int[] tt = unflat(win, t);
                            int idx = 0;
                            boolean inside = true;
                            for (int a = 0; a < sr; a++) {
                                int pos = o[a] * st[a] + tt[a] - g.lo[a];
                                if (pos < 0 || pos >= sp[a]) inside = false;
                                idx = idx * sp[a] + pos;
                            }
                            if (!inside) continue;
                            double xv = x[(n * inSize + idx) * ch + k];
                            m = Math.max(m, xv);
                            s += xv;
                            count++;
                        }
                        y[(n * positions + p) * ch + k] = max ? m : s / count;
                    }
                }
            }
            return result(y, batch, g.out, ch, cf);
        });
    }

    private static LayerCase global(java.util.Random r, String label, GlobalPool l, int batch, int[] sp, int ch) {
        boolean cf = l.channelsFirst();
        return make(r, l, label, batch, sp, ch, cf, false, v -> {
            double[] x = cf ? toLast(v.x(0), batch, ch, sp) : v.x(0);
            int inSize = prod(sp);
            double[] y = new double[batch * ch];
            for (int n = 0; n < batch; n++) {
                for (int k = 0; k < ch; k++) {
                    double m = Double.NEGATIVE_INFINITY, s = 0;
                    for (int p = 0; p < inSize; p++) {
                        double xv = x[(n * inSize + p) * ch + k];
                        m = Math.max(m, xv);
                        s += xv;
                    }
                    y[n * ch + k] = l.op() == Pool.Op.MAX ? m : s / inSize;
                }
            }
            if (!l.keepAxes()) return new LayerCase.Expected(y, Shape.of(batch, ch));
            int[] ones = new int[sp.length];
            Arrays.fill(ones, 1);
            return new LayerCase.Expected(y, Shape.of(dims(batch, ones, ch, cf)));   // one position: both layouts have the same order
        });
    }

    private static LayerCase adaptive(java.util.Random r, String label, AdaptiveAvgPool l, int batch, int[] sp, int ch, boolean openSpatial) {
        boolean cf = l.channelsFirst();
        return make(r, l, label, batch, sp, ch, cf, openSpatial, v -> {
            double[] x = cf ? toLast(v.x(0), batch, ch, sp) : v.x(0);
            int[] out = l.outputSize();
            int sr = sp.length, positions = prod(out), inSize = prod(sp);
            double[] y = new double[batch * positions * ch];
            for (int n = 0; n < batch; n++) {
                for (int p = 0; p < positions; p++) {
                    int[] o = unflat(out, p);
                    int[] start = new int[sr], len = new int[sr];
                    for (int a = 0; a < sr; a++) {
                        start[a] = Math.floorDiv(o[a] * sp[a], out[a]);
                        int end = -Math.floorDiv(-(o[a] + 1) * sp[a], out[a]);   // ceil((o + 1)·in / out)
                        len[a] = end - start[a];
                    }
                    for (int k = 0; k < ch; k++) {
                        double s = 0;
                        int count = prod(len);
                        for (int t = 0; t < count; t++) {
                            int[] tt = unflat(len, t);
                            int idx = 0;
                            for (int a = 0; a < sr; a++) idx = idx * sp[a] + start[a] + tt[a];
                            s += x[(n * inSize + idx) * ch + k];
                        }
                        y[(n * positions + p) * ch + k] = s / count;
                    }
                }
            }
            return result(y, batch, out, ch, cf);
        });
    }

    /** A one-layer model over an f64 input {@code [-1, spatial..., ch]} (or channels first), with its random input. */
    private static LayerCase make(java.util.Random r, Layer l, String label, int batch, int[] sp, int ch, boolean cf, boolean openSpatial,
                                  LayerCase.Formula f) {
        int[] declared = sp.clone();
        if (openSpatial) Arrays.fill(declared, -1);
        Model m = Model.input("x", Shape.of(dims(-1, declared, ch, cf)), DType.F64).apply(l);
        return LayerCase.of(l.kind(), label + " on " + Arrays.toString(dims(batch, sp, ch, cf)), m, List.of(input(r, dims(batch, sp, ch, cf))), f);
    }

    // ==== direct formulas ===========================================================================

    /** Left padding and output sizes of a forward window: VALID, Keras SAME, or explicit pairs. */
    record Geo(int[] lo, int[] out) {}

    static Geo forward(Padding p, int[] in, int[] ext, int[] st) {
        int sr = in.length;
        int[] lo = new int[sr], out = new int[sr];
        for (int a = 0; a < sr; a++) {
            switch (p.mode()) {
                case VALID -> out[a] = (in[a] - ext[a]) / st[a] + 1;
                case SAME -> {
                    out[a] = (in[a] + st[a] - 1) / st[a];
                    lo[a] = Math.max((out[a] - 1) * st[a] + ext[a] - in[a], 0) / 2;
                }
                case EXPLICIT -> {
                    lo[a] = p.lo(a);
                    out[a] = (in[a] + p.lo(a) + p.hi(a) - ext[a]) / st[a] + 1;
                }
            }
        }
        return new Geo(lo, out);
    }

    static int[] extent(int[] k, int[] d) {
        int[] e = new int[k.length];
        for (int i = 0; i < k.length; i++) e[i] = d[i] * (k[i] - 1) + 1;
        return e;
    }

    /**
     * Grouped convolution of channels-last {@code x [n, in..., c]} with {@code k [ks..., c/g, f]}:
     * {@code y[b, o..., fo] = Σ_{t..., cl} x[b, o·st + t·dil - lo..., (fo / (f/g))·(c/g) + cl] · k[t..., cl, fo]}.
     */
    static double[] conv(double[] x, int n, int[] in, int c, double[] k, int[] ks, int f, int g, int[] st, int[] dil, int[] lo, int[] out) {
        int sr = in.length, cg = c / g, fg = f / g, positions = prod(out), taps = prod(ks), inSize = prod(in);
        double[] y = new double[n * positions * f];
        for (int b = 0; b < n; b++) {
            for (int p = 0; p < positions; p++) {
                int[] o = unflat(out, p);
                for (int fo = 0; fo < f; fo++) {
                    int group = fo / fg;
                    double s = 0;
                    for (int t = 0; t < taps; t++) {
                        int[] tt = unflat(ks, t);
                        int idx = 0;
                        boolean inside = true;
                        for (int a = 0; a < sr; a++) {
                            int pos = o[a] * st[a] + tt[a] * dil[a] - lo[a];
                            if (pos < 0 || pos >= in[a]) inside = false;
                            idx = idx * in[a] + pos;
                        }
                        if (!inside) continue;
                        for (int cl = 0; cl < cg; cl++) {
                            s += x[(b * inSize + idx) * c + group * cg + cl] * k[(t * cg + cl) * f + fo];
                        }
                    }
                    y[(b * positions + p) * f + fo] = s;
                }
            }
        }
        return y;
    }

    /**
     * Transposed convolution of channels-last {@code x [n, in..., c]} with {@code k [ks..., f/g, c]}: each
     * {@code x[b, i..., ci] · k[t..., fl, ci]} is added to {@code y[b, i·st + t·dil - lo..., (ci / (c/g))·(f/g) + fl]}
     * when that position lies in {@code out}.
     */
    static double[] convTranspose(double[] x, int n, int[] in, int c, double[] k, int[] ks, int f, int g, int[] st, int[] dil,
                                  int[] lo, int[] out) {
        int sr = in.length, cg = c / g, fg = f / g, positions = prod(out), taps = prod(ks), inSize = prod(in);
        double[] y = new double[n * positions * f];
        for (int b = 0; b < n; b++) {
            for (int p = 0; p < inSize; p++) {
                int[] i = unflat(in, p);
                for (int ci = 0; ci < c; ci++) {
                    int group = ci / cg;
                    double xv = x[(b * inSize + p) * c + ci];
                    for (int t = 0; t < taps; t++) {
                        int[] tt = unflat(ks, t);
                        int idx = 0;
                        boolean inside = true;
                        for (int a = 0; a < sr; a++) {
                            int pos = i[a] * st[a] + tt[a] * dil[a] - lo[a];
                            if (pos < 0 || pos >= out[a]) inside = false;
                            idx = idx * out[a] + pos;
                        }
                        if (!inside) continue;
                        for (int fl = 0; fl < fg; fl++) {
                            y[(b * positions + idx) * f + group * fg + fl] += xv * k[(t * fg + fl) * c + ci];
                        }
                    }
                }
            }
        }
        return y;
    }

    /**
     * Depthwise convolution of channels-last {@code x [n, in..., c]} with {@code k [ks..., c, mult]}:
     * {@code y[b, o..., ci·mult + m] = Σ_t x[b, o·st + t·dil - lo..., ci] · k[t..., ci, m]}.
     */
    static double[] depthwise(double[] x, int n, int[] in, int c, double[] k, int[] ks, int mult, int[] st, int[] dil, int[] lo, int[] out) {
        int sr = in.length, f = c * mult, positions = prod(out), taps = prod(ks), inSize = prod(in);
        double[] y = new double[n * positions * f];
        for (int b = 0; b < n; b++) {
            for (int p = 0; p < positions; p++) {
                int[] o = unflat(out, p);
                for (int ci = 0; ci < c; ci++) {
                    for (int m = 0; m < mult; m++) {
                        double s = 0;
                        for (int t = 0; t < taps; t++) {
                            int[] tt = unflat(ks, t);
                            int idx = 0;
                            boolean inside = true;
                            for (int a = 0; a < sr; a++) {
                                int pos = o[a] * st[a] + tt[a] * dil[a] - lo[a];
                                if (pos < 0 || pos >= in[a]) inside = false;
                                idx = idx * in[a] + pos;
                            }
                            if (inside) s += x[(b * inSize + idx) * c + ci] * k[(t * c + ci) * mult + m];
                        }
                        y[(b * positions + p) * f + ci * mult + m] = s;
                    }
                }
            }
        }
        return y;
    }

    // ==== layouts and indices =====================================================================

    /** The output of a channels-last formula in the case's layout. */
    private static LayerCase.Expected result(double[] yLast, int n, int[] sp, int c, boolean cf) {
        return new LayerCase.Expected(cf ? toFirst(yLast, n, c, sp) : yLast, Shape.of(dims(n, sp, c, cf)));
    }

    /** {@code [n, sp..., c]} or {@code [n, c, sp...]}. */
    static int[] dims(int n, int[] sp, int c, boolean cf) {
        int[] d = new int[sp.length + 2];
        d[0] = n;
        if (cf) {
            d[1] = c;
            System.arraycopy(sp, 0, d, 2, sp.length);
        } else {
            System.arraycopy(sp, 0, d, 1, sp.length);
            d[sp.length + 1] = c;
        }
        return d;
    }

    /** Channels-first {@code [n, c, sp...]} to channels-last {@code [n, sp..., c]}. */
    static double[] toLast(double[] x, int n, int c, int[] sp) {
        int s = prod(sp);
        double[] y = new double[x.length];
        for (int b = 0; b < n; b++) for (int k = 0; k < c; k++) for (int p = 0; p < s; p++) y[(b * s + p) * c + k] = x[(b * c + k) * s + p];
        return y;
    }

    /** Channels-last {@code [n, sp..., c]} to channels-first {@code [n, c, sp...]}. */
    static double[] toFirst(double[] x, int n, int c, int[] sp) {
        int s = prod(sp);
        double[] y = new double[x.length];
        for (int b = 0; b < n; b++) for (int k = 0; k < c; k++) for (int p = 0; p < s; p++) y[(b * c + k) * s + p] = x[(b * s + p) * c + k];
        return y;
    }

    static int prod(int[] d) {
        int p = 1;
        for (int v : d) p *= v;
        return p;
    }

    /** The row-major index tuple of flat index {@code f} in {@code dims}. */
    static int[] unflat(int[] dims, int f) {
        int[] i = new int[dims.length];
        for (int a = dims.length - 1; a >= 0; a--) {
            i[a] = f % dims[a];
            f /= dims[a];
        }
        return i;
    }
}
