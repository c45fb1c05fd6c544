package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.Gru;
import dev.jburn.nn.layers.Lstm;
import dev.jburn.nn.layers.MultiHeadAttention;
import dev.jburn.nn.layers.TransformerEncoder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static dev.jburn.conformance.LayerCases.input;

/**
 * Layer cases of the recurrent and attention kinds: {@code lstm}, {@code gru} (one direction and
 * bidirectional, sequences and last state, open time axis), {@code multi_head_attention} (self,
 * cross, query/key/value, causal, key padding masks with a fully masked sample, dropout on the
 * attention weights) and {@code transformer_encoder} (post-LN and pre-LN, relu and gelu, masks,
 * dropout). The formulas are step loops, explicit softmaxes and layer norms over Java doubles.
 * Shapes are tiny (batch 1-2, time 2-3, features 2-4, units 2-3, heads 1-2): the gradient check
 * runs central differences over every parameter tensor.
 */
final class RecurrentLayerCases {
    private RecurrentLayerCases() {}

    static List<LayerCase> cases(long seed) {
        java.util.Random r = new java.util.Random(seed * 6151 + 3);
        List<LayerCase> c = new ArrayList<>();
        recurrent(c, r, true);
        recurrent(c, r, false);
        attention(c, r);
        encoder(c, r);
        return c;
    }

    // ==== lstm and gru ============================================================================

    private static void recurrent(List<LayerCase> c, java.util.Random r, boolean lstm) {
        String kind = lstm ? "lstm" : "gru";
        record Opt(String label, boolean sequences, boolean bidirectional, boolean bias, boolean openTime) {}
        for (Opt o : List.of(new Opt("last state", false, false, true, false),
                new Opt("sequences, no bias", true, false, false, false),
                new Opt("bidirectional, sequences", true, true, true, false),
                new Opt("bidirectional, last state, open time axis", false, true, true, true))) {
            int batch = 1 + r.nextInt(2), steps = 2 + r.nextInt(2), in = 2 + r.nextInt(3), h = 2 + r.nextInt(2);
            dev.jburn.nn.Layer layer;
            if (lstm) {
                Lstm l = Lstm.of(h).withReturnSequences(o.sequences).withBidirectional(o.bidirectional);
                layer = o.bias ? l : l.withoutBias();
            } else {
                Gru g = Gru.of(h).withReturnSequences(o.sequences).withBidirectional(o.bidirectional);
                layer = o.bias ? g : g.withoutBias();
            }
            Model m = Model.input("x", Shape.of(-1, o.openTime ? -1 : steps, in), DType.F64).apply(layer);
            String label = o.label + ", batch " + batch + ", T " + steps + ", in " + in + ", H " + h;
            c.add(LayerCase.of(kind, label, m, List.of(input(r, batch, steps, in)), v -> {
                int dirs = o.bidirectional ? 2 : 1, width = dirs * h;
                double[] out = new double[o.sequences ? batch * steps * width : batch * width];
                for (int d = 0; d < dirs; d++) {
                    String sfx = d == 0 ? "" : "_reverse", p = kind + "_0.";
                    int gates = lstm ? 4 : 3;
                    double[] bih = o.bias ? v.p(p + "bias_ih" + sfx) : new double[gates * h];
                    double[] bhh = o.bias ? v.p(p + "bias_hh" + sfx) : new double[gates * h];
                    double[][][] hs = rnn(lstm, v.x(0), batch, steps, in, h, v.p(p + "weight_ih" + sfx), v.p(p + "weight_hh" + sfx),
                            bih, bhh, d == 1);
                    for (int b = 0; b < batch; b++) {
                        if (o.sequences) {
                            for (int t = 0; t < steps; t++) System.arraycopy(hs[b][t], 0, out, (b * steps + t) * width + d * h, h);
                        } else {
                            System.arraycopy(hs[b][d == 1 ? 0 : steps - 1], 0, out, b * width + d * h, h);
                        }
                    }
                }
                return new LayerCase.Expected(out, o.sequences ? Shape.of(batch, steps, width) : Shape.of(batch, width));
            }));
        }
    }

    private static double sigmoid(double x) { return 1 / (1 + Math.exp(-x)); }

