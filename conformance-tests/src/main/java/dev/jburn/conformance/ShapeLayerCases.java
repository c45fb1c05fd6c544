package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.Pad;
import dev.jburn.nn.layers.Resize;
import dev.jburn.nn.layers.Transpose;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.jburn.conformance.LayerCases.input;
import static dev.jburn.conformance.NormLayerCases.open0;
import static dev.jburn.conformance.NormLayerCases.unflat;

/** Layer cases of the shape kinds: transpose, pad and resize, with direct index loops. */
final class ShapeLayerCases {
    private ShapeLayerCases() {}

    static List<LayerCase> cases(long seed) {
        java.util.Random r = new java.util.Random(seed * 4241 + 5);
        List<LayerCase> c = new ArrayList<>();

        // ---- transpose (Keras Permute numbering: the batch is axis 0)
        int b = 1 + r.nextInt(2);
        c.add(transpose(new int[] {b, 2 + r.nextInt(2), 1 + r.nextInt(3)}, new int[] {2, 1}, r));
        c.add(transpose(new int[] {b, 2, 1 + r.nextInt(2), 3}, new int[] {3, 1, 2}, r));
        c.add(transpose(new int[] {b, 2, 3, 1 + r.nextInt(2)}, new int[] {2, 3, 1}, r));
        c.add(transpose(new int[] {b, 1 + r.nextInt(3), 2}, new int[] {1, 2}, r));

        // ---- pad
        c.add(pad(new int[] {b, 2, 1 + r.nextInt(2), 2}, new int[][] {{1, 2}, {0, 1}}, 0, false, r));
        c.add(pad(new int[] {b, 1 + r.nextInt(3), 2}, new int[][] {{2, 1}}, 0.5, false, r));
        c.add(pad(new int[] {b, 2, 2, 1 + r.nextInt(2)}, new int[][] {{1, 0}, {2, 1}}, -1, true, r));
        c.add(pad(new int[] {b, 1, 2, 2, 1}, new int[][] {{1, 1}, {0, 0}, {1, 1}}, 0, false, r));

        // ---- resize
        int ch = 1 + r.nextInt(2);
        c.add(resize("bilinear up 2-D", Resize.of(5, 4), new int[] {b, 3, 2, ch}, r));
        c.add(resize("bilinear down 2-D", Resize.of(2, 3), new int[] {b, 4, 5, ch}, r));
        c.add(resize("bilinear mixed 2-D, one axis kept", Resize.of(3, 5), new int[] {b, 3, 2, ch}, r));
        c.add(resize("nearest up and down 2-D", Resize.of(5, 2).withMethod(Resize.Method.NEAREST), new int[] {b, 3, 3, ch}, r));
        c.add(resize("bilinear by scale factors (2, 1.5)", Resize.scale(2, 1.5), new int[] {b, 2, 2, ch}, r));
        c.add(resize("nearest by scale factor 0.5 and 3", Resize.scale(0.5, 3).withMethod(Resize.Method.NEAREST), new int[] {b, 5, 1, ch}, r));
        c.add(resize("linear 1-D", Resize.of(7), new int[] {b, 3, ch}, r));
        c.add(resize("nearest 1-D down", Resize.of(2).withMethod(Resize.Method.NEAREST), new int[] {b, 7, ch}, r));
        c.add(resize("trilinear 3-D", Resize.of(3, 1, 3), new int[] {b, 2, 2, 2, 1}, r));
        c.add(resize("nearest 3-D", Resize.of(1, 3, 2).withMethod(Resize.Method.NEAREST), new int[] {b, 2, 2, 3, 1}, r));
        c.add(resize("bilinear channels-first", Resize.of(4, 2).withChannelsFirst(), new int[] {b, ch, 3, 3}, r));
        return c;
    }

    // ==== transpose ===============================================================================

    private static LayerCase transpose(int[] dims, int[] perm, java.util.Random r) {
        int[] od = new int[dims.length];
        od[0] = dims[0];
        for (int i = 0; i < perm.length; i++) od[i + 1] = dims[perm[i]];
        Model m = Model.input("x", Shape.of(open0(dims)), DType.F64).transpose(perm);
        return LayerCase.of("transpose", "perm " + Arrays.toString(perm) + " of " + Arrays.toString(dims), m, List.of(input(r, dims)), v -> {
            double[] x = v.x(0), y = new double[x.length];
            for (int o = 0; o < y.length; o++) {
                int[] oi = unflat(od, o), ii = new int[dims.length];
                ii[0] = oi[0];
                for (int k = 0; k < perm.length; k++) ii[perm[k]] = oi[k + 1];
                y[o] = x[LayerCases.flat(dims, ii)];
            }
            return new LayerCase.Expected(y, Shape.of(od));
        });
    }

