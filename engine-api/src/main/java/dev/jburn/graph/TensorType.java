package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Shape;

/**
 * The static type of a graph value: element type and shape.
 *
 * <pre>{@code
 * new TensorType(DType.F32, Shape.of(2, 3)).toString();   // "f32[2,3]"
 * }</pre>
 *
 * @param dtype element type
 * @param shape shape
 */
public record TensorType(DType dtype, Shape shape) {
    public TensorType {
        if (dtype == null || shape == null) throw new NullPointerException("dtype and shape are required");
        shape.requireConcrete("jit");
    }

    /** Bytes of a row-major buffer of this type. */
    public long byteSize() { return dtype.byteSize(shape.size()); }

    /** {@code f32[2,3]}; a scalar prints as {@code f32[]}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(dtype.shortName()).append('[');
        int[] d = shape.dims();
        for (int i = 0; i < d.length; i++) sb.append(i == 0 ? "" : ",").append(d[i]);
        return sb.append(']').toString();
    }
}