    /**
     * One direction of an LSTM or GRU from a zero state, PyTorch's formulas: the hidden state after
     * each input step, {@code [batch][t][H]} (for the backward direction, the state after reading
     * {@code x[t]} when running from {@code T-1} down to 0).
     */
    static double[][][] rnn(boolean lstm, double[] x, int batch, int steps, int in, int h, double[] wih, double[] whh,
                            double[] bih, double[] bhh, boolean reverse) {
        int g = (lstm ? 4 : 3) * h;
        double[][][] out = new double[batch][steps][];
        for (int b = 0; b < batch; b++) {
            double[] hid = new double[h], cell = new double[h];
            for (int s = 0; s < steps; s++) {
                int t = reverse ? steps - 1 - s : s;
                double[] gx = new double[g], gh = new double[g];
                for (int row = 0; row < g; row++) {
                    double a = bih[row], bb = bhh[row];
                    for (int k = 0; k < in; k++) a += wih[row * in + k] * x[(b * steps + t) * in + k];
                    for (int k = 0; k < h; k++) bb += whh[row * h + k] * hid[k];
                    gx[row] = a;
                    gh[row] = bb;
                }
                double[] next = new double[h];
                for (int u = 0; u < h; u++) {
                    if (lstm) {
                        double i = sigmoid(gx[u] + gh[u]), f = sigmoid(gx[h + u] + gh[h + u]);
                        double gg = Math.tanh(gx[2 * h + u] + gh[2 * h + u]), o = sigmoid(gx[3 * h + u] + gh[3 * h + u]);
                        cell[u] = f * cell[u] + i * gg;
                        next[u] = o * Math.tanh(cell[u]);
                    } else {
                        double rr = sigmoid(gx[u] + gh[u]), z = sigmoid(gx[h + u] + gh[h + u]);
                        double n = Math.tanh(gx[2 * h + u] + rr * gh[2 * h + u]);
                        next[u] = (1 - z) * n + z * hid[u];
                    }
                }
                hid = next;
                out[b][t] = next.clone();
            }
        }
        return out;
    }

    // ==== multi-head attention ====================================================================

