package dev.jburn.op;

/** Stable sorts along one axis (NaN sorts last ascending, first descending) and top-k. */
public enum SortOp implements Op {
    SORT, ARGSORT, TOP_K;

    @Override public String opName() { return Op.camel(name()); }

    @Override public boolean composite() { return this == TOP_K; }
}
