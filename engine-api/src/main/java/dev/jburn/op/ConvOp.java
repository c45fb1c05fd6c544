package dev.jburn.op;

/** Convolution (cross-correlation, as Nx) and the transposed convolution of conv-transpose layers. */
public enum ConvOp implements Op {
    CONV, CONV_TRANSPOSE;

    @Override public String opName() { return Op.camel(name()); }

    /** Transposed convolution is a convolution with input dilation and a flipped, transposed kernel. */
    @Override public boolean composite() { return this == CONV_TRANSPOSE; }
}
