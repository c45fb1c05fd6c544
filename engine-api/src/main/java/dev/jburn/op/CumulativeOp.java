package dev.jburn.op;

/** Scans along one axis; the output type is the input type (no widening). */
public enum CumulativeOp implements Op {
    CUMULATIVE_SUM, CUMULATIVE_PRODUCT, CUMULATIVE_MAX, CUMULATIVE_MIN;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }
}
