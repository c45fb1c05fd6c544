package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.layers.Gru;
import dev.jburn.nn.layers.Lstm;
import dev.jburn.nn.layers.MultiHeadAttention;
import dev.jburn.nn.layers.TransformerEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Bad options and bad inputs of the recurrent and attention layers, and their shapes and parameter names. */
class RecurrentLayersTest {
    private static void fails(String start, String part, Executable e) {
        JBurnException x = assertThrows(JBurnException.class, e);
        assertTrue(x.getMessage().startsWith(start), x.getMessage());
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }

    @Test
    void badOptionsNameTheKind() {
        fails("lstm", "units must be positive", () -> Lstm.of(0));
        fails("gru", "units must be positive", () -> Gru.of(-2));
        fails("lstm", "initializer", () -> Lstm.of(2).withInitializer(null));
        fails("multi_head_attention", "numHeads must be positive", () -> MultiHeadAttention.of(0, 4));
        fails("multi_head_attention", "keyDim and valueDim", () -> MultiHeadAttention.of(2, 0));
        fails("multi_head_attention", "keyDim and valueDim", () -> MultiHeadAttention.of(2, 4).withValueDim(0));
        fails("multi_head_attention", "[0, 1)", () -> MultiHeadAttention.of(2, 4).withDropout(1.0));
        fails("transformer_encoder", "numHeads and ffDim", () -> TransformerEncoder.of(2, 0));
        fails("transformer_encoder", "[0, 1)", () -> TransformerEncoder.of(2, 8).withDropout(-0.1));
        fails("transformer_encoder", "epsilon", () -> TransformerEncoder.of(2, 8).withEpsilon(0));
    }

    @Test
    void badInputsNameTheLayerAndShapes() {
        Model flat = Model.input("x", Shape.of(-1, 5));
        fails("lstm_0 (lstm)", "[batch, time, features]", () -> flat.lstm(3).outputSpecs());
        fails("gru_0 (gru)", "[-1, 5]", () -> flat.gru(3).outputSpecs());
        fails("lstm_0 (lstm)", "known feature size", () -> Model.input("x", Shape.of(-1, 4, -1)).lstm(3).outputSpecs());
        fails("gru_0 (gru)", "float", () -> Model.input("x", Shape.of(-1, 4, 2), DType.S32).gru(3).outputSpecs());

        Model x = Model.input("x", Shape.of(-1, 6, 8));
        fails("multi_head_attention_0 (multi_head_attention)", "rank 3", () -> flat.selfAttention(2, 4).outputSpecs());
        Model mem = Model.input("m", Shape.of(-1, 5, 8)), other = Model.input("v", Shape.of(-1, 4, 8));
        fails("multi_head_attention_0 (multi_head_attention)", "one length",
                () -> Model.apply(MultiHeadAttention.of(2, 4), x, mem, other).outputSpecs());
        fails("multi_head_attention_0 (multi_head_attention)", "1 to 3 inputs",
                () -> Model.apply(MultiHeadAttention.of(2, 4), x, mem, mem, mem).outputSpecs());
        fails("multi_head_attention_0 (multi_head_attention)", "2 to 4 inputs",
                () -> x.apply(MultiHeadAttention.of(2, 4).withKeyPaddingMask(true)).outputSpecs());
        Model badMask = Model.input("keep", Shape.of(-1, 6), DType.PRED);
        fails("multi_head_attention_0 (multi_head_attention)", "key padding mask of shape [batch, key length] = [-1, 5]",
                () -> Model.apply(MultiHeadAttention.of(2, 4).withKeyPaddingMask(true), x, mem, badMask).outputSpecs());
        fails("multi_head_attention_0 (multi_head_attention)", "one dtype",
                () -> Model.multiHeadAttention(2, 4, x, Model.input("m", Shape.of(-1, 5, 8), DType.F64)).outputSpecs());
        fails("multi_head_attention_0 (multi_head_attention)", "batch size",
                () -> Model.multiHeadAttention(2, 4, Model.input("a", Shape.of(2, 6, 8)), Model.input("b", Shape.of(3, 5, 8))).outputSpecs());

        fails("transformer_encoder_0 (transformer_encoder)", "divisible by numHeads 3", () -> x.transformerEncoder(3, 16, 0.1).outputSpecs());
        fails("transformer_encoder_0 (transformer_encoder)", "one input",
                () -> Model.apply(TransformerEncoder.of(2, 16), x, x).outputSpecs());
        fails("transformer_encoder_0 (transformer_encoder)", "key padding mask",
                () -> Model.apply(TransformerEncoder.of(2, 16).withKeyPaddingMask(true), x, Model.input("k", Shape.of(-1, 5))).outputSpecs());
    }

