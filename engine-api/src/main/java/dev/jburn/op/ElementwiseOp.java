package dev.jburn.op;

/** Element-wise ops that are neither unary math nor binary arithmetic. */
public enum ElementwiseOp implements Op {
    /** {@code select(pred, onTrue, onFalse)}: three broadcast operands. */
    SELECT,
    /** {@code clip(x, min, max)}: a composite of max and min. */
    CLIP,
    /** Conversion with Nx cast semantics. */
    AS_TYPE,
    /** Reinterpretation of the bits as another type of the same width. */
    BITCAST;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    @Override public boolean composite() { return this == CLIP; }
}
