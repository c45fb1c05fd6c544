package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;

/**
 * Makes a parameter's first value from a key ({@code Prng.key}), its shape and dtype. Pure:
 * the same key gives the same tensor on every engine. {@link Initializers} has the usual ones.
 *
 * <pre>{@code
 * Initializer mine = (key, shape, dtype) -> Tensor.full(shape, dtype, 0.5);
 * }</pre>
 */
@FunctionalInterface
public interface Initializer {
    /** The initial value of a parameter of {@code shape} and {@code dtype}, drawn with {@code key}. */
    Tensor init(Tensor key, Shape shape, DType dtype);
}
