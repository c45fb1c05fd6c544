package dev.jburn.op;

/** Reductions over sliding windows (the basis of pooling) and their scatter duals (max-pool's gradient). */
public enum WindowOp implements Op {
    WINDOW_SUM, WINDOW_PRODUCT, WINDOW_MAX, WINDOW_MIN, WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    /** The reduction a window op applies inside each window. */
    public ReduceOp reduction() {
        return switch (this) {
            case WINDOW_SUM -> ReduceOp.SUM;
            case WINDOW_PRODUCT -> ReduceOp.PRODUCT;
            case WINDOW_MAX, WINDOW_SCATTER_MAX -> ReduceOp.REDUCE_MAX;
            case WINDOW_MIN, WINDOW_SCATTER_MIN -> ReduceOp.REDUCE_MIN;
        };
    }
}
