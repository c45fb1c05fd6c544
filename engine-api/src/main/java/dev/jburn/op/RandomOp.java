package dev.jburn.op;

/** Counter-based random numbers (Threefry-2x32-20, JAX-compatible) from explicit keys. */
public enum RandomOp implements Op {
    THREEFRY_BITS, SPLIT, FOLD_IN, UNIFORM, NORMAL, RANDINT;

    @Override public String opName() { return Op.camel(name()); }

    @Override public boolean composite() { return this != THREEFRY_BITS; }
}
