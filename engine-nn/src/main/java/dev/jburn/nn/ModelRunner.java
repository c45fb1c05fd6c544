package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Runs one model: makes its state, checks what callers pass, and keeps the compiled inference and
 * training-mode functions (one {@link CompiledFunction} each, which caches a graph per input
 * signature). Compiled functions take the inputs, then every parameter, then every piece of state
 * (then the key), in the graph's fixed order, so new parameter values never cause a recompile.
 */
final class ModelRunner {
    private final String name;
    private final ModelGraph g;
    private final List<String> paramNames;
    private final List<String> stateNames;
    private final CompiledFunction inference;
    private final CompiledFunction training;

    ModelRunner(String name, ModelGraph g) {
        this.name = name;
        this.g = g;
        this.paramNames = List.copyOf(g.params.keySet());
        this.stateNames = List.copyOf(g.state.keySet());
        int nIn = g.inputs.size(), nP = paramNames.size();
        this.inference = Jit.compileList(xs -> g.run(maps(xs, nIn, paramNames), maps(xs, nIn + nP, stateNames),
                xs.subList(0, nIn), false, null).outputs());
        this.training = Jit.compileList(xs -> {
            Forward f = g.run(maps(xs, nIn, paramNames), maps(xs, nIn + nP, stateNames), xs.subList(0, nIn), true, xs.getLast());
            List<Tensor> out = new ArrayList<>(f.outputs());
            for (String s : stateNames) out.add(f.state().get(s));
            return out;
        });
    }

