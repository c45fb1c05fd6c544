package dev.jburn;

import java.lang.foreign.MemorySegment;

/**
 * Prints tensors NumPy-style, eliding the middle of long axes when the tensor is large. An empty
 * tensor prints {@code []} whatever its shape (as NumPy), and no tensor prints more than
 * {@link #MAX_PRINTED} values, so that the text stays small for any shape.
 */
final class TensorFormat {
    private TensorFormat() {}

    /** Tensors with more elements than this print only the first and last {@link #EDGE} entries of each axis. */
    static final long ELIDE_ABOVE = 1000;
    static final int EDGE = 3;
    /** At most this many values are printed (6 per axis of a rank-8 tensor would be 1.7 million). */
    static final int MAX_PRINTED = 1000;

    static String format(Tensor t, MemorySegment host) {
        StringBuilder sb = new StringBuilder();
        sb.append("Tensor<").append(t.dtype().shortName()).append(t.shape().toString().replace(" ", ""))
                .append(' ').append(t.engine().label()).append(">\n");
        int[] dims = t.shape().dims();
        long[] strides = t.shape().strides();
        boolean elide = t.size() > ELIDE_ABOVE;
        if (dims.length == 0) {
            sb.append(Tensor.formatElement(host, t.dtype(), 0));
        } else if (t.size() == 0) {
            sb.append("[]");
        } else {
            append(sb, host, t.dtype(), dims, strides, 0, 0, elide, new int[] {MAX_PRINTED});
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, MemorySegment host, DType t, int[] dims, long[] strides,
                               int axis, long base, boolean elide, int[] budget) {
        sb.append('[');
        int n = dims[axis];
        boolean cut = elide && n > 2 * EDGE;
        for (int i = 0; i < n; i++) {
            if (budget[0] <= 0) {
                sb.append("...");
                break;
            }
            if (cut && i == EDGE) {
                sb.append(axis == dims.length - 1 ? "..., " : "...,\n" + " ".repeat(axis + 1));
                i = n - EDGE;
            }
            if (axis == dims.length - 1) {
                sb.append(Tensor.formatElement(host, t, base + i));
                budget[0]--;
            } else {
                append(sb, host, t, dims, strides, axis + 1, base + i * strides[axis], elide, budget);
            }
            if (i < n - 1) sb.append(axis == dims.length - 1 ? ", " : ",\n" + " ".repeat(axis + 1));
        }
        sb.append(']');
    }
}
