package dev.jburn.graph;

import dev.jburn.JBurnException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The graph being traced at one level: the function itself, or a branch of {@code cond} or a
 * {@code whileLoop} condition or body (whose parent is the enclosing level). A value of an
 * enclosing level used here is captured: it becomes an input of this level, and the control-flow
 * node passes it in.
 */
final class TraceBuilder {
    final TraceBuilder parent;
    private final List<TraceValue> explicitInputs = new ArrayList<>();
    /** Enclosing-level value to the input that stands for it here, in first-use order. */
    private final LinkedHashMap<TraceValue, TraceValue> captures = new LinkedHashMap<>();
    private final List<TraceValue.TraceNode> nodes = new ArrayList<>();
    private final Map<TraceValue, Map<TensorType, TraceValue>> views = new IdentityHashMap<>();

    TraceBuilder(TraceBuilder parent) { this.parent = parent; }

    /** A new explicit input (a function argument, or a loop state value). */
    TraceValue input(TensorType t) {
        TraceValue v = new TraceValue(this, null, t);
        explicitInputs.add(v);
        return v;
    }

    /** Uploaded bytes whose type the first wrap or use will give. */
    TraceValue upload(byte[] bytes) {
        TraceValue.TraceNode n = new TraceValue.TraceNode(null, bytes, List.of());
        TraceValue v = new TraceValue(this, n, null);
        n.outputs = List.of(v);
        nodes.add(n);
        return v;
    }

    /** Appends {@code prim(ins)} (values of this level) with inferred output types. */
    List<TraceValue> record(Prim prim, List<TraceValue> ins) {
        List<TensorType> types = ShapeInference.infer(prim, ins.stream().map(TraceValue::type).toList());
        TraceValue.TraceNode n = new TraceValue.TraceNode(prim, null, List.copyOf(ins));
        List<TraceValue> outs = new ArrayList<>(types.size());
        for (TensorType t : types) outs.add(new TraceValue(this, n, t));
        n.outputs = List.copyOf(outs);
        nodes.add(n);
        return n.outputs;
    }

    /** {@code v} as a value of this level: itself, or the input capturing it from an enclosing level. */
    TraceValue adopt(TraceValue v) {
        if (v.owner == this) return v;
        if (parent == null) {
            throw new JBurnException("jit", "a tensor traced inside a cond branch or a loop body (" + v
                    + ") was used outside it; return it from the branch or body instead");
        }
        TraceValue outer = parent.adopt(v);
        return captures.computeIfAbsent(outer, o -> new TraceValue(this, null, o.type()));
    }

    /** {@code v} seen as {@code want} (equal byte size): itself, or a reshape and/or bitcast of it. */
    TraceValue view(TraceValue v, TensorType want) {
        if (v.type().equals(want)) return v;
        Map<TensorType, TraceValue> byType = views.computeIfAbsent(v, k -> new HashMap<>());
        TraceValue cached = byType.get(want);
        if (cached != null) return cached;
        TraceValue cur = v;
        if (!cur.type().shape().equals(want.shape())) cur = record(new Prim.Reshape(want.shape()), List.of(cur)).getFirst();
        if (cur.type().dtype() != want.dtype()) cur = record(new Prim.Bitcast(want.dtype()), List.of(cur)).getFirst();
        byType.put(want, cur);
        return cur;
    }

    List<TraceValue> explicitInputs() { return explicitInputs; }

    /** The enclosing-level values this level captured, in first-use order. */
    List<TraceValue> capturedValues() { return List.copyOf(captures.keySet()); }

    /** The input standing for enclosing value {@code outer}: the capture, or a fresh unused input. */
    TraceValue captureInput(TraceValue outer) {
        TraceValue in = captures.get(outer);
        return in != null ? in : new TraceValue(this, null, outer.type());
    }

    /** The values of this level that {@code v} is computed from, {@code v} included, or {@code null} when an input is among them. */
    List<TraceValue.TraceNode> constantAncestry(TraceValue v) {
        IdentityHashMap<TraceValue.TraceNode, Boolean> seen = new IdentityHashMap<>();
        List<TraceValue> stack = new ArrayList<>(List.of(v));
        while (!stack.isEmpty()) {
            TraceValue x = stack.removeLast();
            if (x.producer == null || x.owner != this) return null;
            if (seen.put(x.producer, Boolean.TRUE) == null) stack.addAll(x.producer.inputs);
        }
        List<TraceValue.TraceNode> inOrder = new ArrayList<>();
        for (TraceValue.TraceNode n : nodes) if (seen.containsKey(n)) inOrder.add(n);
        return inOrder;
    }

    /** The traced graph with the given inputs (every input any node reads must be listed) and outputs. */
    Graph build(List<TraceValue> inputs, List<TraceValue> outputs) {
        return build(inputs, nodes, outputs);
    }

    /** A graph of {@code someNodes} (in order) with the given inputs and outputs. */
    static Graph build(List<TraceValue> inputs, List<TraceValue.TraceNode> someNodes, List<TraceValue> outputs) {
        Graph.Builder b = Graph.builder();
        IdentityHashMap<TraceValue, Value> map = new IdentityHashMap<>();
        for (TraceValue in : inputs) map.put(in, b.input(in.type()));
        for (TraceValue.TraceNode n : someNodes) {
            if (n.prim == null) continue; // an upload nothing typed, so nothing read it
            List<Value> ins = new ArrayList<>(n.inputs.size());
            for (TraceValue i : n.inputs) ins.add(mapped(map, i));
            List<Value> outs = b.addTyped(n.prim, ins, n.outputs.stream().map(TraceValue::type).toList());
            for (int k = 0; k < outs.size(); k++) map.put(n.outputs.get(k), outs.get(k));
        }
        return b.build(outputs.stream().map(o -> mapped(map, o)).toList());
    }

    private static Value mapped(IdentityHashMap<TraceValue, Value> map, TraceValue v) {
        Value m = map.get(v);
        if (m == null) throw new JBurnException("jit", "internal: traced value " + v + " is read but not defined in its graph");
        return m;
    }
}
