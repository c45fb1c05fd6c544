package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Shape;

/**
 * An SSA value of a {@link Graph}: a graph input or one output of a {@link Node}. Ids are unique
 * within their graph (a sub-graph of {@code cond} or {@code whileLoop} has its own ids).
 *
 * @param id    the number printed as {@code %id}
 * @param dtype element type
 * @param shape shape
 */
public record Value(int id, DType dtype, Shape shape) {
    /** The value's type. */
    public TensorType type() { return new TensorType(dtype, shape); }

    /** {@code %id}. */
    @Override
    public String toString() { return "%" + id; }
}