    private static void attention(List<LayerCase> c, java.util.Random r) {
        String kind = "multi_head_attention", p = "multi_head_attention_0.";
        MultiHeadAttention base = MultiHeadAttention.of(1, 2).withBiasInitializer(Initializers.normal(0, 0.5));
        {   // cross-attention: query and key = value, two heads, another value size; dropout 0: training equals inference
            int batch = 1 + r.nextInt(2), tq = 2 + r.nextInt(2), tk = 2 + r.nextInt(2), dq = 2 + r.nextInt(3), dkv = 2 + r.nextInt(3);
            MultiHeadAttention l = MultiHeadAttention.of(2, 2).withValueDim(3).withDropout(0.0).withBiasInitializer(Initializers.normal(0, 0.5));
            Model q = Model.input("q", Shape.of(-1, tq, dq), DType.F64), kv = Model.input("kv", Shape.of(-1, tk, dkv), DType.F64);
            c.add(LayerCase.of(kind, "cross, 2 heads, keyDim 2, valueDim 3, dropout 0, Tq " + tq + ", Tk " + tk, Model.apply(l, q, kv),
                    List.of(input(r, batch, tq, dq), input(r, batch, tk, dkv)), v -> new LayerCase.Expected(
                            attention(v.x(0), v.x(1), v.x(1), batch, tq, tk, dq, dkv, dkv, v, p, 2, 2, 3, true, false, null), Shape.of(batch, tq, dq))));
        }
        {   // query, key and value, causal (Tq and Tk may differ: top-left aligned), no bias
            int batch = 1 + r.nextInt(2), tq = 2 + r.nextInt(2), tk = 2 + r.nextInt(2), dq = 2 + r.nextInt(2), dk = 2 + r.nextInt(2), dv = 2 + r.nextInt(2);
            MultiHeadAttention l = MultiHeadAttention.of(2, 2).withCausalMask(true).withoutBias();
            Model q = Model.input("q", Shape.of(-1, tq, dq), DType.F64), k = Model.input("k", Shape.of(-1, tk, dk), DType.F64),
                    vv = Model.input("v", Shape.of(-1, tk, dv), DType.F64);
            c.add(LayerCase.of(kind, "query, key, value, causal, no bias, Tq " + tq + ", Tk " + tk, Model.apply(l, q, k, vv),
                    List.of(input(r, batch, tq, dq), input(r, batch, tk, dk), input(r, batch, tk, dv)), v -> new LayerCase.Expected(
                            attention(v.x(0), v.x(1), v.x(2), batch, tq, tk, dq, dk, dv, v, p, 2, 2, 2, false, true, null), Shape.of(batch, tq, dq))));
        }
        {   // self-attention with an s32 key padding mask; the second sample has every key masked (output: the output bias)
            int batch = 2, t = 3, d = 2 + r.nextInt(3);
            double[] mask = {1, 0, 1, 0, 0, 0};
            MultiHeadAttention l = base.withKeyPaddingMask(true);
            Model x = Model.input("x", Shape.of(-1, t, d), DType.F64), keep = Model.input("keep", Shape.of(-1, t), DType.S32);
            c.add(LayerCase.of(kind, "self, s32 key padding mask, a fully masked sample", Model.apply(l, x, keep),
                    List.of(input(r, batch, t, d), new LayerCase.Input(mask, Shape.of(batch, t), true)), v -> new LayerCase.Expected(
                            attention(v.x(0), v.x(0), v.x(0), batch, t, t, d, d, d, v, p, 1, 2, 2, true, false, mask), Shape.of(batch, t, d))));
        }
        {   // cross-attention with an f64 key padding mask and the causal mask, two heads
            int batch = 2, tq = 3, tk = 3, dq = 2 + r.nextInt(2), dkv = 2 + r.nextInt(2);
            double[] mask = {0, 1, 1, 1, 1, 0};   // sample 0: query 0 sees no key (causal keeps only key 0, padding drops it)
            MultiHeadAttention l = MultiHeadAttention.of(2, 2).withCausalMask(true).withKeyPaddingMask(true)
                    .withBiasInitializer(Initializers.normal(0, 0.5));
            Model q = Model.input("q", Shape.of(-1, tq, dq), DType.F64), kv = Model.input("kv", Shape.of(-1, tk, dkv), DType.F64),
                    keep = Model.input("keep", Shape.of(-1, tk), DType.F64);
            c.add(LayerCase.of(kind, "cross, f64 key padding mask and causal", Model.apply(l, q, kv, keep),
                    List.of(input(r, batch, tq, dq), input(r, batch, tk, dkv), new LayerCase.Input(mask, Shape.of(batch, tk), false)),
                    v -> new LayerCase.Expected(attention(v.x(0), v.x(1), v.x(1), batch, tq, tk, dq, dkv, dkv, v, p, 2, 2, 2, true, true, mask),
                            Shape.of(batch, tq, dq))));
        }
        {   // dropout on the attention weights: training differs from inference, per key
            int batch = 2, t = 3, d = 2 + r.nextInt(3);
            double rate = 0.3 + 0.4 * r.nextDouble();
            MultiHeadAttention l = MultiHeadAttention.of(2, 2).withDropout(rate).withBiasInitializer(Initializers.normal(0, 0.5));
            c.add(LayerCase.of(kind, "self, 2 heads, attention dropout " + rate, Model.input("x", Shape.of(-1, t, d), DType.F64).apply(l),
                    List.of(input(r, batch, t, d)), v -> new LayerCase.Expected(
                            attention(v.x(0), v.x(0), v.x(0), batch, t, t, d, d, d, v, p, 2, 2, 2, true, false, null), Shape.of(batch, t, d)))
                    .withTraining(RecurrentLayerCases::checkDropoutChangesOutput));
        }
    }

    /** Training output differs from inference and between keys (determinism per key is checked by the contract). */
    private static void checkDropoutChangesOutput(LayerCase.TrainingRun run) {
        if (Arrays.equals(run.trainingA(), run.inference())) throw new AssertionError("training output equals inference despite dropout");
        if (Arrays.equals(run.trainingA(), run.trainingB())) throw new AssertionError("two keys gave the same training output");
        for (double x : run.trainingA()) if (!Double.isFinite(x)) throw new AssertionError("training output has " + x);
    }

