package dev.jburn.reference;

import dev.jburn.ConvOptions;
import dev.jburn.Padding;

import java.util.Arrays;
import java.util.Random;

/**
 * A test-only convolution written from the definition, independent of the kernels: each input
 * channel is first materialized dilated and padded, then correlated with the kernel; sums in
 * double. Also the random case generator shared by the conv tests.
 */
final class ConvReference {
    private ConvReference() {}

    /** A canonical convolution problem: shapes and resolved options. */
    record Case(int[] inDims, int[] kDims, int[] strides, int[] lo, int[] hi, int[] inDil, int[] kDil, int fg, int bg,
                Padding padding) {
        int sr() { return inDims.length - 2; }

        ConvOptions options() {
            return ConvOptions.defaults().withStrides(strides).withPadding(padding).withInputDilation(inDil)
                    .withKernelDilation(kDil).withFeatureGroupSize(fg).withBatchGroupSize(bg);
        }

        int[] outDims() {
            int[] out = new int[inDims.length];
            out[0] = inDims[0] / bg;
            out[1] = kDims[0];
            for (int i = 0; i < sr(); i++) {
                int inEff = (inDims[i + 2] - 1) * inDil[i] + 1;
                int kEff = (kDims[i + 2] - 1) * kDil[i] + 1;
                out[i + 2] = Math.floorDiv(inEff + lo[i] + hi[i] - kEff, strides[i]) + 1;
            }
            return out;
        }

        @Override public String toString() {
            return "in " + Arrays.toString(inDims) + " k " + Arrays.toString(kDims) + " s " + Arrays.toString(strides) + " pad "
                    + padding + " inDil " + Arrays.toString(inDil) + " kDil " + Arrays.toString(kDil) + " fg " + fg + " bg " + bg;
        }
    }

    /** A random valid case with spatial rank {@code sr}; {@code unitStride} forces strides 1 and no input dilation. */
    static Case random(Random rnd, int sr, boolean unitStride) {
        while (true) {
            int groupKind = rnd.nextInt(3);
            int fg = groupKind == 1 ? 1 + rnd.nextInt(3) : 1;
            int bg = groupKind == 2 ? 1 + rnd.nextInt(2) : 1;
            int g = Math.max(fg, bg);
            int cg = 1 + rnd.nextInt(3);
            int og = 1 + rnd.nextInt(5);
            int[] in = new int[sr + 2], k = new int[sr + 2];
            in[0] = (1 + rnd.nextInt(2)) * bg;
            in[1] = cg * fg;
            k[0] = og * g;
            k[1] = cg;
            int[] s = new int[sr], lo = new int[sr], hi = new int[sr], id = new int[sr], kd = new int[sr];
            int maxN = sr == 3 ? 5 : 9;
            for (int i = 0; i < sr; i++) {
                in[i + 2] = 1 + rnd.nextInt(maxN);
                k[i + 2] = 1 + rnd.nextInt(3);
                s[i] = unitStride ? 1 : 1 + rnd.nextInt(3);
                id[i] = unitStride ? 1 : 1 + rnd.nextInt(2);
                kd[i] = 1 + rnd.nextInt(2);
            }
            int mode = rnd.nextInt(3);
            Padding p;
            if (mode == 0) {
                p = Padding.VALID;
            } else if (mode == 1) {
                p = Padding.SAME;
                for (int i = 0; i < sr; i++) {
                    int total = (k[i + 2] - 1) * kd[i];
                    lo[i] = total / 2;
                    hi[i] = total - total / 2;
                }
            } else {
                int[][] pairs = new int[sr][];
                for (int i = 0; i < sr; i++) {
                    lo[i] = rnd.nextInt(4) - 1;
                    hi[i] = rnd.nextInt(4) - 1;
                    pairs[i] = new int[] {lo[i], hi[i]};
                }
                p = Padding.explicit(pairs);
            }
            Case c = new Case(in, k, s, lo, hi, id, kd, fg, bg, p);
            if (Arrays.stream(c.outDims()).allMatch(d -> d >= 1)) return c;
        }
    }

    /** {@code [values, |terms| sums]} of the convolution of canonical {@code x} and {@code k}. */
    static double[][] conv(Case c, double[] x, double[] k) {
        int sr = c.sr();
        int[] out = c.outDims();
        int n = c.inDims[0], ch = c.inDims[1], o = c.kDims[0], cg = c.kDims[1];
        int g = Math.max(c.fg, c.bg), og = o / g, outN = out[0];
        // Dilate and pad every input channel plane.
        int[] pd = new int[sr];
        int plane = 1, inPlane = 1;
        for (int i = 0; i < sr; i++) {
            pd[i] = (c.inDims[i + 2] - 1) * c.inDil[i] + 1 + c.lo[i] + c.hi[i];
            plane *= pd[i];
            inPlane *= c.inDims[i + 2];
        }
        double[] padded = new double[n * ch * plane];
        int[] idx = new int[sr];
        for (int p = 0; p < n * ch; p++) {
            for (int e = 0; e < inPlane; e++) {
                unflatten(e, c.inDims, 2, idx);
                int at = 0;
                boolean inside = true;
                for (int i = 0; i < sr; i++) {
                    int q = idx[i] * c.inDil[i] + c.lo[i];
                    inside &= q >= 0 && q < pd[i];
                    at = at * pd[i] + q;
                }
                if (inside) padded[p * plane + at] = x[p * inPlane + e];
            }
        }
        int outPlane = 1, taps = 1;
        for (int i = 0; i < sr; i++) {
            outPlane *= out[i + 2];
            taps *= c.kDims[i + 2];
        }
        double[] y = new double[outN * o * outPlane], abs = new double[y.length];
        int[] pos = new int[sr], tap = new int[sr];
        for (int b = 0; b < outN; b++) {
            for (int oc = 0; oc < o; oc++) {
                int grp = oc / og;
                int image = c.bg > 1 ? grp * outN + b : b;
                int cb = c.fg > 1 ? grp * cg : 0;
                for (int e = 0; e < outPlane; e++) {
                    unflatten(e, out, 2, pos);
                    double acc = 0, a = 0;
                    for (int ci = 0; ci < cg; ci++) {
                        for (int t = 0; t < taps; t++) {
                            unflatten(t, c.kDims, 2, tap);
                            int at = 0;
                            for (int i = 0; i < sr; i++) at = at * pd[i] + pos[i] * c.strides[i] + tap[i] * c.kDil[i];
                            double term = padded[(image * ch + cb + ci) * plane + at] * k[(oc * cg + ci) * taps + t];
                            acc += term;
                            a += Math.abs(term);
                        }
                    }
                    y[(b * o + oc) * outPlane + e] = acc;
                    abs[(b * o + oc) * outPlane + e] = a;
                }
            }
        }
        return new double[][] {y, abs};
    }

    /** Row-major coordinates of {@code linear} over {@code dims[from..]}. */
    private static void unflatten(int linear, int[] dims, int from, int[] coord) {
        for (int i = coord.length - 1; i >= 0; i--) {
            coord[i] = linear % dims[i + from];
            linear /= dims[i + from];
        }
    }

    /** A random permutation of {@code [0, n)}. */
    static int[] permutation(Random rnd, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    static int[] inverse(int[] p) {
        int[] inv = new int[p.length];
        for (int i = 0; i < p.length; i++) inv[p[i]] = i;
        return inv;
    }
}
