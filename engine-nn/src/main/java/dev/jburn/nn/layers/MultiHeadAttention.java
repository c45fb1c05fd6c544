package dev.jburn.nn.layers;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;
import dev.jburn.nn.internal.KeyBits;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Multi-head scaled dot-product attention (Vaswani et al.; Keras {@code MultiHeadAttention}) over
 * batch-first sequences. Inputs, in order: the query {@code [batch, Tq, dq]}, then optionally the
 * key {@code [batch, Tk, dk]} and the value {@code [batch, Tk, dv]}, then, when
 * {@link #keyPaddingMask}, the mask:
 * <ul>
 * <li>one input: self-attention, key = value = query;</li>
 * <li>two inputs: cross-attention, query and key = value;</li>
 * <li>three inputs: query, key, value.</li>
 * </ul>
 * For each head {@code j} ({@code Q_j = query·query_kernel[:, j·keyDim : (j+1)·keyDim] + query_bias[...]},
 * {@code K_j}, {@code V_j} alike):
 *
 * <pre>
 * A_j = softmax(Q_j K_jᵀ / √keyDim)      over the keys, masked
 * O_j = dropout(A_j) V_j
 * y   = concat_j(O_j) · output_kernel + output_bias      [batch, Tq, dq]
 * </pre>
 *
 * <p>Parameters (kernels {@code [in, out]} like {@link Dense}, heads contiguous along the output axis):
 * {@code query_kernel [dq, heads·keyDim]}, {@code key_kernel [dk, heads·keyDim]},
 * {@code value_kernel [dv, heads·valueDim]}, {@code output_kernel [heads·valueDim, dq]}, and, with
 * {@code useBias}, {@code query_bias}, {@code key_bias}, {@code value_bias} and {@code output_bias [dq]}.
 * Glorot-uniform kernels and zero biases by default (Keras; PyTorch's {@code in_proj} is Xavier-uniform
 * with zero biases too). From PyTorch's {@code nn.MultiheadAttention} (embed dim {@code E}):
 * {@code query_kernel = in_proj_weight[0:E]ᵀ}, {@code key_kernel = in_proj_weight[E:2E]ᵀ},
 * {@code value_kernel = in_proj_weight[2E:3E]ᵀ}, {@code output_kernel = out_proj.weightᵀ}.
 *
 * <p>Masks. The key padding mask is a {@code [batch, Tk]} input of any type where a non-zero value
 * ({@code 1}, {@code true}) means <em>attend to this key</em> and zero means ignore it — Keras's
 * convention; PyTorch's {@code key_padding_mask} is the opposite ({@code True} = ignore). The causal
 * mask lets query {@code i} attend to keys {@code j <= i} (top-left aligned, as Keras's
 * {@code use_causal_mask} and PyTorch's {@code is_causal}). Masked logits are replaced by {@code -1e9}
 * ({@code -65504} in f16) before the softmax, so their weights are exactly 0. A query whose keys
 * are all masked gets all-zero attention weights (its output is {@code output_bias}), not NaN:
 * its row of logits is set to 0 before the softmax and its weights are zeroed after, so neither
 * the output nor any gradient is NaN.
 *
 * <p>Dropout ({@code dropout > 0}) zeroes attention weights with that probability and scales the
 * rest by {@code 1/(1 - dropout)}, in training mode only, with the layer's key ({@link LayerCall#key()}).
 *
 * <pre>{@code
 * Model x = Model.input("x", Shape.of(-1, 10, 32));
 * Model self = x.selfAttention(4, 8);                                   // [-1, 10, 32]
 * Model mem = Model.input("memory", Shape.of(-1, 7, 16));
 * Model cross = Model.multiHeadAttention(4, 8, x, mem);                 // query x, key = value = memory
 * Model mask = Model.input("keep", Shape.of(-1, 10), DType.PRED);
 * Model masked = Model.apply(MultiHeadAttention.of(4, 8).withKeyPaddingMask(true).withCausalMask(true), x, mask);
 * }</pre>
 *
 * @param numHeads          number of heads (≥ 1)
 * @param keyDim            size of each head's queries and keys (≥ 1)
 * @param valueDim          size of each head's values (≥ 1; default {@code keyDim})
 * @param useBias           whether the projections have biases (default true)
 * @param dropout           dropout rate on the attention weights, in {@code [0, 1)} (default 0)
 * @param causal            whether query {@code i} sees only keys {@code j <= i} (default false)
 * @param keyPaddingMask    whether the last input is a {@code [batch, Tk]} keep-mask (default false)
 * @param kernelInitializer default Glorot uniform
 * @param biasInitializer   default zeros
 */
public record MultiHeadAttention(int numHeads, int keyDim, int valueDim, boolean useBias, double dropout, boolean causal,
                                 boolean keyPaddingMask, Initializer kernelInitializer, Initializer biasInitializer) implements Layer {
    public MultiHeadAttention {
        if (numHeads < 1) throw new JBurnException("multi_head_attention", "numHeads must be positive, got " + numHeads);
        if (keyDim < 1 || valueDim < 1) {
            throw new JBurnException("multi_head_attention", "keyDim and valueDim must be positive, got " + keyDim + " and " + valueDim);
        }
        if (!(dropout >= 0 && dropout < 1)) throw new JBurnException("multi_head_attention", "dropout must be in [0, 1), got " + dropout);
        if (kernelInitializer == null || biasInitializer == null) {
            throw new JBurnException("multi_head_attention", "the initializers must not be null");
        }
    }

    /** {@code numHeads} heads of {@code keyDim} (values too), biases, no dropout, no masks. */
    public static MultiHeadAttention of(int numHeads, int keyDim) {
        return new MultiHeadAttention(numHeads, keyDim, keyDim, true, 0, false, false, Initializers.glorotUniform(), Initializers.zeros());
    }

    public MultiHeadAttention withValueDim(int v) {
        return new MultiHeadAttention(numHeads, keyDim, v, useBias, dropout, causal, keyPaddingMask, kernelInitializer, biasInitializer);
    }

    public MultiHeadAttention withoutBias() {
        return new MultiHeadAttention(numHeads, keyDim, valueDim, false, dropout, causal, keyPaddingMask, kernelInitializer, biasInitializer);
    }

    public MultiHeadAttention withDropout(double rate) {
        return new MultiHeadAttention(numHeads, keyDim, valueDim, useBias, rate, causal, keyPaddingMask, kernelInitializer, biasInitializer);
    }

    public MultiHeadAttention withCausalMask(boolean c) {
        return new MultiHeadAttention(numHeads, keyDim, valueDim, useBias, dropout, c, keyPaddingMask, kernelInitializer, biasInitializer);
    }

    public MultiHeadAttention withKeyPaddingMask(boolean m) {
        return new MultiHeadAttention(numHeads, keyDim, valueDim, useBias, dropout, causal, m, kernelInitializer, biasInitializer);
    }

    public MultiHeadAttention withKernelInitializer(Initializer i) {
        return new MultiHeadAttention(numHeads, keyDim, valueDim, useBias, dropout, causal, keyPaddingMask, i, biasInitializer);
    }

    public MultiHeadAttention withBiasInitializer(Initializer i) {
        return new MultiHeadAttention(numHeads, keyDim, valueDim, useBias, dropout, causal, keyPaddingMask, kernelInitializer, i);
    }

    @Override public String kind() { return "multi_head_attention"; }

    /** True when it has dropout: it draws the attention-weight mask in training mode. */
    @Override public boolean usesKey() { return dropout > 0; }

    @Override public TensorSpec output(LayerSignature in) {
        List<TensorSpec> ins = in.inputs();
        int data = ins.size() - (keyPaddingMask ? 1 : 0);
        if (data < 1 || data > 3) {
            throw in.error("takes a query, optionally a key and a value" + (keyPaddingMask ? ", then the key padding mask" : "")
                    + " (" + (keyPaddingMask ? "2 to 4" : "1 to 3") + " inputs), got " + ins.size());
        }
        TensorSpec q = ins.get(0), k = ins.get(data >= 2 ? 1 : 0), v = ins.get(data == 3 ? 2 : data == 2 ? 1 : 0);
        checkSequence(in, q, "query");
        checkSequence(in, k, "key");
        checkSequence(in, v, "value");
        if (k.dtype() != q.dtype() || v.dtype() != q.dtype()) throw in.error("needs query, key and value of one dtype, got " + q + ", " + k + ", " + v);
        if (!agree(k.dim(1), v.dim(1))) throw in.error("needs key and value of one length (axis 1), got key " + k.shape() + " and value " + v.shape());
        if (!agree(q.dim(0), k.dim(0)) || !agree(q.dim(0), v.dim(0))) {
            throw in.error("needs query, key and value of one batch size, got " + q.shape() + ", " + k.shape() + ", " + v.shape());
        }
        if (keyPaddingMask) checkMask(in, ins.getLast(), q.dim(0), k.dim(1));
        return q;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        List<TensorSpec> ins = in.inputs();
        int data = ins.size() - (keyPaddingMask ? 1 : 0);
        int dq = ins.get(0).dim(2), dk = ins.get(data >= 2 ? 1 : 0).dim(2), dv = ins.get(data == 3 ? 2 : data == 2 ? 1 : 0).dim(2);
        return parameterSpecs("", dq, dk, dv, numHeads, keyDim, valueDim, useBias, in.floatType(), kernelInitializer, biasInitializer);
    }

    @Override public Tensor apply(LayerCall call) {
        List<Tensor> ins = call.inputs();
        int data = ins.size() - (keyPaddingMask ? 1 : 0);
        Tensor q = ins.get(0), k = ins.get(data >= 2 ? 1 : 0), v = ins.get(data == 3 ? 2 : data == 2 ? 1 : 0);
        Tensor mask = keyPaddingMask ? ins.getLast() : null;
        Tensor key = call.training() && dropout > 0 ? call.key() : null;
        return attend(call::param, "", numHeads, keyDim, valueDim, useBias, q, k, v, mask, causal, dropout, key);
    }

    // ---- shared with TransformerEncoder ----------------------------------------------------------

    /** Fails unless {@code s} is a float {@code [batch, time, features]} with known features. */
    static void checkSequence(LayerSignature in, TensorSpec s, String what) {
        if (s.rank() != 3) throw in.error("expects a " + what + " of rank 3 [batch, time, features], got shape " + s.shape());
        if (!s.dtype().isFloat()) throw in.error("expects a float " + what + ", got " + s);
        if (s.dim(2) == Shape.OPEN) throw in.error("needs a known feature size (last axis) of the " + what + ", got shape " + s.shape());
    }

    /** Fails unless {@code m} is a {@code [batch, keyLength]} mask. */
    static void checkMask(LayerSignature in, TensorSpec m, int batch, int keys) {
        if (m.rank() != 2 || !agree(m.dim(0), batch) || !agree(m.dim(1), keys)) {
            throw in.error("expects a key padding mask of shape [batch, key length] = " + Shape.of(batch, keys) + ", got " + m);
        }
    }

    private static boolean agree(int a, int b) { return a == Shape.OPEN || b == Shape.OPEN || a == b; }

    /** The projections' parameters, each name prefixed with {@code prefix}. */
    static List<ParamSpec> parameterSpecs(String prefix, int dq, int dk, int dv, int heads, int keyDim, int valueDim, boolean useBias,
                                          DType t, Initializer kernel, Initializer bias) {
        List<ParamSpec> p = new ArrayList<>();
        p.add(new ParamSpec(prefix + "query_kernel", Shape.of(dq, heads * keyDim), t, kernel));
        if (useBias) p.add(new ParamSpec(prefix + "query_bias", Shape.of(heads * keyDim), t, bias));
        p.add(new ParamSpec(prefix + "key_kernel", Shape.of(dk, heads * keyDim), t, kernel));
        if (useBias) p.add(new ParamSpec(prefix + "key_bias", Shape.of(heads * keyDim), t, bias));
        p.add(new ParamSpec(prefix + "value_kernel", Shape.of(dv, heads * valueDim), t, kernel));
        if (useBias) p.add(new ParamSpec(prefix + "value_bias", Shape.of(heads * valueDim), t, bias));
        p.add(new ParamSpec(prefix + "output_kernel", Shape.of(heads * valueDim, dq), t, kernel));
        if (useBias) p.add(new ParamSpec(prefix + "output_bias", Shape.of(dq), t, bias));
        return p;
    }

    /**
     * The attention itself. {@code mask}: a {@code [batch, Tk]} keep-mask or null; {@code key}: the
     * dropout key (training mode with {@code dropout > 0}) or null.
     */
    static Tensor attend(Function<String, Tensor> param, String prefix, int heads, int keyDim, int valueDim, boolean useBias,
                         Tensor query, Tensor keys, Tensor values, Tensor mask, boolean causal, double dropout, Tensor key) {
        int batch = query.shape().dim(0), tq = query.shape().dim(1), tk = keys.shape().dim(1);
        Tensor q = heads(project(param, prefix + "query", useBias, query), batch, tq, heads, keyDim);    // [b, h, Tq, dk]
        Tensor k = heads(project(param, prefix + "key", useBias, keys), batch, tk, heads, keyDim);       // [b, h, Tk, dk]
        Tensor v = heads(project(param, prefix + "value", useBias, values), batch, tk, heads, valueDim); // [b, h, Tk, dv]
        Tensor logits = q.dot(new int[] {3}, new int[] {0, 1}, k, new int[] {3}, new int[] {0, 1}).multiply(1 / Math.sqrt(keyDim));
        Tensor keep = null;                                                                            // broadcasts to [b, h, Tq, Tk]
        if (mask != null) {
            Tensor m = mask.dtype() == DType.PRED ? mask : mask.dtype().isFloat() ? mask.notEqual(0.0) : mask.notEqual(0L);
            keep = m.reshape(batch, 1, 1, tk);
        }
        if (causal) {
            Tensor rows = Tensor.iota(Shape.of(tq, tk), DType.S32, 0).to(query.engine());
            Tensor cols = Tensor.iota(Shape.of(tq, tk), DType.S32, 1).to(query.engine());
            Tensor c = cols.lessEqual(rows).reshape(1, 1, tq, tk);
            keep = keep == null ? c : keep.logicalAnd(c);
        }
        Tensor weights;
        if (keep == null) {
            weights = logits.subtract(logits.logSumExp(new int[] {3}, true)).exp();
        } else {
            Tensor any = keep.any(new int[] {3}, true);                                                 // a query with a key to attend
            Tensor filled = keep.select(logits, logits.dtype() == DType.F16 ? -65504.0 : -1e9);
            filled = any.select(filled, 0.0);                                                           // all-masked rows: finite logits
            weights = keep.select(filled.subtract(filled.logSumExp(new int[] {3}, true)).exp(), 0.0);
        }
        if (key != null && dropout > 0) {
            weights = KeyBits.keepMask(key, weights.shape(), dropout).select(weights.divide(1 - dropout), 0.0);
        }
        Tensor o = weights.dot(new int[] {3}, new int[] {0, 1}, v, new int[] {2}, new int[] {0, 1});     // [b, h, Tq, dv]
        o = o.transpose(0, 2, 1, 3).reshape(batch, tq, heads * valueDim);
        Tensor y = o.dot(param.apply(prefix + "output_kernel"));
        return useBias ? y.add(param.apply(prefix + "output_bias")) : y;
    }

    private static Tensor project(Function<String, Tensor> param, String name, boolean useBias, Tensor x) {
        Tensor y = x.dot(param.apply(name + "_kernel"));
        return useBias ? y.add(param.apply(name + "_bias")) : y;
    }

    /** {@code [b, T, h·d] -> [b, h, T, d]}. */
    private static Tensor heads(Tensor x, int batch, int steps, int heads, int dim) {
        return x.reshape(batch, steps, heads, dim).transpose(0, 2, 1, 3);
    }
}
