package dev.jburn.conformance;

/**
 * Two generated operands of a binary op, e.g. with broadcast-compatible shapes from
 * {@link Generators#broadcastPairs}.
 *
 * @param a the left operand
 * @param b the right operand
 */
public record TensorPair(TensorCase a, TensorCase b) {
    @Override
    public String toString() { return "a = " + a + ", b = " + b; }
}
