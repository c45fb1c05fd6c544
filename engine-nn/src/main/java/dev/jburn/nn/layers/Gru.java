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
 * A gated recurrent unit layer over a batch-first sequence {@code [batch, time, features]}, with
 * PyTorch's formula, gate order, parameter layout and names ({@code torch.nn.GRU}, {@code batch_first=True}).
 * For each step, from a zero initial state {@code h = 0}:
 *
 * <pre>
 * r  = σ(W_ir x + b_ir + W_hr h + b_hr)
 * z  = σ(W_iz x + b_iz + W_hz h + b_hz)
 * n  = tanh(W_in x + b_in + r * (W_hn h + b_hn))
 * h' = (1 - z) * n + z * h
 * </pre>
 *
 * (the reset gate applies after the recurrent matrix product, PyTorch's and cuDNN's variant, Keras's
 * {@code reset_after=True}).
 *
 * <p>Parameters (gates stacked in the order {@code r, z, n} along the first axis, {@code H = units}):
 * {@code weight_ih [3H, features]}, {@code weight_hh [3H, H]}, {@code bias_ih [3H]}, {@code bias_hh [3H]};
 * a bidirectional layer adds {@code weight_ih_reverse}, {@code weight_hh_reverse}, {@code bias_ih_reverse},
 * {@code bias_hh_reverse}. All default to PyTorch's {@code U(-1/√H, 1/√H)}. (Keras's kernels are
 * transposed, {@code [features, 3H]}, in the gate order {@code z, r, h}.)
 *
 * <p>Output, bidirectional layout and the unrolled time loop as {@link Lstm}: {@code [batch, time, H]}
 * with {@code returnSequences}, else the last state {@code [batch, H]}; {@code 2H} features when bidirectional.
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 12, 4)).gru(16, true).gru(8);   // [-1, 8]
 * }</pre>
 *
 * @param units           the hidden size {@code H} (≥ 1)
 * @param returnSequences whether the output is every step's hidden state (default false: the last)
 * @param bidirectional   whether a backward direction runs too (default false)
 * @param useBias         whether the layer has {@code bias_ih} and {@code bias_hh} (default true)
 * @param initializer     of every parameter (default {@code U(-1/√H, 1/√H)})
 */
public record Gru(int units, boolean returnSequences, boolean bidirectional, boolean useBias, Initializer initializer) implements Layer {
    public Gru {
        if (units < 1) throw new JBurnException("gru", "units must be positive, got " + units);
        if (initializer == null) throw new JBurnException("gru", "the initializer must not be null");
    }

    /** {@code units} hidden units, returning the last state, one direction, with biases, PyTorch's initialization. */
    public static Gru of(int units) { return new Gru(units, false, false, true, Recurrence.pytorchUniform(units)); }

    public Gru withReturnSequences(boolean r) { return new Gru(units, r, bidirectional, useBias, initializer); }

    public Gru withBidirectional(boolean b) { return new Gru(units, returnSequences, b, useBias, initializer); }

    public Gru withoutBias() { return new Gru(units, returnSequences, bidirectional, false, initializer); }

    public Gru withInitializer(Initializer i) { return new Gru(units, returnSequences, bidirectional, useBias, i); }

    @Override public String kind() { return "gru"; }

    @Override public TensorSpec output(LayerSignature in) { return Recurrence.output(in, units, returnSequences, bidirectional); }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        return Recurrence.parameters(in, 3, units, bidirectional, useBias, initializer);
    }

    @Override public Tensor apply(LayerCall call) {
        return Recurrence.run(call, 3, units, 1, returnSequences, bidirectional, useBias, (gx, gh, s) -> {
            Tensor r = Recurrence.gate(gx, 0, units).add(Recurrence.gate(gh, 0, units)).sigmoid();
            Tensor z = Recurrence.gate(gx, 1, units).add(Recurrence.gate(gh, 1, units)).sigmoid();
            Tensor n = Recurrence.gate(gx, 2, units).add(r.multiply(Recurrence.gate(gh, 2, units))).tanh();
            // (1 - z)·n + z·h, written n + z·(h - n)
            return new Tensor[] {n.add(z.multiply(s[0].subtract(n)))};
        });
    }
}
