package dev.jburn.op;

import dev.jburn.DType;

/** Reductions over a set of axes (or, for arg reductions, one axis or the flattened tensor). */
public enum ReduceOp implements Op {
    SUM, PRODUCT, REDUCE_MAX, REDUCE_MIN, ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP;

    /** Worked out once, as the other op enums do: engines ask for it on every call (a kernel cache key, an error's name). */
    private final String opName = switch (name()) {
        case "REDUCE_MAX" -> "max";
        case "REDUCE_MIN" -> "min";
        default -> Op.camel(name());
    };

    @Override public String opName() { return opName; }

    @Override public boolean composite() { return this == MEAN || this == LOG_SUM_EXP; }

    /** Nx output types: sum/product widen small integers; u64 sums to s64; all/any give PRED. */
    public DType resultType(DType in) {
        return switch (this) {
            case SUM, PRODUCT -> switch (in) {
                case S8, S16, S32 -> DType.S32;
                case U8, U16, U32, PRED -> DType.U32;
                case U64, S64 -> DType.S64;
                default -> in;
            };
            case REDUCE_MAX, REDUCE_MIN -> in;
            case ALL, ANY -> DType.PRED;
            case ARGMAX, ARGMIN -> DType.S32;
            case MEAN, LOG_SUM_EXP -> in.toFloating();
        };
    }
}
