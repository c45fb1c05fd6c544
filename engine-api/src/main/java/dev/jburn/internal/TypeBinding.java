package dev.jburn.internal;

import dev.jburn.DType;
import dev.jburn.Shape;

/**
 * A buffer that learns its element type and shape when {@code Tensor.wrap} wraps it. Traced
 * buffers of uploaded bytes (constants) have no type until then, because
 * {@code Backend.upload} receives only bytes.
 */
public interface TypeBinding {
    /** Called by {@code Tensor.wrap} with the type the front end gives the buffer. */
    void bindType(DType dtype, Shape shape);
}
