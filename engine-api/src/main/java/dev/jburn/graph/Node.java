package dev.jburn.graph;

import java.util.List;

/**
 * One primitive application: {@code outputs = prim(inputs)}. Most prims have one output;
 * {@code lu}, {@code qr}, {@code eigh}, {@code svd}, {@code cond} and {@code whileLoop} may have several.
 *
 * @param prim    the primitive and its attributes
 * @param inputs  operand values, in the order of the {@link dev.jburn.spi.Backend} method's operands
 * @param outputs result values
 */
public record Node(Prim prim, List<Value> inputs, List<Value> outputs) {
    public Node {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /** The single output; fails for multi-output nodes. */
    public Value output() {
        if (outputs.size() != 1) throw new IllegalStateException(prim.name() + " has " + outputs.size() + " outputs");
        return outputs.getFirst();
    }

    /** {@code %3 = add(%1, %2) : f32[2,3]}. */
    @Override
    public String toString() { return GraphText.node(this, ""); }
}
