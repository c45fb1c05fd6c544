package dev.jburn.op;

/** Ops driven by integer index tensors. */
public enum IndexOp implements Op {
    TAKE, TAKE_ALONG_AXIS, GATHER, INDEXED_ADD, INDEXED_PUT;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    @Override public boolean composite() { return this == TAKE || this == TAKE_ALONG_AXIS; }
}
