package dev.jburn.nn;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What {@link Layer#apply} sees: its inputs, its parameters and state by local name, the mode,
 * a key of its own in training mode, and where to put updated state.
 */
public final class LayerCall {
    private final LayerSignature signature;
    private final List<Tensor> inputs;
    private final Map<String, Tensor> params;
    private final Map<String, Tensor> state;
    private final boolean training;
    private final Supplier<Tensor> key;
    private final Map<String, Tensor> updates = new LinkedHashMap<>();

    LayerCall(LayerSignature signature, List<Tensor> inputs, Map<String, Tensor> params, Map<String, Tensor> state,
              boolean training, Supplier<Tensor> key) {
        this.signature = signature;
        this.inputs = inputs;
        this.params = params;
        this.state = state;
        this.training = training;
        this.key = key;
    }

    /** The layer's name, kind and input specs. */
    public LayerSignature signature() { return signature; }

    /** The only input. */
    public Tensor input() {
        if (inputs.size() != 1) throw signature.error("expects one input, got " + inputs.size());
        return inputs.getFirst();
    }

    /** Input {@code i}. */
    public Tensor input(int i) { return inputs.get(i); }

    /** Every input, in order. */
    public List<Tensor> inputs() { return inputs; }

    /** A parameter by its local name ({@code "kernel"}). */
    public Tensor param(String name) {
        Tensor t = params.get(name);
        if (t == null) throw signature.error("has no parameter '" + name + "'; it has " + params.keySet());
        return t;
    }

    /** A piece of state by its local name ({@code "mean"}). */
    public Tensor state(String name) {
        Tensor t = state.get(name);
        if (t == null) throw signature.error("has no state '" + name + "'; it has " + state.keySet());
        return t;
    }

    /** Whether this is a training-mode call (dropout active, batch statistics used and updated). */
    public boolean training() { return training; }

    /** A u32[2] key for this layer and this call, derived from the call's key and the layer's index (training mode). */
    public Tensor key() {
        if (!training) throw signature.error("asked for a random key in inference mode");
        return key.get();
    }

    /** Sets the new value of a piece of state; the call returns it in its updated state. */
    public void update(String name, Tensor value) {
        if (!state.containsKey(name)) throw new JBurnException(signature.name(), "has no state '" + name + "' to update");
        updates.put(name, value);
    }

    Map<String, Tensor> updates() { return updates; }
}
