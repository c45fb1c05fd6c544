package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
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

/**
 * One transformer encoder block over {@code [batch, time, dModel]}, as PyTorch's
 * {@code nn.TransformerEncoderLayer(batch_first=True)}: multi-head self-attention with
 * {@code numHeads} heads of {@code dModel / numHeads} ({@link MultiHeadAttention}'s math), then a
 * feed-forward network {@code dense(ffDim, activation) -> dense(dModel)}, each wrapped in dropout,
 * a residual connection and a layer normalization. Post-LN (the default, PyTorch's {@code norm_first=False}):
 *
 * <pre>
 * x = norm_1(x + dropout(attention(x)))
 * y = norm_2(x + dropout(ffn_2(dropout(activation(ffn_1(x))))))
 * </pre>
 *
 * pre-LN ({@code normFirst}): {@code x = x + dropout(attention(norm_1(x)))}, {@code y = x + dropout(ffn(norm_2(x)))}.
 * The dropout rate applies, as in PyTorch, at four places: the attention weights, the attention
 * output, the feed-forward hidden layer and the feed-forward output (training mode only; each
 * its own mask, from keys folded from the layer's key with 0, 1, 2, 3).
 * Layer normalization is over the last axis with the biased variance:
 * {@code (x - mean) / √(var + epsilon) · gamma + beta}.
 *
 * <p>One layer, so every parameter lives under its name: {@code attention_query_kernel [d, d]},
 * {@code attention_query_bias [d]}, {@code attention_key_*}, {@code attention_value_*},
 * {@code attention_output_kernel [d, d]}, {@code attention_output_bias}, {@code ffn_1_kernel [d, ffDim]},
 * {@code ffn_1_bias [ffDim]}, {@code ffn_2_kernel [ffDim, d]}, {@code ffn_2_bias [d]},
 * {@code norm_1_gamma [d]}, {@code norm_1_beta}, {@code norm_2_gamma}, {@code norm_2_beta}.
 * Kernels are {@code [in, out]} ({@link Dense}'s layout; PyTorch's {@code linear1.weight} is
 * {@code ffn_1_kernel}ᵀ; the attention kernels map from {@code self_attn} as in {@link MultiHeadAttention}).
 * Kernels Glorot uniform, biases and betas zero, gammas one, by default.
 *
 * <p>With {@link #keyPaddingMask} the block takes a second input, the {@code [batch, time]} keep-mask
 * of {@link MultiHeadAttention} (non-zero = attend; the opposite of PyTorch's {@code src_key_padding_mask});
 * {@link #causal} masks future positions.
 *
 * <pre>{@code
 * Model enc = Model.input("x", Shape.of(-1, 16, 64))
 *         .transformerEncoder(8, 256, 0.1)
 *         .apply(TransformerEncoder.of(8, 256).withActivation(Activation.GELU).withNormFirst(true));
 * }</pre>
 *
 * @param numHeads       number of heads (≥ 1, dividing {@code dModel})
 * @param ffDim          hidden size of the feed-forward network (≥ 1; PyTorch's {@code dim_feedforward})
 * @param dropout        dropout rate in {@code [0, 1)} (default 0.1, PyTorch's)
 * @param activation     of the feed-forward hidden layer (default relu, PyTorch's; gelu is common)
 * @param normFirst      pre-LN instead of post-LN (default false)
 * @param epsilon        of the layer norms (default 1e-5)
 * @param causal         whether position {@code i} attends only to {@code j <= i} (default false)
 * @param keyPaddingMask whether a second input is a {@code [batch, time]} keep-mask (default false)
 * @param kernelInitializer of every kernel (default Glorot uniform)
 * @param biasInitializer   of every bias and beta (default zeros)
 * @param gammaInitializer  of the layer norms' gammas (default ones)
 */
