package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * A flat SSA graph: typed input values, nodes in an order where every operand is defined
 * before use, and output values. Immutable; passes build new graphs with {@link Builder}.
 * {@link Verifier} checks the invariants; {@link #toString()} prints readable SSA text.
 *
 * <pre>{@code
 * Graph g = Jit.trace(xs -> List.of(xs.get(0).exp().add(1)), List.of(new TensorType(DType.F32, Shape.of(3))));
 * System.out.println(g);
 * // graph(%0: f32[3]) {
 * //   %1 = exp(%0) : f32[3]
 * //   %2 = constant {value=1.0} : f32[]
 * //   %3 = add(%1, %2) : f32[3]
 * //   return %3
 * // }
 * }</pre>
 */
public final class Graph {
    private final List<Value> inputs;
    private final List<Node> nodes;
    private final List<Value> outputs;
    private volatile int[] lastUses;

    private Graph(List<Value> inputs, List<Node> nodes, List<Value> outputs) {
        this.inputs = List.copyOf(inputs);
        this.nodes = List.copyOf(nodes);
        this.outputs = List.copyOf(outputs);
    }

    /**
     * A graph from parts, unchecked (run {@link Verifier#verify} to check it). Prefer
     * {@link #builder()}, which numbers values and infers their types.
     */
    public static Graph of(List<Value> inputs, List<Node> nodes, List<Value> outputs) {
        return new Graph(inputs, nodes, outputs);
    }

    /** A builder for a new graph. */
    public static Builder builder() { return new Builder(); }

    public List<Value> inputs() { return inputs; }

    public List<Node> nodes() { return nodes; }

    public List<Value> outputs() { return outputs; }

    /** One more than the largest value id (ids made by {@link Builder} are dense from 0). */
    public int idLimit() {
        int max = -1;
        for (Value v : inputs) max = Math.max(max, v.id());
        for (Node n : nodes) for (Value v : n.outputs()) max = Math.max(max, v.id());
        return max + 1;
    }

    /** The number of nodes, sub-graphs included. */
    public int totalNodeCount() {
        int n = 0;
        for (Node node : nodes) {
            n++;
            switch (node.prim()) {
                case Prim.Cond c -> n += c.onTrue().totalNodeCount() + c.onFalse().totalNodeCount();
                case Prim.WhileLoop w -> n += w.cond().totalNodeCount() + w.body().totalNodeCount();
                case Prim.Fused f -> n += f.body().totalNodeCount();
                default -> { }
            }
        }
        return n;
    }

    /**
     * For each value id, the index of the last node that reads it, {@code nodes().size()} for
     * graph outputs, or {@code -1} when nothing reads it. The interpreter frees by it.
     */
    int[] lastUses() {
        int[] lu = lastUses;
        if (lu != null) return lu;
        lu = new int[idLimit()];
        java.util.Arrays.fill(lu, -1);
        for (int i = 0; i < nodes.size(); i++) for (Value v : nodes.get(i).inputs()) lu[v.id()] = i;
        for (Value v : outputs) lu[v.id()] = nodes.size();
        lastUses = lu;
        return lu;
    }

    /** Readable SSA text, one node a line; sub-graphs nested. */
    @Override
    public String toString() { return GraphText.graph(this, ""); }

    /**
     * Builds a graph: values are numbered densely in creation order; {@link #add} infers output
     * types with {@link ShapeInference}.
     *
     * <pre>{@code
     * Graph.Builder b = Graph.builder();
     * Value x = b.input(DType.F32, Shape.of(3));
     * Value y = b.add1(new Prim.Unary(UnaryOp.EXP, DType.F32), x);
     * Graph g = b.build(List.of(y));
     * }</pre>
     */
    public static final class Builder {
        private final List<Value> inputs = new ArrayList<>();
        private final List<Node> nodes = new ArrayList<>();
        private final java.util.Map<Integer, Node> producers = new java.util.HashMap<>();
        private int next;

        private Builder() {}

        /** A new graph input. */
        public Value input(DType dtype, Shape shape) {
            Value v = new Value(next++, dtype, shape);
            inputs.add(v);
            return v;
        }

        /** A new graph input of {@code type}. */
        public Value input(TensorType type) { return input(type.dtype(), type.shape()); }

        /** Appends {@code prim(ins)}; output types are inferred (a {@link dev.jburn.JBurnException} when the inputs don't fit). */
        public List<Value> add(Prim prim, List<Value> ins) {
            List<TensorType> types = ShapeInference.infer(prim, ins.stream().map(Value::type).toList());
            return addTyped(prim, ins, types);
        }

        /** {@link #add} for single-output prims. */
        public Value add1(Prim prim, Value... ins) { return add(prim, List.of(ins)).getFirst(); }

        /** Appends {@code prim(ins)} with declared output types, unchecked ({@link Verifier} checks them). */
        public List<Value> addTyped(Prim prim, List<Value> ins, List<TensorType> outputTypes) {
            List<Value> outs = new ArrayList<>(outputTypes.size());
            for (TensorType t : outputTypes) outs.add(new Value(next++, t.dtype(), t.shape()));
            Node n = new Node(prim, ins, outs);
            nodes.add(n);
            for (Value v : outs) producers.put(v.id(), n);
            return List.copyOf(outs);
        }

        /** The id the next value will get. */
        public int nextId() { return next; }

        /** The node added so far that defines {@code v}, or {@code null} for an input. */
        public Node producer(Value v) { return producers.get(v.id()); }

        /** A constant of {@code type} holding {@code bytes} (row-major, little-endian as the host). */
        public Value constant(byte[] bytes, DType dtype, Shape shape) {
            return add1(new Prim.Constant(bytes, dtype, shape));
        }

        /** The graph returning {@code outputs}. */
        public Graph build(List<Value> outputs) { return new Graph(inputs, nodes, outputs); }
    }
}
