package dev.jburn.spi;

import dev.jburn.DType;
import dev.jburn.Shape;

/**
 * A tensor as a backend sees it: validated buffer, type and shape, row-major and contiguous.
 *
 * @param buffer the engine's memory
 * @param dtype  element type
 * @param shape  logical shape; {@code buffer.byteSize() >= dtype.byteSize(shape.size())}
 */
public record Operand(Buffer buffer, DType dtype, Shape shape) {
    public long size() { return shape.size(); }
}
