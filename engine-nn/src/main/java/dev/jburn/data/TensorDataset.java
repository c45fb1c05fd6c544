package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Random;
import dev.jburn.Shape;
import dev.jburn.Tensor;

/**
 * Examples and targets held as two tensors whose first axis is the example axis: what
 * {@code Trainer.fit} batches. {@link #shuffled} permutes with a {@link Random} key (the same key,
 * the same order on every engine); {@link #batch} takes rows.
 *
 * <pre>{@code
 * TensorDataset train = TensorDataset.of(images, labels);    // [60000, 784] f32, [60000] s32
 * TensorDataset[] parts = train.split(0.9);                   // train / validation
 * }</pre>
 *
 * @param x the examples, {@code [n, ...]}
 * @param y the targets, {@code [n, ...]}
 */
public record TensorDataset(Tensor x, Tensor y) {
    public TensorDataset {
        if (x == null || y == null) throw new JBurnException("dataset", "examples and targets are required");
        if (x.rank() == 0 || y.rank() == 0) throw new JBurnException("dataset", "examples and targets need an example axis, got " + x.shape() + " and " + y.shape());
        if (x.shape().dim(0) != y.shape().dim(0)) {
            throw new JBurnException("dataset", "examples " + x.shape() + " and targets " + y.shape() + " differ in count");
        }
    }

    /** A dataset of {@code x} and {@code y}. */
    public static TensorDataset of(Tensor x, Tensor y) { return new TensorDataset(x, y); }

    /** Number of examples. */
    public int size() { return x.shape().dim(0); }

    /** The examples in the order of a random permutation drawn with {@code key}. */
    public TensorDataset shuffled(Tensor key) {
        Tensor order = Random.uniformSplit(key, Shape.of(size()), DType.F32, 0, 1).argsort().to(x.engine());
        return new TensorDataset(x.take(order, 0), y.take(order.to(y.engine()), 0));
    }

    /** Rows {@code [start, start + length)}. */
    public TensorDataset batch(int start, int length) {
        if (start < 0 || length < 1 || start + (long) length > size()) {
            throw new JBurnException("dataset", "rows [" + start + ", " + (start + (long) length) + ") are outside [0, " + size() + ")");
        }
        return new TensorDataset(rows(x, start, length), rows(y, start, length));
    }

    /** The first {@code fraction} of the examples and the rest, in order (shuffle first for a random split). */
    public TensorDataset[] split(double fraction) {
        if (!(fraction > 0 && fraction < 1)) throw new JBurnException("dataset", "split fraction must be in (0, 1), got " + fraction);
        int n = (int) Math.round(size() * fraction);
        if (n == 0 || n == size()) throw new JBurnException("dataset", "a split of " + fraction + " of " + size() + " examples leaves one part empty");
        return new TensorDataset[] {batch(0, n), batch(n, size() - n)};
    }

    private static Tensor rows(Tensor t, int start, int length) {
        int[] starts = new int[t.rank()], lengths = t.shape().dims();
        starts[0] = start;
        lengths[0] = length;
        return t.slice(starts, lengths);
    }
}
