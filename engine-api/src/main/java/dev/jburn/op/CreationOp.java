package dev.jburn.op;

/** Ops that make tensors from nothing but a shape and a type. */
public enum CreationOp implements Op {
    FULL, IOTA, EYE, ARANGE, LINSPACE;

    @Override public String opName() { return Op.camel(name()); }

    @Override public boolean composite() { return this == EYE || this == ARANGE || this == LINSPACE; }
}
