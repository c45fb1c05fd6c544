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
    private final Map<String, Tensor> updates;

    LayerCall(LayerSignature signature, List<Tensor> inputs, Map<String, Tensor> params, Map<String, Tensor> state,
              boolean training, Supplier<Tensor> key) {
        this(signature, inputs, params, state, training, key, new LinkedHashMap<>());
    }

    private LayerCall(LayerSignature signature, List<Tensor> inputs, Map<String, Tensor> params, Map<String, Tensor> state,
                      boolean training, Supplier<Tensor> key, Map<String, Tensor> updates) {
        this.updates = updates;
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

    /**
     * This call with some of its parameters replaced: what a layer that wraps another passes to it
     * ({@link dev.jburn.nn.layers.Quantized} hands its layer the dequantized kernel). Inputs, state,
     * mode and key are this call's, and state updates made through the returned call are this call's.
     *
     * <pre>{@code
     * Tensor y = inner.apply(call.withParams(Map.of("kernel", call.param("kernel").asType(DType.F32))));
     * }</pre>
     */
    public LayerCall withParams(Map<String, Tensor> replaced) {
        if (replaced == null) throw signature.error("withParams: the map must not be null");
        Map<String, Tensor> p = new LinkedHashMap<>(params);
        for (var e : replaced.entrySet()) {
            if (!params.containsKey(e.getKey())) throw signature.error("withParams: has no parameter '" + e.getKey() + "'; it has " + params.keySet());
            if (e.getValue() == null) throw signature.error("withParams: parameter '" + e.getKey() + "' must not be null");
            p.put(e.getKey(), e.getValue());
        }
        return new LayerCall(signature, inputs, p, state, training, key, updates);
    }

    Map<String, Tensor> updates() { return updates; }
}
