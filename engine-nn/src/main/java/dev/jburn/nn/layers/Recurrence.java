package dev.jburn.nn.layers;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What {@link Lstm} and {@link Gru} share: the input and output rules, PyTorch's parameter names
 * and layout, and the time loop, unrolled in Java.
 *
 * <p>The loop is unrolled when the layer is applied (eagerly, or once per input signature while
 * {@code Jit} traces), one cell step per time step of the concrete input, rather than written as a
 * {@code whileLoop}: reverse-mode {@code Autodiff} does not differentiate through a while loop,
 * and unrolling lets it differentiate through time (backpropagation through time) with ordinary
 * backward rules. A compiled model therefore holds {@code T} copies of the cell, and an input of
 * another sequence length compiles its own function.
 */
final class Recurrence {
    private Recurrence() {}

    /** One cell step: the input's gate pre-activations and the recurrent ones, the state in, the state out (hidden state first). */
    @FunctionalInterface
    interface Cell {
        /**
         * @param gx    {@code x_t · W_ihᵀ + b_ih}, {@code [batch, gates·H]}
         * @param gh    {@code h · W_hhᵀ + b_hh}, {@code [batch, gates·H]}
         * @param state the state ({@code h}, and {@code c} for an LSTM), each {@code [batch, H]}
         * @return the new state, {@code h} first
         */
        Tensor[] step(Tensor gx, Tensor gh, Tensor[] state);
    }

    /** The output rule: a float {@code [batch, time, features]} input with known features. */
    static TensorSpec output(LayerSignature in, int units, boolean returnSequences, boolean bidirectional) {
        TensorSpec x = in.requireRank(3, 3, "[batch, time, features]");
        in.requireFloat();
        if (x.dim(2) == Shape.OPEN) throw in.error("needs a known feature size (last axis), got input of shape " + x.shape());
        int out = bidirectional ? 2 * units : units;
        return x.withShape(returnSequences ? Shape.of(x.dim(0), x.dim(1), out) : Shape.of(x.dim(0), out));
    }

    /**
     * PyTorch's parameters: {@code weight_ih [G·H, in]}, {@code weight_hh [G·H, H]}, {@code bias_ih [G·H]},
     * {@code bias_hh [G·H]}, then the same with the suffix {@code _reverse} for the backward direction.
     */
    static List<ParamSpec> parameters(LayerSignature in, int gates, int units, boolean bidirectional, boolean useBias, Initializer init) {
        int features = in.shape().dim(2);
        List<ParamSpec> p = new ArrayList<>();
        for (String suffix : bidirectional ? new String[] {"", "_reverse"} : new String[] {""}) {
            p.add(new ParamSpec("weight_ih" + suffix, Shape.of(gates * units, features), in.floatType(), init));
            p.add(new ParamSpec("weight_hh" + suffix, Shape.of(gates * units, units), in.floatType(), init));
            if (useBias) {
                p.add(new ParamSpec("bias_ih" + suffix, Shape.of(gates * units), in.floatType(), init));
                p.add(new ParamSpec("bias_hh" + suffix, Shape.of(gates * units), in.floatType(), init));
            }
        }
        return p;
    }

    /** Both directions as configured, concatenated on the feature axis (forward first). */
    static Tensor run(LayerCall call, int gates, int units, int stateCount, boolean returnSequences, boolean bidirectional,
                      boolean useBias, Cell cell) {
        Tensor forward = direction(call, "", false, gates, units, stateCount, returnSequences, useBias, cell);
        if (!bidirectional) return forward;
        Tensor backward = direction(call, "_reverse", true, gates, units, stateCount, returnSequences, useBias, cell);
        return Tensor.concatenate(-1, forward, backward);
    }

    /**
     * One direction from a zero initial state: every hidden state {@code [batch, T, H]} (at the
     * position of the input step it follows, for the backward direction too, as PyTorch), or the
     * last one {@code [batch, H]} (after {@code t = T-1} forward, after {@code t = 0} backward).
     */
    private static Tensor direction(LayerCall call, String suffix, boolean reverse, int gates, int units, int stateCount,
                                    boolean returnSequences, boolean useBias, Cell cell) {
        Tensor x = call.input();
        int batch = x.shape().dim(0), steps = x.shape().dim(1), g = gates * units;
        Tensor wih = call.param("weight_ih" + suffix), whh = call.param("weight_hh" + suffix);
        Tensor zero = Tensor.zeros(Shape.of(batch, units), wih.dtype()).to(x.engine());
        if (steps == 0) return returnSequences ? Tensor.zeros(Shape.of(batch, 0, units), wih.dtype()).to(x.engine()) : zero;
        // Every step's input projection at once: [b, T, in] · W_ihᵀ -> [b, T, G·H].
        Tensor gxAll = x.dot(new int[] {2}, new int[0], wih, new int[] {1}, new int[0]);
        Tensor bih = null, bhh = null;
        if (useBias) {
            bih = call.param("bias_ih" + suffix);
            bhh = call.param("bias_hh" + suffix);
            gxAll = gxAll.add(bih);
        }
        Tensor[] state = new Tensor[stateCount];
        Arrays.fill(state, zero);
        Tensor[] hs = new Tensor[steps];
        for (int i = 0; i < steps; i++) {
            int t = reverse ? steps - 1 - i : i;
            Tensor gx = gxAll.slice(new int[] {0, t, 0}, new int[] {batch, 1, g}).reshape(batch, g);
            Tensor gh = state[0].dot(new int[] {1}, new int[0], whh, new int[] {1}, new int[0]);
            if (useBias) gh = gh.add(bhh);
            state = cell.step(gx, gh, state);
            hs[t] = state[0];
        }
        return returnSequences ? Tensor.stack(Arrays.asList(hs), 1) : state[0];
    }

    /** Gate {@code k} of {@code [batch, G·H]}: columns {@code [k·H, (k+1)·H)}. */
    static Tensor gate(Tensor gates, int k, int units) {
        return gates.slice(new int[] {0, k * units}, new int[] {gates.shape().dim(0), units});
    }

    /** PyTorch's default for every recurrent parameter: {@code U(-1/√H, 1/√H)}. */
    static Initializer pytorchUniform(int units) {
        double k = 1 / Math.sqrt(Math.max(1, units));   // units < 1 is refused by the layer's constructor
        return dev.jburn.nn.Initializers.uniform(-k, k);
    }
}
