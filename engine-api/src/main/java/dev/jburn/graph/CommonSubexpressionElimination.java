package dev.jburn.graph;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Merges nodes that apply the same prim, with the same attributes, to the same inputs (every prim
 * is pure); equal constants merge by content. Control-flow nodes are left alone.
 */
final class CommonSubexpressionElimination implements Pass {
    @Override public String name() { return "cse"; }

    /** What makes two nodes interchangeable. */
    private record Key(String prim, List<Integer> inputs, List<TensorType> outputs, ByteBuffer constant) {}

    @Override
    public Graph run(Graph g, Consumer<String> changes) {
        Map<Key, List<Value>> seen = new HashMap<>();
        Map<Key, Node> firstSeen = new HashMap<>();
        return Rewriter.rewrite(g, (n, ins, b) -> {
            if (n.prim() instanceof Prim.Cond || n.prim() instanceof Prim.WhileLoop || n.prim() instanceof Prim.Fused) return null;
            List<TensorType> types = ShapeInference.types(n.outputs());
            ByteBuffer bytes = n.prim() instanceof Prim.Constant c ? ByteBuffer.wrap(c.bytes()) : null;
            Key key = new Key(n.prim().name() + "{" + GraphText.attributes(n.prim()) + "}",
                    ins.stream().map(Value::id).toList(), types, bytes);
            List<Value> prev = seen.get(key);
            if (prev != null) {
                changes.accept(GraphText.ids(n.outputs()) + " = " + n.prim().name() + "(" + GraphText.ids(n.inputs())
                        + ") duplicates " + GraphText.ids(firstSeen.get(key).outputs()));
                return prev;
            }
            List<Value> outs = b.addTyped(n.prim(), ins, types);
            seen.put(key, outs);
            firstSeen.put(key, n);
            return outs;
        }, sub -> run(sub, changes));
    }
}
