package dev.jburn;

/**
 * The result of {@link Tensor#topK(int)}: the {@code k} largest values along the last axis in
 * descending order (NaN first) and their S32 positions in that axis. Closing it closes both.
 *
 * <pre>{@code
 * try (TopK top = Tensor.of(Float.NaN, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, 0f).topK(3)) {
 *     top.values();    // [NaN, Inf, 0.0]
 *     top.indices();   // [0, 2, 3]
 * }
 * }</pre>
 *
 * @param values  the largest elements, same dtype as the input, last axis of size {@code k}
 * @param indices their positions along the last axis, S32, same shape as {@code values}
 */
public record TopK(Tensor values, Tensor indices) implements AutoCloseable {
    @Override
    public void close() {
        values.close();
        indices.close();
    }
}
