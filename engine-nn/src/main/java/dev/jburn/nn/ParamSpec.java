package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;

/**
 * A tensor a layer owns: a trainable parameter ({@code kernel}, {@code bias}) or a piece of
 * non-trainable state ({@code mean}, {@code var} of batch norm). Its full name in a
 * {@link ModelState} is {@code layerName + "." + name}.
 *
 * @param name        the name inside the layer, e.g. {@code "kernel"}
 * @param shape       a concrete shape
 * @param dtype       a float type
 * @param initializer how {@link Model#init} makes its first value
 */
public record ParamSpec(String name, Shape shape, DType dtype, Initializer initializer) {
    public ParamSpec {
        if (name == null || name.isEmpty() || name.contains(".")) {
            throw new JBurnException("model", "a parameter name must be non-empty and without '.', got '" + name + "'");
        }
        if (shape == null || dtype == null || initializer == null) {
            throw new JBurnException("model", "parameter '" + name + "' needs a shape, a dtype and an initializer");
        }
        shape.requireConcrete("parameter " + name);
    }

    /** Number of elements. */
    public long size() { return shape.size(); }

    /** Bytes of its data. */
    public long bytes() { return dtype.byteSize(shape.size()); }
}
