package dev.jburn.op;

/** Ops driven by integer index tensors. */
public enum IndexOp implements Op {
    TAKE, TAKE_ALONG_AXIS, GATHER, INDEXED_ADD, INDEXED_PUT;

    @Override public String opName() { return Op.camel(name()); }

    @Override public boolean composite() { return this == TAKE || this == TAKE_ALONG_AXIS; }
}
