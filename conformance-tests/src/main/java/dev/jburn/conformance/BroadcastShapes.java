package dev.jburn.conformance;

import dev.jburn.Shape;

/**
 * Two operand shapes of a broadcasting op, as {@link Shapes#broadcastable()} and
 * {@link Shapes#incompatible()} generate them.
 *
 * @param a the left operand's shape
 * @param b the right operand's shape
 */
public record BroadcastShapes(Shape a, Shape b) {
    /** The NumPy broadcast of the two (throws for an incompatible pair, naming {@code op}). */
    public Shape result(String op) { return Shape.broadcast(op, a, b); }

    @Override
    public String toString() { return a + " with " + b; }
}
