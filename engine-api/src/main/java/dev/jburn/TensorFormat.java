package dev.jburn;

import java.lang.foreign.MemorySegment;

/** Prints tensors NumPy-style, eliding the middle of long axes when the tensor is large. */
final class TensorFormat {
    private TensorFormat() {}

    /** Tensors with more elements than this print only the first and last {@link #EDGE} entries of each axis. */
    static final long ELIDE_ABOVE = 1000;
    static final int EDGE = 3;

    static String format(Tensor t, MemorySegment host) {
        StringBuilder sb = new StringBuilder();
        sb.append("Tensor<").append(t.dtype().shortName()).append(t.shape().toString().replace(" ", ""))
                .append(' ').append(t.engine().name()).append(">\n");
        int[] dims = t.shape().dims();
        long[] strides = t.shape().strides();
        boolean elide = t.size() > ELIDE_ABOVE;
        if (dims.length == 0) {
            sb.append(Tensor.formatElement(host, t.dtype(), 0));
        } else {
            append(sb, host, t.dtype(), dims, strides, 0, 0, elide);
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, MemorySegment host, DType t, int[] dims, long[] strides,
                               int axis, long base, boolean elide) {
        sb.append('[');
        int n = dims[axis];
        boolean cut = elide && n > 2 * EDGE;
        for (int i = 0; i < n; i++) {
            if (cut && i == EDGE) {
                sb.append(axis == dims.length - 1 ? "..., " : "...,\n" + " ".repeat(axis + 1));
                i = n - EDGE;
            }
            if (axis == dims.length - 1) {
                sb.append(Tensor.formatElement(host, t, base + i));
            } else {
                append(sb, host, t, dims, strides, axis + 1, base + i * strides[axis], elide);
            }
            if (i < n - 1) sb.append(axis == dims.length - 1 ? ", " : ",\n" + " ".repeat(axis + 1));
        }
        sb.append(']');
    }
}
