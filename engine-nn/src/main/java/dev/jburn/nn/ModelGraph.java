package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.internal.KeyBits;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model graph resolved once: nodes in topological order, each with its name, its input and
 * output specs, and the parameters and state it owns, under their full names
 * ({@code "dense_0.kernel"}). Building validates every layer's inputs, so a bad model fails
 * when it is first used with an error naming the layer and the shapes.
 */
final class ModelGraph {
    /** One resolved layer. */
    record Entry(Node node, int index, String name, LayerSignature signature, TensorSpec output,
                 List<ParamSpec> params, List<ParamSpec> state) {
        String prefix() { return name + "."; }
    }

    final List<Entry> entries;
    final List<Entry> inputs;
    final List<Entry> outputs;
    final Map<String, ParamSpec> params;
    final Map<String, ParamSpec> state;
    /** Layer names, kinds and parameter shapes: equal for two models with the same structure. */
    final String fingerprint;

    ModelGraph(List<Node> outputNodes) {
        List<Node> order = topological(outputNodes);
        Map<Node, Entry> byNode = new IdentityHashMap<>();
        Map<String, Integer> counters = new HashMap<>();
        Map<String, Node> names = new HashMap<>();
        List<Entry> all = new ArrayList<>();
        Map<String, ParamSpec> ps = new LinkedHashMap<>(), ss = new LinkedHashMap<>();
        // Explicit names are reserved first, so an automatic name never takes one.
        for (Node n : order) {
            if (n.explicitName != null && names.putIfAbsent(n.explicitName, n) != null) {
                throw new JBurnException("model", "duplicate layer name '" + n.explicitName + "': every layer and input needs its own name");
            }
        }
        StringBuilder fp = new StringBuilder();
        for (Node n : order) {
            String name = n.explicitName;
            if (name == null) {
                do {
                    int i = counters.merge(n.kind(), 1, Integer::sum) - 1;
                    name = n.kind() + "_" + i;
                } while (names.containsKey(name));
                names.put(name, n);
            }
            List<TensorSpec> ins = n.inputs.stream().map(p -> byNode.get(p).output()).toList();
            LayerSignature sig = new LayerSignature(name, n.kind(), ins);
            TensorSpec out;
            List<ParamSpec> p = List.of(), s = List.of();
            if (n.isInput()) {
                out = n.inputSpec;
            } else {
                out = n.layer.output(sig);
                if (out == null) throw sig.error("returned no output spec");
                p = List.copyOf(n.layer.parameters(sig));
                s = List.copyOf(n.layer.state(sig));
                for (ParamSpec x : p) {
                    if (ps.put(name + "." + x.name(), x) != null) throw sig.error("declares parameter '" + x.name() + "' twice");
                }
                for (ParamSpec x : s) {
                    if (ss.put(name + "." + x.name(), x) != null || ps.containsKey(name + "." + x.name())) {
                        throw sig.error("declares '" + x.name() + "' twice");
                    }
                }
            }
            Entry e = new Entry(n, all.size(), name, sig, out, p, s);
            byNode.put(n, e);
            all.add(e);
            fp.append(name).append(':').append(n.kind()).append(ins).append("->").append(out);
            for (ParamSpec x : p) fp.append(';').append(x.name()).append(x.dtype().shortName()).append(x.shape());
            for (ParamSpec x : s) fp.append(";s:").append(x.name()).append(x.dtype().shortName()).append(x.shape());
            fp.append('\n');
        }
        this.entries = List.copyOf(all);
        this.inputs = all.stream().filter(e -> e.node().isInput()).sorted(Comparator.comparingLong(e -> e.node().sequence)).toList();
        this.outputs = outputNodes.stream().map(byNode::get).toList();
        this.params = java.util.Collections.unmodifiableMap(ps);
        this.state = java.util.Collections.unmodifiableMap(ss);
        this.fingerprint = fp.toString();
    }

    /** Depth-first post-order from the outputs, inputs of each node in order: deterministic. */
    private static List<Node> topological(List<Node> outputs) {
        List<Node> order = new ArrayList<>();
        Map<Node, Boolean> seen = new IdentityHashMap<>();
        for (Node o : outputs) visit(o, seen, order);
        return order;
    }

