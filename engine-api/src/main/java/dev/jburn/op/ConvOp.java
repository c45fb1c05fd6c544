package dev.jburn.op;

/** Convolution (cross-correlation, as Nx) and the transposed convolution of conv-transpose layers. */
public enum ConvOp implements Op {
    CONV, CONV_TRANSPOSE;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    /** Transposed convolution is a convolution with input dilation and a flipped, transposed kernel. */
    @Override public boolean composite() { return this == CONV_TRANSPOSE; }
}