public record TransformerEncoder(int numHeads, int ffDim, double dropout, Activation activation, boolean normFirst, double epsilon,
                                 boolean causal, boolean keyPaddingMask, Initializer kernelInitializer, Initializer biasInitializer,
                                 Initializer gammaInitializer) implements Layer {
    public TransformerEncoder {
        if (numHeads < 1 || ffDim < 1) {
            throw new JBurnException("transformer_encoder", "numHeads and ffDim must be positive, got " + numHeads + " and " + ffDim);
        }
        if (!(dropout >= 0 && dropout < 1)) throw new JBurnException("transformer_encoder", "dropout must be in [0, 1), got " + dropout);
        if (activation == null || kernelInitializer == null || biasInitializer == null || gammaInitializer == null) {
            throw new JBurnException("transformer_encoder", "the activation and initializers must not be null");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new JBurnException("transformer_encoder", "epsilon must be positive and finite, got " + epsilon);
        }
    }

    /** {@code numHeads} heads, a feed-forward network of {@code ffDim}, PyTorch's defaults (dropout 0.1, relu, post-LN, 1e-5). */
    public static TransformerEncoder of(int numHeads, int ffDim) {
        return new TransformerEncoder(numHeads, ffDim, 0.1, Activation.RELU, false, 1e-5, false, false,
                Initializers.glorotUniform(), Initializers.zeros(), Initializers.ones());
    }

    public TransformerEncoder withDropout(double rate) {
        return new TransformerEncoder(numHeads, ffDim, rate, activation, normFirst, epsilon, causal, keyPaddingMask, kernelInitializer, biasInitializer, gammaInitializer);
    }

    public TransformerEncoder withActivation(Activation a) {
        return new TransformerEncoder(numHeads, ffDim, dropout, a, normFirst, epsilon, causal, keyPaddingMask, kernelInitializer, biasInitializer, gammaInitializer);
    }

    public TransformerEncoder withNormFirst(boolean n) {
        return new TransformerEncoder(numHeads, ffDim, dropout, activation, n, epsilon, causal, keyPaddingMask, kernelInitializer, biasInitializer, gammaInitializer);
    }

    public TransformerEncoder withEpsilon(double e) {
        return new TransformerEncoder(numHeads, ffDim, dropout, activation, normFirst, e, causal, keyPaddingMask, kernelInitializer, biasInitializer, gammaInitializer);
    }

    public TransformerEncoder withCausalMask(boolean c) {
        return new TransformerEncoder(numHeads, ffDim, dropout, activation, normFirst, epsilon, c, keyPaddingMask, kernelInitializer, biasInitializer, gammaInitializer);
    }

    public TransformerEncoder withKeyPaddingMask(boolean m) {
        return new TransformerEncoder(numHeads, ffDim, dropout, activation, normFirst, epsilon, causal, m, kernelInitializer, biasInitializer, gammaInitializer);
    }

    public TransformerEncoder withKernelInitializer(Initializer i) {
        return new TransformerEncoder(numHeads, ffDim, dropout, activation, normFirst, epsilon, causal, keyPaddingMask, i, biasInitializer, gammaInitializer);
    }

    /** The initializer of every bias and of the layer norms' betas. */
    public TransformerEncoder withBiasInitializer(Initializer i) {
        return new TransformerEncoder(numHeads, ffDim, dropout, activation, normFirst, epsilon, causal, keyPaddingMask, kernelInitializer, i, gammaInitializer);
    }

    /** The initializer of the layer norms' gammas. */
    public TransformerEncoder withGammaInitializer(Initializer i) {
        return new TransformerEncoder(numHeads, ffDim, dropout, activation, normFirst, epsilon, causal, keyPaddingMask, kernelInitializer, biasInitializer, i);
    }

    @Override public String kind() { return "transformer_encoder"; }

    /** True when it has dropout. */
    @Override public boolean usesKey() { return dropout > 0; }

    @Override public TensorSpec output(LayerSignature in) {
        List<TensorSpec> ins = in.inputs();
        int want = keyPaddingMask ? 2 : 1;
        if (ins.size() != want) {
            throw in.error("takes " + (keyPaddingMask ? "the sequence and its key padding mask (2 inputs)" : "one input, the sequence") + ", got " + ins.size());
        }
        TensorSpec x = ins.getFirst();
        MultiHeadAttention.checkSequence(in, x, "input");
        if (x.dim(2) % numHeads != 0) throw in.error("needs a model size divisible by numHeads " + numHeads + ", got input of shape " + x.shape());
        if (keyPaddingMask) MultiHeadAttention.checkMask(in, ins.get(1), x.dim(0), x.dim(1));
        return x;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        int d = in.inputs().getFirst().dim(2), head = d / numHeads;
        var t = in.floatType();
        Initializer kernel = kernelInitializer, zeros = biasInitializer, ones = gammaInitializer;
        List<ParamSpec> p = new ArrayList<>(MultiHeadAttention.parameterSpecs("attention_", d, d, d, numHeads, head, head, true, t, kernel, zeros));
        p.add(new ParamSpec("ffn_1_kernel", Shape.of(d, ffDim), t, kernel));
        p.add(new ParamSpec("ffn_1_bias", Shape.of(ffDim), t, zeros));
        p.add(new ParamSpec("ffn_2_kernel", Shape.of(ffDim, d), t, kernel));
        p.add(new ParamSpec("ffn_2_bias", Shape.of(d), t, zeros));
        for (String n : new String[] {"norm_1", "norm_2"}) {
            p.add(new ParamSpec(n + "_gamma", Shape.of(d), t, ones));
            p.add(new ParamSpec(n + "_beta", Shape.of(d), t, zeros));
        }
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input(0);
        Tensor mask = keyPaddingMask ? call.input(1) : null;
        int head = x.shape().dim(2) / numHeads;
        Tensor key = call.training() && dropout > 0 ? call.key() : null;
        Tensor[] keys = new Tensor[4];
        if (key != null) for (int i = 0; i < 4; i++) keys[i] = KeyBits.foldIn(key, i);

        Tensor a = normFirst ? norm(call, "norm_1", x) : x;
        a = MultiHeadAttention.attend(call::param, "attention_", numHeads, head, head, true, a, a, a, mask, causal, dropout, keys[0]);
        x = x.add(drop(a, keys[1]));
        if (!normFirst) x = norm(call, "norm_1", x);

        Tensor f = normFirst ? norm(call, "norm_2", x) : x;
        f = activation.apply(f.dot(call.param("ffn_1_kernel")).add(call.param("ffn_1_bias")));
        f = drop(f, keys[2]).dot(call.param("ffn_2_kernel")).add(call.param("ffn_2_bias"));
        x = x.add(drop(f, keys[3]));
        return normFirst ? x : norm(call, "norm_2", x);
    }

    private Tensor drop(Tensor x, Tensor key) {
        if (key == null) return x;
        return KeyBits.keepMask(key, x.shape(), dropout).select(x.divide(1 - dropout), 0.0);
    }

    /** Layer normalization over the last axis, biased variance. */
    private Tensor norm(LayerCall call, String name, Tensor x) {
        Tensor mean = x.mean(new int[] {-1}, true);
        Tensor centered = x.subtract(mean);
        Tensor var = centered.multiply(centered).mean(new int[] {-1}, true);
        return centered.multiply(var.add(epsilon).rsqrt()).multiply(call.param(name + "_gamma")).add(call.param(name + "_beta"));
    }
}
