package dev.jburn.op;

/** Counter-based random numbers (Threefry-2x32-20, JAX-compatible) from explicit keys. */
public enum RandomOp implements Op {
    THREEFRY_BITS, SPLIT, FOLD_IN, UNIFORM, NORMAL, RANDINT;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    @Override public boolean composite() { return this != THREEFRY_BITS; }
}
