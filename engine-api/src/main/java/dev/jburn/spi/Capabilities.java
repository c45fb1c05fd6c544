package dev.jburn.spi;

import dev.jburn.DType;
import dev.jburn.op.Op;

/**
 * What an engine runs natively, op × dtype. The compiler and the eager front end route what
 * is missing to a decomposition or to the CPU engine; nothing fails at run time with
 * "unsupported".
 */
@FunctionalInterface
public interface Capabilities {
    /** Whether {@code op} has a native kernel for inputs of type {@code dtype}. */
    boolean supports(Op op, DType dtype);

    /** Every op on every dtype (the reference engine). */
    static Capabilities everything() { return (op, dtype) -> true; }
}