    private static void visit(Node root, Map<Node, Boolean> seen, List<Node> order) {
        // Iterative, so that a deep model (hundreds of layers) cannot overflow the stack.
        record Frame(Node node, int next) {}
        java.util.ArrayDeque<Frame> stack = new java.util.ArrayDeque<>();
        if (seen.containsKey(root)) return;
        seen.put(root, Boolean.TRUE);
        stack.push(new Frame(root, 0));
        while (!stack.isEmpty()) {
            Frame f = stack.pop();
            if (f.next < f.node.inputs.size()) {
                stack.push(new Frame(f.node, f.next + 1));
                Node child = f.node.inputs.get(f.next);
                if (!seen.containsKey(child)) {
                    seen.put(child, Boolean.TRUE);
                    stack.push(new Frame(child, 0));
                }
            } else {
                order.add(f.node);
            }
        }
    }

    /**
     * Runs the graph: pure in its arguments, so it runs eagerly, under {@code Jit} and under
     * {@code Autodiff}. {@code key} is needed in training mode by layers that draw random numbers.
     */
    Forward run(Map<String, Tensor> params, Map<String, Tensor> state, List<Tensor> inputs, boolean training, Tensor key) {
        return run(params, state, inputs, training, key, null);
    }

    /**
     * Runs the graph with float inputs and parameters of every layer cast to {@code compute} (null: as declared),
     * except in layers that {@linkplain Layer#keepsFullPrecision keep full precision}, which see their declared
     * types. Updated state is cast back to its declared type and float outputs to the declared output type, so
     * parameters, state and what the loss sees keep the declared (master) precision; the casts are in the graph,
     * so gradients with respect to the parameters come back in the parameters' own type.
     */
    Forward run(Map<String, Tensor> params, Map<String, Tensor> state, List<Tensor> inputs, boolean training, Tensor key,
                DType compute) {
        Map<Node, Tensor> values = new IdentityHashMap<>();
        for (int i = 0; i < this.inputs.size(); i++) values.put(this.inputs.get(i).node(), inputs.get(i));
        Map<String, Tensor> newState = new LinkedHashMap<>(state);
        for (Entry e : entries) {
            if (e.node().isInput()) continue;
            boolean declared = compute == null || e.node().layer.keepsFullPrecision();
            List<Tensor> ins = new ArrayList<>(e.node().inputs.size());
            for (int i = 0; i < e.node().inputs.size(); i++) {
                Tensor t = values.get(e.node().inputs.get(i));
                ins.add(compute == null ? t : floatAs(t, declared ? e.signature().inputs().get(i).dtype() : compute));
            }
            Map<String, Tensor> p = local(e, e.params(), params, declared ? null : compute);
            Map<String, Tensor> s = local(e, e.state(), state, null);
            LayerCall call = new LayerCall(e.signature(), ins, p, s, training, () -> {
                if (key == null) throw e.signature().error("needs a random key in training mode; pass one to the training call");
                return KeyBits.stream(key, e.index());
            });
            Tensor out = e.node().layer.apply(call);
            if (out == null) throw e.signature().error("returned null");
            values.put(e.node(), out);
            for (var u : call.updates().entrySet()) {
                String full = e.prefix() + u.getKey();
                newState.put(full, compute == null ? u.getValue() : floatAs(u.getValue(), this.state.get(full).dtype()));
            }
        }
        List<Tensor> outs = new ArrayList<>(outputs.size());
        for (Entry o : outputs) outs.add(compute == null ? values.get(o.node()) : floatAs(values.get(o.node()), o.output().dtype()));
        return new Forward(outs, newState);
    }

    /** {@code t} as float type {@code to} when both are float types and differ; otherwise {@code t} unchanged. */
    private static Tensor floatAs(Tensor t, DType to) {
        return t.dtype().isFloat() && to.isFloat() && t.dtype() != to ? t.asType(to) : t;
    }

    private static Map<String, Tensor> local(Entry e, List<ParamSpec> specs, Map<String, Tensor> all, DType compute) {
        if (specs.isEmpty()) return Map.of();
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (ParamSpec s : specs) {
            Tensor t = all.get(e.prefix() + s.name());
            m.put(s.name(), compute == null ? t : floatAs(t, compute));
        }
        return m;
    }

    Entry entry(String name) {
        for (Entry e : entries) if (e.name().equals(name)) return e;
        return null;
    }
}