    // ==== pad =====================================================================================

    private static LayerCase pad(int[] dims, int[][] loHi, double value, boolean channelsFirst, java.util.Random r) {
        Pad p = Pad.of(loHi).withValue(value);
        if (channelsFirst) p = p.withChannelsFirst();
        int first = channelsFirst ? 2 : 1;
        int[] od = dims.clone();
        for (int i = 0; i < loHi.length; i++) od[first + i] += loHi[i][0] + loHi[i][1];
        Model m = Model.input("x", Shape.of(open0(dims)), DType.F64).apply(p);
        String label = Arrays.deepToString(loHi) + " of " + Arrays.toString(dims) + ", value " + value + (channelsFirst ? ", channels-first" : "");
        return LayerCase.of("pad", label, m, List.of(input(r, dims)), v -> {
            double[] x = v.x(0), y = new double[(int) Shape.of(od).size()];
            for (int o = 0; o < y.length; o++) {
                int[] ii = unflat(od, o);
                boolean inside = true;
                for (int i = 0; i < loHi.length; i++) {
                    ii[first + i] -= loHi[i][0];
                    if (ii[first + i] < 0 || ii[first + i] >= dims[first + i]) inside = false;
                }
                y[o] = inside ? x[LayerCases.flat(dims, ii)] : value;
            }
            return new LayerCase.Expected(y, Shape.of(od));
        });
    }

    // ==== resize ==================================================================================

    private static LayerCase resize(String label, Resize rz, int[] dims, java.util.Random r) {
        int first = rz.channelsFirst() ? 2 : 1, n = dims.length - 2;
        int[] od = dims.clone();
        for (int i = 0; i < n; i++) od[first + i] = rz.size() != null ? rz.size()[i] : (int) Math.floor(dims[first + i] * rz.scale()[i]);
        boolean nearest = rz.method() == Resize.Method.NEAREST;
        Model m = Model.input("x", Shape.of(open0(dims)), DType.F64).apply(rz);
        return LayerCase.of("resize", label + ": " + Arrays.toString(dims) + " -> " + Arrays.toString(od), m, List.of(input(r, dims)), v -> {
            double[] x = v.x(0), y = new double[(int) Shape.of(od).size()];
            for (int o = 0; o < y.length; o++) {
                int[] oi = unflat(od, o);
                if (nearest) {
                    int[] ii = oi.clone();
                    for (int i = 0; i < n; i++) {
                        int a = first + i, in = dims[a], out = od[a];
                        // PyTorch nearest-exact: floor((i + 0.5)·in/out), clamped
                        ii[a] = Math.min((int) Math.floor((oi[a] + 0.5) * in / out), in - 1);
                    }
                    y[o] = x[LayerCases.flat(dims, ii)];
                    continue;
                }
                // half-pixel linear on each spatial axis: the 2^n corners with product weights
                int[] lo = new int[n], hi = new int[n];
                double[] w = new double[n];
                for (int i = 0; i < n; i++) {
                    int a = first + i, in = dims[a], out = od[a];
                    double src = (oi[a] + 0.5) * in / out - 0.5;
                    if (src < 0) src = 0;
                    lo[i] = (int) Math.floor(src);
                    hi[i] = Math.min(lo[i] + 1, in - 1);
                    w[i] = src - lo[i];
                }
                double s = 0;
                for (int corner = 0; corner < (1 << n); corner++) {
                    int[] ii = oi.clone();
                    double weight = 1;
                    for (int i = 0; i < n; i++) {
                        boolean upper = (corner >> i & 1) == 1;
                        ii[first + i] = upper ? hi[i] : lo[i];
                        weight *= upper ? w[i] : 1 - w[i];
                    }
                    s += weight * x[LayerCases.flat(dims, ii)];
                }
                y[o] = s;
            }
            return new LayerCase.Expected(y, Shape.of(od));
        });
    }
}
