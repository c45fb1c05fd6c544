package dev.jburn.nn;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One node of a model graph: an input (when {@code layer} is null) or a layer applied to the
 * outputs of other nodes. Immutable; nodes are compared by identity, so a node shared by two
 * branches (a residual connection) is one layer with one set of parameters.
 */
final class Node {
    private static final AtomicLong SEQUENCE = new AtomicLong();

    final Layer layer;
    final List<Node> inputs;
    /** A name the user chose, or null for the kind's next {@code kind_i}. */
    final String explicitName;
    /** For an input node: its spec. */
    final TensorSpec inputSpec;
    /** Creation order: inputs of a model are ordered by it. */
    final long sequence = SEQUENCE.getAndIncrement();

    private Node(Layer layer, List<Node> inputs, String explicitName, TensorSpec inputSpec) {
        this.layer = layer;
        this.inputs = List.copyOf(inputs);
        this.explicitName = explicitName;
        this.inputSpec = inputSpec;
    }

    static Node input(String name, TensorSpec spec) { return new Node(null, List.of(), name, spec); }

    static Node layer(Layer layer, List<Node> inputs) { return new Node(layer, inputs, null, null); }

    boolean isInput() { return layer == null; }

    String kind() { return isInput() ? "input" : layer.kind(); }

    Node renamed(String name) {
        return isInput() ? new Node(null, List.of(), name, inputSpec) : new Node(layer, inputs, name, null);
    }
}