    @Test
    void shapesAndPyTorchParameterNames() {
        Model x = Model.input("x", Shape.of(-1, -1, 3));
        Model bi = x.bidirectionalLstm(4, true);
        assertEquals(Shape.of(-1, -1, 8), bi.outputSpecs().getFirst().shape());
        assertEquals(List.of("lstm_0.weight_ih", "lstm_0.weight_hh", "lstm_0.bias_ih", "lstm_0.bias_hh", "lstm_0.weight_ih_reverse",
                "lstm_0.weight_hh_reverse", "lstm_0.bias_ih_reverse", "lstm_0.bias_hh_reverse"), List.copyOf(bi.parameterSpecs().keySet()));
        assertEquals(Shape.of(16, 3), bi.parameterSpecs().get("lstm_0.weight_ih").shape());
        assertEquals(Shape.of(16, 4), bi.parameterSpecs().get("lstm_0.weight_hh").shape());
        Model g = x.gru(5);
        assertEquals(Shape.of(-1, 5), g.outputSpecs().getFirst().shape());
        assertEquals(Shape.of(15, 3), g.parameterSpecs().get("gru_0.weight_ih").shape());
        // PyTorch's default initialization: U(-1/sqrt(H), 1/sqrt(H))
        ModelState s = g.init(Prng.key(3));
        for (float v : s.get("gru_0.weight_hh").toFloatArray()) assertTrue(Math.abs(v) <= 1 / Math.sqrt(5) + 1e-7);

        Model seq = Model.input("x", Shape.of(-1, 4, 8));
        Model enc = seq.transformerEncoder(2, 16, 0.1);
        assertEquals(Shape.of(-1, 4, 8), enc.outputSpecs().getFirst().shape());
        assertTrue(enc.parameterSpecs().containsKey("transformer_encoder_0.attention_query_kernel"));
        assertEquals(Shape.of(8, 16), enc.parameterSpecs().get("transformer_encoder_0.ffn_1_kernel").shape());
        assertTrue(enc.parameterSpecs().containsKey("transformer_encoder_0.norm_2_gamma"));
        Model cross = Model.multiHeadAttention(2, 3, seq, Model.input("m", Shape.of(-1, 5, 6)));
        assertEquals(Shape.of(-1, 4, 8), cross.outputSpecs().getFirst().shape());
        assertEquals(Shape.of(6, 6), cross.parameterSpecs().get("multi_head_attention_0.key_kernel").shape());
        assertEquals(Shape.of(6, 8), cross.parameterSpecs().get("multi_head_attention_0.output_kernel").shape());
    }

    @Test
    void anUnrolledLstmTrainsInF32UnderJitAndTheMaskedAttentionHasNoNaN() {
        Model m = Model.input("x", Shape.of(-1, -1, 2)).lstm(3, true).selfAttention(1, 2);
        ModelState s = m.init(Prng.key(1));
        Tensor x = Prng.normalSplit(Prng.key(2), Shape.of(2, 3, 2), DType.F32, 0, 1);
        Tensor y = m.predict(s, x);
        assertEquals(Shape.of(2, 3, 3), y.shape());
        for (float v : y.toFloatArray()) assertTrue(Float.isFinite(v));
        // another length: the loop unrolls again (a second compiled function)
        Tensor longer = Prng.normalSplit(Prng.key(2), Shape.of(2, 5, 2), DType.F32, 0, 1);
        assertEquals(Shape.of(2, 5, 3), m.predict(s, longer).shape());
        // an empty sequence: the zero initial state, or no steps
        Model seqs = Model.input("x", Shape.of(-1, -1, 2)).lstm(3, true), last = Model.input("x", Shape.of(-1, -1, 2)).gru(3);
        Tensor empty = Tensor.zeros(Shape.of(2, 0, 2), DType.F32);
        assertEquals(Shape.of(2, 0, 3), seqs.predict(seqs.init(Prng.key(0)), empty).shape());
        assertArrayEquals(new float[6], last.predict(last.init(Prng.key(0)), empty).toFloatArray());
        // gradients through time, under Autodiff, are finite and non-zero for the first step's input
        Tensor g = dev.jburn.autodiff.Autodiff.grad((Tensor in) -> m.call(s.params(), s.state(), List.of(in), false, null).output().sum()).apply(x);
        float[] gv = g.toFloatArray();
        assertTrue(Math.abs(gv[0]) + Math.abs(gv[1]) > 0, java.util.Arrays.toString(gv));

        Model q = Model.input("q", Shape.of(-1, 2, 4)), keep = Model.input("keep", Shape.of(-1, 2), DType.PRED);
        Model att = Model.apply(MultiHeadAttention.of(2, 2).withKeyPaddingMask(true).withBiasInitializer(dev.jburn.nn.Initializers.ones()), q, keep);
        ModelState as = att.init(Prng.key(4));
        Tensor out = att.predict(as, Prng.normalSplit(Prng.key(5), Shape.of(1, 2, 4), DType.F32, 0, 1), Tensor.of(false, false).reshape(1, 2));
        float[] o = out.toFloatArray();
        float[] bias = as.get("multi_head_attention_0.output_bias").toFloatArray();
        for (int i = 0; i < o.length; i++) assertEquals(bias[i % 4], o[i], 1e-6f, "a query with no key left gives the output bias");
    }
}
