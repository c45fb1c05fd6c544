package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;

import java.util.List;

/**
 * A long short-term memory layer over a batch-first sequence {@code [batch, time, features]},
 * with PyTorch's gate order, parameter layout and names ({@code torch.nn.LSTM}, {@code batch_first=True}),
 * so that PyTorch weights load as they are. For each step, from a zero initial state {@code h = c = 0}:
 *
 * <pre>
 * i  = σ(W_ii x + b_ii + W_hi h + b_hi)
 * f  = σ(W_if x + b_if + W_hf h + b_hf)
 * g  = tanh(W_ig x + b_ig + W_hg h + b_hg)
 * o  = σ(W_io x + b_io + W_ho h + b_ho)
 * c' = f * c + i * g
 * h' = o * tanh(c')
 * </pre>
 *
 * <p>Parameters (gates stacked in the order {@code i, f, g, o} along the first axis, {@code H = units}):
 * {@code weight_ih [4H, features]} ({@code = [W_ii; W_if; W_ig; W_io]}), {@code weight_hh [4H, H]},
 * {@code bias_ih [4H]}, {@code bias_hh [4H]}; a bidirectional layer adds the backward direction's
 * {@code weight_ih_reverse}, {@code weight_hh_reverse}, {@code bias_ih_reverse}, {@code bias_hh_reverse}
 * (PyTorch's {@code weight_ih_l0_reverse} and friends without the layer index). All default to PyTorch's
 * {@code U(-1/√H, 1/√H)}. Note Keras stores {@code [features, 4H]} kernels, transposed, in the gate
 * order {@code i, f, c, o} with one bias.
 *
 * <p>Output: every hidden state {@code [batch, time, H]} when {@code returnSequences} (PyTorch's
 * {@code output}), else the last one {@code [batch, H]} (PyTorch's {@code h_n}, Keras's default).
 * Bidirectional: forward and backward concatenated on the feature axis ({@code 2H}, forward first);
 * the backward direction runs from the last step to the first, its state at position {@code t}
 * being the one after reading {@code x[t]}, and its "last" state the one after {@code x[0]}, as PyTorch.
 *
 * <p>The time loop is unrolled at trace time (see {@link Recurrence}): the time axis may be open in
 * the model's input, and each concrete length compiles its own function; reverse-mode gradients
 * flow through time.
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 20, 8)).apply(Lstm.of(32).withReturnSequences(true)).lstm(16).dense(1);
 * Model bi = Model.input("x", Shape.of(-1, -1, 8)).bidirectionalLstm(32, false);   // [-1, 64]
 * }</pre>
 *
 * @param units           the hidden size {@code H} (≥ 1)
 * @param returnSequences whether the output is every step's hidden state (default false: the last)
 * @param bidirectional   whether a backward direction runs too (default false)
 * @param useBias         whether the layer has {@code bias_ih} and {@code bias_hh} (default true, PyTorch's {@code bias})
 * @param initializer     of every parameter (default {@code U(-1/√H, 1/√H)})
 */
public record Lstm(int units, boolean returnSequences, boolean bidirectional, boolean useBias, Initializer initializer) implements Layer {
    public Lstm {
        if (units < 1) throw new JBurnException("lstm", "units must be positive, got " + units);
        if (initializer == null) throw new JBurnException("lstm", "the initializer must not be null");
    }

    /** {@code units} hidden units, returning the last state, one direction, with biases, PyTorch's initialization. */
    public static Lstm of(int units) { return new Lstm(units, false, false, true, Recurrence.pytorchUniform(units)); }

    public Lstm withReturnSequences(boolean r) { return new Lstm(units, r, bidirectional, useBias, initializer); }

    public Lstm withBidirectional(boolean b) { return new Lstm(units, returnSequences, b, useBias, initializer); }

    public Lstm withoutBias() { return new Lstm(units, returnSequences, bidirectional, false, initializer); }

    public Lstm withInitializer(Initializer i) { return new Lstm(units, returnSequences, bidirectional, useBias, i); }

    @Override public String kind() { return "lstm"; }

    @Override public TensorSpec output(LayerSignature in) { return Recurrence.output(in, units, returnSequences, bidirectional); }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        return Recurrence.parameters(in, 4, units, bidirectional, useBias, initializer);
    }

    @Override public Tensor apply(LayerCall call) {
        return Recurrence.run(call, 4, units, 2, returnSequences, bidirectional, useBias, (gx, gh, s) -> {
            Tensor z = gx.add(gh);
            Tensor i = Recurrence.gate(z, 0, units).sigmoid();
            Tensor f = Recurrence.gate(z, 1, units).sigmoid();
            Tensor g = Recurrence.gate(z, 2, units).tanh();
            Tensor o = Recurrence.gate(z, 3, units).sigmoid();
            Tensor c = f.multiply(s[1]).add(i.multiply(g));
            return new Tensor[] {o.multiply(c.tanh()), c};
        });
    }
}
