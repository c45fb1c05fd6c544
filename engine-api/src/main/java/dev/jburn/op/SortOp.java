package dev.jburn.op;

/** Stable sorts along one axis (NaN sorts last ascending, first descending) and top-k. */
public enum SortOp implements Op {
    SORT, ARGSORT, TOP_K;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    @Override public boolean composite() { return this == TOP_K; }
}
