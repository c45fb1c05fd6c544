package dev.jburn.op;

/** Movement ops: they rearrange elements without arithmetic. */
public enum ShapeOp implements Op {
    RESHAPE, TRANSPOSE, BROADCAST, SQUEEZE, NEW_AXIS, SLICE, PUT_SLICE, CONCATENATE, STACK, PAD, REVERSE, TILE;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    /** Ops that are pure re-labellings or compositions of the primitive movement ops. */
    @Override public boolean composite() {
        return switch (this) {
            case SQUEEZE, NEW_AXIS, STACK, TILE -> true;
            default -> false;
        };
    }
}