    /**
     * Multi-head attention, directly: per sample and head, projections, logits {@code q·k/√keyDim},
     * a softmax over the kept keys (none kept: all weights 0), the weighted values, the output projection.
     * Parameters are read as {@code prefix + "query_kernel"} etc.
     */
    static double[] attention(double[] q, double[] k, double[] vv, int batch, int tq, int tk, int dq, int dk, int dv,
                              LayerCase.Values v, String prefix, int heads, int keyDim, int valueDim, boolean bias, boolean causal,
                              double[] mask) {
        return attention(q, k, vv, batch, tq, tk, dq, dk, dv, n -> v.p(prefix + n), heads, keyDim, valueDim, bias, causal, mask);
    }

    static double[] attention(double[] q, double[] k, double[] vv, int batch, int tq, int tk, int dq, int dk, int dv,
                              Function<String, double[]> param, int heads, int keyDim, int valueDim, boolean bias, boolean causal,
                              double[] mask) {
        double[] wq = param.apply("query_kernel"), wk = param.apply("key_kernel"), wv = param.apply("value_kernel"), wo = param.apply("output_kernel");
        double[] bq = bias ? param.apply("query_bias") : new double[heads * keyDim], bk = bias ? param.apply("key_bias") : new double[heads * keyDim];
        double[] bv = bias ? param.apply("value_bias") : new double[heads * valueDim], bo = bias ? param.apply("output_bias") : new double[dq];
        int hk = heads * keyDim, hv = heads * valueDim;
        double[] y = new double[batch * tq * dq];
        for (int b = 0; b < batch; b++) {
            double[][] qp = project(q, b, tq, dq, wq, bq, hk), kp = project(k, b, tk, dk, wk, bk, hk), vp = project(vv, b, tk, dv, wv, bv, hv);
            double[][] concat = new double[tq][hv];
            for (int hd = 0; hd < heads; hd++) {
                for (int i = 0; i < tq; i++) {
                    double[] logit = new double[tk];
                    boolean[] keep = new boolean[tk];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < tk; j++) {
                        keep[j] = (mask == null || mask[b * tk + j] != 0) && (!causal || j <= i);
                        double s = 0;
                        for (int e = 0; e < keyDim; e++) s += qp[i][hd * keyDim + e] * kp[j][hd * keyDim + e];
                        logit[j] = s / Math.sqrt(keyDim);
                        if (keep[j]) max = Math.max(max, logit[j]);
                    }
                    double sum = 0;
                    double[] w = new double[tk];
                    for (int j = 0; j < tk; j++) {
                        if (keep[j]) {
                            w[j] = Math.exp(logit[j] - max);
                            sum += w[j];
                        }
                    }
                    for (int j = 0; j < tk; j++) {
                        if (sum > 0) w[j] /= sum;
                        for (int e = 0; e < valueDim; e++) concat[i][hd * valueDim + e] += w[j] * vp[j][hd * valueDim + e];
                    }
                }
            }
            for (int i = 0; i < tq; i++) {
                for (int o = 0; o < dq; o++) {
                    double s = bo[o];
                    for (int m = 0; m < hv; m++) s += concat[i][m] * wo[m * dq + o];
                    y[(b * tq + i) * dq + o] = s;
                }
            }
        }
        return y;
    }

    /** Sample {@code b} of {@code x [batch, t, in]} times {@code w [in, out]} plus {@code bias}: {@code [t][out]}. */
    private static double[][] project(double[] x, int b, int t, int in, double[] w, double[] bias, int out) {
        double[][] y = new double[t][out];
        for (int i = 0; i < t; i++) {
            for (int o = 0; o < out; o++) {
                double s = bias[o];
                for (int k = 0; k < in; k++) s += x[(b * t + i) * in + k] * w[k * out + o];
                y[i][o] = s;
            }
        }
        return y;
    }

    // ==== transformer encoder =====================================================================

    private static void encoder(List<LayerCase> c, java.util.Random r) {
        String kind = "transformer_encoder";
        record Opt(String label, int heads, boolean normFirst, Activation act, boolean causal, boolean mask, double dropout, double eps) {}
        double rate = 0.2 + 0.3 * r.nextDouble();
        for (Opt o : List.of(new Opt("post-LN, relu, 2 heads", 2, false, Activation.RELU, false, false, 0, 1e-5),
                new Opt("pre-LN, gelu, causal, s32 key padding mask, epsilon 1e-3", 1, true, Activation.GELU, true, true, 0, 1e-3),
                new Opt("pre-LN, dropout " + rate, 2, true, Activation.RELU, false, false, rate, 1e-5))) {
            int batch = 2, t = 2 + r.nextInt(2), d = 4, ff = 2 + r.nextInt(2);   // d = 4: heads of 2 or 4
            TransformerEncoder l = TransformerEncoder.of(o.heads, ff).withDropout(o.dropout).withActivation(o.act).withNormFirst(o.normFirst)
                    .withEpsilon(o.eps).withCausalMask(o.causal).withKeyPaddingMask(o.mask)
                    .withBiasInitializer(Initializers.normal(0, 0.5)).withGammaInitializer(Initializers.normal(1, 0.3));
            Model x = Model.input("x", Shape.of(-1, t, d), DType.F64);
            List<LayerCase.Input> ins = new ArrayList<>(List.of(input(r, batch, t, d)));
            double[] mask = null;
            Model m;
            if (o.mask) {
                mask = new double[batch * t];
                Arrays.fill(mask, 1);
                mask[1] = 0;   // sample 0 ignores key 1 (its query 0 still sees key 0 under the causal mask)
                ins.add(new LayerCase.Input(mask, Shape.of(batch, t), true));
                m = Model.apply(l, x, Model.input("keep", Shape.of(-1, t), DType.S32));
            } else {
                m = x.apply(l);
            }
            double[] maskF = mask;
            LayerCase lc = LayerCase.of(kind, o.label + ", T " + t + ", ffDim " + ff, m, ins, v -> {
                Function<String, double[]> p = n -> v.p("transformer_encoder_0." + n);
                int rows = batch * t, hd = d / o.heads;
                double[] xs = v.x(0).clone();
                double[] a = o.normFirst ? layerNorm(xs, rows, d, p.apply("norm_1_gamma"), p.apply("norm_1_beta"), o.eps) : xs;
                a = attention(a, a, a, batch, t, t, d, d, d, n -> p.apply("attention_" + n), o.heads, hd, hd, true, o.causal, maskF);
                for (int i = 0; i < xs.length; i++) xs[i] += a[i];
                if (!o.normFirst) xs = layerNorm(xs, rows, d, p.apply("norm_1_gamma"), p.apply("norm_1_beta"), o.eps);
                double[] f = o.normFirst ? layerNorm(xs, rows, d, p.apply("norm_2_gamma"), p.apply("norm_2_beta"), o.eps) : xs;
                f = CoreLayerCases.activation(o.act, CoreLayerCases.addBias(LayerCases.matmul(f, p.apply("ffn_1_kernel"), rows, d, ff),
                        p.apply("ffn_1_bias")), ff);
                f = CoreLayerCases.addBias(LayerCases.matmul(f, p.apply("ffn_2_kernel"), rows, ff, d), p.apply("ffn_2_bias"));
                for (int i = 0; i < xs.length; i++) xs[i] += f[i];
                if (!o.normFirst) xs = layerNorm(xs, rows, d, p.apply("norm_2_gamma"), p.apply("norm_2_beta"), o.eps);
                return new LayerCase.Expected(xs, Shape.of(batch, t, d));
            });
            c.add(o.dropout > 0 ? lc.withTraining(RecurrentLayerCases::checkDropoutChangesOutput) : lc);
        }
    }

    /** Layer norm of each row of {@code x [rows, d]}: biased variance. */
    static double[] layerNorm(double[] x, int rows, int d, double[] gamma, double[] beta, double eps) {
        double[] y = new double[x.length];
        for (int i = 0; i < rows; i++) {
            double mean = 0, var = 0;
            for (int j = 0; j < d; j++) mean += x[i * d + j];
            mean /= d;
            for (int j = 0; j < d; j++) var += (x[i * d + j] - mean) * (x[i * d + j] - mean);
            var /= d;
            for (int j = 0; j < d; j++) y[i * d + j] = (x[i * d + j] - mean) / Math.sqrt(var + eps) * gamma[j] + beta[j];
        }
        return y;
    }
}
