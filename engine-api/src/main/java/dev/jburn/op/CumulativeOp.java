package dev.jburn.op;

/** Scans along one axis; the output type is the input type (no widening). */
public enum CumulativeOp implements Op {
    CUMULATIVE_SUM, CUMULATIVE_PRODUCT, CUMULATIVE_MAX, CUMULATIVE_MIN;

    @Override public String opName() { return Op.camel(name()); }
}
