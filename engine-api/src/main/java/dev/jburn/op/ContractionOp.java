package dev.jburn.op;

/** General dot product with contraction and batch axes. */
public enum ContractionOp implements Op {
    DOT;

    @Override public String opName() { return "dot"; }
}
