package dev.jburn.op;

/** Ops that make tensors from nothing but a shape and a type. */
public enum CreationOp implements Op {
    FULL, IOTA, EYE, ARANGE, LINSPACE;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    @Override public boolean composite() { return this == EYE || this == ARANGE || this == LINSPACE; }
}
