package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;

/**
 * What flows along an edge of a {@link Model}: a dtype and a shape whose axes may be open
 * ({@code -1}, the batch axis above all).
 *
 * <pre>{@code
 * new TensorSpec(Shape.of(-1, 784), DType.F32).toString();   // "f32[-1, 784]"
 * }</pre>
 *
 * @param shape the shape; {@code -1} marks an axis whose size is known only when data arrives
 * @param dtype the element type
 */
public record TensorSpec(Shape shape, DType dtype) {
    public TensorSpec {
        if (shape == null || dtype == null) throw new JBurnException("model", "a tensor spec needs a shape and a dtype");
    }

    /** The rank. */
    public int rank() { return shape.rank(); }

    /** The size of {@code axis} (negative counts from the end), {@code -1} when open. */
    public int dim(int axis) { return shape.dim(axis); }

    /** This spec with another shape. */
    public TensorSpec withShape(Shape s) { return new TensorSpec(s, dtype); }

    /** Whether {@code t}'s shape fits: equal rank, equal size on every axis that is not open. */
    public boolean accepts(Shape concrete) {
        if (concrete.rank() != shape.rank()) return false;
        for (int i = 0; i < shape.rank(); i++) {
            if (shape.dim(i) != Shape.OPEN && shape.dim(i) != concrete.dim(i)) return false;
        }
        return true;
    }

    @Override public String toString() { return dtype.shortName() + shape; }
}