    private static Map<String, Tensor> maps(List<Tensor> xs, int from, List<String> names) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) m.put(names.get(i), xs.get(from + i));
        return m;
    }

    ModelState init(Tensor key) {
        checkKey("init", key);
        Map<String, Tensor> p = new LinkedHashMap<>(), s = new LinkedHashMap<>();
        g.params.forEach((n, spec) -> p.put(n, make(key, n, spec)));
        g.state.forEach((n, spec) -> s.put(n, make(key, n, spec)));
        return new ModelState(name, g.fingerprint, p, s, new LinkedHashSet<>());
    }

    private static Tensor make(Tensor key, String path, ParamSpec spec) {
        Tensor t = spec.initializer().init(Prng.foldIn(key, fnv1a(path)), spec.shape(), spec.dtype());
        if (t == null || !t.shape().equals(spec.shape()) || t.dtype() != spec.dtype()) {
            throw new JBurnException("init", "the initializer of '" + path + "' returned "
                    + (t == null ? "null" : t.dtype().shortName() + t.shape()) + " instead of " + spec.dtype().shortName() + spec.shape());
        }
        return t;
    }

    /** 64-bit FNV-1a of the UTF-8 bytes: a stable hash of a parameter path. */
    static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    List<Tensor> predict(ModelState state, Tensor[] inputs) {
        List<Tensor> xs = arguments("predict", state, inputs);
        if (anyTraced(xs)) return call(state.params(), state.state(), xs.subList(0, g.inputs.size()), false, null).outputs();
        return inference.apply(xs);
    }

    Forward forwardTraining(ModelState state, Tensor key, Tensor[] inputs) {
        List<Tensor> xs = arguments("forward", state, inputs);
        checkKey("forward", key);
        xs.add(key);
        List<Tensor> out = anyTraced(xs) ? flatten(call(state.params(), state.state(), xs.subList(0, g.inputs.size()), true, key))
                : training.apply(xs);
        int nOut = g.outputs.size();
        Map<String, Tensor> s = new LinkedHashMap<>();
        for (int i = 0; i < stateNames.size(); i++) s.put(stateNames.get(i), out.get(nOut + i));
        return new Forward(out.subList(0, nOut), s);
    }

    private List<Tensor> flatten(Forward f) {
        List<Tensor> out = new ArrayList<>(f.outputs());
        for (String s : stateNames) out.add(f.state().get(s));
        return out;
    }

    Forward call(Map<String, Tensor> params, Map<String, Tensor> state, List<Tensor> inputs, boolean isTraining, Tensor key) {
        return call(params, state, inputs, isTraining, key, null);
    }

    Forward call(Map<String, Tensor> params, Map<String, Tensor> state, List<Tensor> inputs, boolean isTraining, Tensor key, DType compute) {
        if (compute != null && !compute.isFloat()) {
            throw new JBurnException("call", "the compute type must be a float type (bf16, f16, f32, f64), got " + compute.shortName());
        }
        if (params == null || state == null || inputs == null) throw new JBurnException("call", "params, state and inputs are required");
        for (String n : paramNames) if (!params.containsKey(n)) throw new JBurnException("call", "missing parameter '" + n + "' of model '" + name + "'");
        for (String n : stateNames) if (!state.containsKey(n)) throw new JBurnException("call", "missing state '" + n + "' of model '" + name + "'");
        List<Tensor> ins = checkedInputs("call", inputs.toArray(new Tensor[0]));
        return g.run(params, state, ins, isTraining, key, compute);
    }

    Tensor[] byName(Map<String, Tensor> inputs) {
        if (inputs == null) throw new JBurnException("predict", "inputs must not be null");
        Tensor[] out = new Tensor[g.inputs.size()];
        for (int i = 0; i < out.length; i++) {
            String n = g.inputs.get(i).name();
            out[i] = inputs.get(n);
            if (out[i] == null) throw new JBurnException("predict", "missing input '" + n + "'; model '" + name + "' takes " + inputNames());
        }
        for (String k : inputs.keySet()) {
            if (!inputNames().contains(k)) throw new JBurnException("predict", "model '" + name + "' has no input '" + k + "'; it takes " + inputNames());
        }
        return out;
    }

    private List<String> inputNames() { return g.inputs.stream().map(ModelGraph.Entry::name).toList(); }

    private List<Tensor> arguments(String op, ModelState state, Tensor[] inputs) {
        checkState(op, state);
        List<Tensor> xs = checkedInputs(op, inputs);
        Engine e = xs.isEmpty() ? null : xs.getFirst().engine();
        for (Tensor t : state.params().values()) checkEngine(op, e, t);
        for (Tensor t : state.state().values()) checkEngine(op, e, t);
        for (String n : paramNames) xs.add(state.params().get(n));
        for (String n : stateNames) xs.add(state.state().get(n));
        return xs;
    }

    private void checkEngine(String op, Engine e, Tensor t) {
        if (e != null && t.engine() != e && !Jit.isTraced(t) && !Jit.isTraced(t)) {
            throw new JBurnException(op, "the inputs are on engine '" + e.label() + "' but the state of model '" + name
                    + "' is on '" + t.engine().label() + "'; move one with state.to(engine) or tensor.to(engine)");
        }
    }

    private void checkState(String op, ModelState state) {
        if (state == null) throw new JBurnException(op, "the model state must not be null");
        if (!state.modelFingerprint().equals(g.fingerprint)) {
            List<String> missing = new ArrayList<>(), extra = new ArrayList<>();
            for (String n : paramNames) if (!state.params().containsKey(n)) missing.add(n);
            for (String n : state.params().keySet()) if (!g.params.containsKey(n)) extra.add(n);
            throw new JBurnException(op, "the state was made by model '" + state.modelName() + "', whose structure differs from model '"
                    + name + "'" + (missing.isEmpty() ? "" : "; missing parameters " + missing)
                    + (extra.isEmpty() ? "" : "; unknown parameters " + extra)
                    + (missing.isEmpty() && extra.isEmpty() ? " (layer shapes or kinds differ)" : ""));
        }
    }

    private List<Tensor> checkedInputs(String op, Tensor[] inputs) {
        if (inputs == null) throw new JBurnException(op, "inputs must not be null");
        if (inputs.length != g.inputs.size()) {
            throw new JBurnException(op, "model '" + name + "' takes " + g.inputs.size() + " input(s) " + describeInputs() + ", got " + inputs.length);
        }
        List<Tensor> out = new ArrayList<>();
        for (int i = 0; i < inputs.length; i++) {
            Tensor t = inputs[i];
            ModelGraph.Entry in = g.inputs.get(i);
            TensorSpec spec = in.output();
            if (t == null) throw new JBurnException(op, "input '" + in.name() + "' must not be null");
            if (t.isClosed()) throw new JBurnException(op, "input '" + in.name() + "' was closed");
            if (!spec.accepts(t.shape())) {
                throw new JBurnException(op, "input '" + in.name() + "' expects shape " + spec.shape() + " (-1: any size), got "
                        + t.dtype().shortName() + t.shape());
            }
            if (t.dtype() != spec.dtype()) {
                if (spec.dtype() == DType.PRED || t.dtype() == DType.PRED || (spec.dtype().isInteger() && t.dtype().isFloat())) {
                    throw new JBurnException(op, "input '" + in.name() + "' expects " + spec + ", got " + t.dtype().shortName() + t.shape());
                }
                t = t.asType(spec.dtype());
            }
            out.add(t);
        }
        return out;
    }

    private String describeInputs() {
        return g.inputs.stream().map(e -> e.name() + ": " + e.output()).toList().toString();
    }

    private static boolean anyTraced(List<Tensor> xs) {
        if (Jit.isTracing()) return true;
        for (Tensor t : xs) if (Jit.isTraced(t)) return true;
        return false;
    }

    private static void checkKey(String op, Tensor key) {
        if (key == null || key.dtype() != DType.U32 || !key.shape().equals(Shape.of(2))) {
            throw new JBurnException(op, "expected a key of type u32 and shape [2] (Prng.key(seed)), got "
                    + (key == null ? "null" : key.dtype().shortName() + key.shape()));
        }
    }
}
