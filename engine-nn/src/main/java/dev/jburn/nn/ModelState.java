package dev.jburn.nn;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The tensors of one model: trainable parameters, non-trainable state (batch-norm statistics)
 * and the frozen set, as named, ordered maps ({@code "dense_0.kernel"}, {@code "batch_norm_1.mean"},
 * in layer order). Immutable: {@link #freeze}, {@link #withParams} and {@link #to} return new states
 * sharing the tensors they do not change. A state remembers the structure of the model that made it,
 * and {@link Model#predict} refuses a state of another model.
 *
 * <pre>{@code
 * ModelState s = model.init(Prng.key(0));
 * s.params().keySet();                    // [dense_0.kernel, dense_0.bias, dense_1.kernel, dense_1.bias]
 * ModelState head = s.freeze("dense_0.*"); // fine-tune the last layer only
 * head.trainable().keySet();              // [dense_1.kernel, dense_1.bias]
 * }</pre>
 */
public final class ModelState {
    private final String modelName;
    private final String fingerprint;
    private final Map<String, Tensor> params;
    private final Map<String, Tensor> state;
    private final Set<String> frozen;

    ModelState(String modelName, String fingerprint, Map<String, Tensor> params, Map<String, Tensor> state, Set<String> frozen) {
        this.modelName = modelName;
        this.fingerprint = fingerprint;
        this.params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        this.state = Collections.unmodifiableMap(new LinkedHashMap<>(state));
        this.frozen = Collections.unmodifiableSet(new LinkedHashSet<>(frozen));
    }

    /** The name of the model that made this state. */
    public String modelName() { return modelName; }

    /**
     * The structure of the model that made this state (layer names, kinds, input and output specs,
     * parameter shapes): states and files of equal fingerprints fit the same model.
     */
    public String modelFingerprint() { return fingerprint; }

    /** Every parameter, frozen or not, in layer order. */
    public Map<String, Tensor> params() { return params; }

    /** The parameters that training updates: {@link #params()} without the {@link #frozen()} ones. */
    public Map<String, Tensor> trainable() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        params.forEach((k, v) -> { if (!frozen.contains(k)) m.put(k, v); });
        return Collections.unmodifiableMap(m);
    }

    /** Non-trainable state (batch-norm running statistics), in layer order. */
    public Map<String, Tensor> state() { return state; }

    /** Names of the frozen parameters. */
    public Set<String> frozen() { return frozen; }

    /** A parameter or piece of state by full name. */
    public Tensor get(String name) {
        Tensor t = params.get(name);
        if (t == null) t = state.get(name);
        if (t == null) throw new JBurnException("model state", "no parameter or state named '" + name + "'; names: " + names());
        return t;
    }

    /**
     * Freezes the parameters whose names match {@code glob} ({@code *} any characters, {@code ?} one):
     * {@code "dense_0.*"}, {@code "*.bias"}, {@code "conv_*"}. Fails when nothing matches.
     */
    public ModelState freeze(String glob) {
        Set<String> f = new LinkedHashSet<>(frozen);
        f.addAll(matching("freeze", glob));
        return new ModelState(modelName, fingerprint, params, state, f);
    }

    /** Unfreezes the parameters whose names match {@code glob}; fails when no parameter matches. */
    public ModelState unfreeze(String glob) {
        Set<String> f = new LinkedHashSet<>(frozen);
        matching("unfreeze", glob).forEach(f::remove);
        return new ModelState(modelName, fingerprint, params, state, f);
    }

    /** This state with some parameters replaced (same names, shapes and dtypes), e.g. after an optimizer step. */
    public ModelState withParams(Map<String, Tensor> updated) {
        return new ModelState(modelName, fingerprint, replaced("withParams", params, updated), state, frozen);
    }

    /** This state with some non-trainable state replaced (same names, shapes and dtypes). */
    public ModelState withState(Map<String, Tensor> updated) {
        return new ModelState(modelName, fingerprint, params, replaced("withState", state, updated), frozen);
    }

    /** A copy of every tensor on {@code engine} (the tensors themselves where they already are). */
    public ModelState to(Engine engine) {
        if (engine == null) throw new JBurnException("model state", "to: the engine must not be null");
        Map<String, Tensor> p = new LinkedHashMap<>(), s = new LinkedHashMap<>();
        params.forEach((k, v) -> p.put(k, v.to(engine)));
        state.forEach((k, v) -> s.put(k, v.to(engine)));
        return new ModelState(modelName, fingerprint, p, s, frozen);
    }

    /** Number of parameter elements. */
    public long parameterCount() { return count(params.keySet()); }

    /** Number of elements of the frozen parameters. */
    public long frozenCount() { return count(frozen); }

    private long count(Set<String> names) {
        long n = 0;
        for (String k : names) n += params.get(k).size();
        return n;
    }

    private List<String> names() {
        List<String> all = new java.util.ArrayList<>(params.keySet());
        all.addAll(state.keySet());
        return all;
    }

    private List<String> matching(String op, String glob) {
        if (glob == null || glob.isEmpty()) throw new JBurnException(op, "the pattern must not be empty");
        Pattern p = globPattern(glob);
        List<String> m = params.keySet().stream().filter(k -> p.matcher(k).matches()).toList();
        if (m.isEmpty()) throw new JBurnException(op, "'" + glob + "' matches no parameter; parameters: " + params.keySet());
        return m;
    }

    static Pattern globPattern(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*') re.append(".*");
            else if (c == '?') re.append('.');
            else re.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString());
    }

    private static Map<String, Tensor> replaced(String op, Map<String, Tensor> base, Map<String, Tensor> updated) {
        if (updated == null) throw new JBurnException(op, "the map must not be null");
        Map<String, Tensor> m = new LinkedHashMap<>(base);
        for (var e : updated.entrySet()) {
            Tensor old = base.get(e.getKey());
            if (old == null) throw new JBurnException(op, "no tensor named '" + e.getKey() + "' in this state; names: " + base.keySet());
            Tensor t = e.getValue();
            if (t == null) throw new JBurnException(op, "'" + e.getKey() + "' must not be null");
            if (!t.shape().equals(old.shape()) || t.dtype() != old.dtype()) {
                throw new JBurnException(op, "'" + e.getKey() + "' is " + old.dtype().shortName() + old.shape()
                        + ", got " + t.dtype().shortName() + t.shape());
            }
            m.put(e.getKey(), t);
        }
        return m;
    }

    @Override public String toString() {
        return "ModelState[" + modelName + ": " + params.size() + " parameters (" + parameterCount() + " elements, "
                + frozen.size() + " frozen), " + state.size() + " state tensors]";
    }
}
