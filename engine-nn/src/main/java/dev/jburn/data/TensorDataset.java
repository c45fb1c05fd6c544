package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.function.UnaryOperator;

/**
 * Examples and targets held as two tensors whose first axis is the example axis: what
 * {@code Trainer.fit} batches. {@link #shuffled} permutes with a {@link Prng} key (the same key,
 * the same order on every engine); {@link #batch} takes rows.
 *
 * <pre>{@code
 * TensorDataset train = TensorDataset.of(images, labels);    // [60000, 784] f32, [60000] s32
 * TensorDataset[] parts = train.split(0.9);                   // train / validation
 * TensorDataset small = train.take(1000).oneHot(10);          // y: f32[1000, 10]
 * }</pre>
 *
 * The other operations live beside it: {@link Split} (train/validation/test, stratified),
 * {@link Normalizer} (min-max, standardization), {@link BatchLoader} (batches on a background thread).
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

    /** Examples and targets on {@code engine} (this dataset when both are there already), e.g. a replica's GPU. */
    public TensorDataset to(dev.jburn.Engine engine) {
        if (engine == null) throw new JBurnException("dataset", "the engine must not be null");
        return x.engine() == engine && y.engine() == engine ? this : new TensorDataset(x.to(engine), y.to(engine));
    }

    /** The examples in the order of a random permutation drawn with {@code key}. */
    public TensorDataset shuffled(Tensor key) { return rows(permutation(key, size())); }

    /**
     * The random permutation of {@code 0..n-1} that {@link #shuffled} applies for {@code key}. Drawn and sorted on the
     * cpu engine whatever the key's engine: the permutation is needed on the host, the draws are the same numbers on
     * every engine, and a GPU engine would send a whole-dataset argsort (a line longer than its sort kernel takes) to
     * the cpu engine anyway, reported as a fallback of the training run.
     */
    static int[] permutation(Tensor key, int n) {
        if (n == 0) return new int[0];
        Engine cpu = Engine.select("cpu");
        try (Tensor k = key.engine() == cpu ? null : key.to(cpu); Tensor u = Prng.uniformSplit(k == null ? key : k, Shape.of(n), DType.F32, 0, 1);
             Tensor order = u.argsort()) {
            return order.toIntArray();
        }
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

    /** The first {@code n} examples ({@code 0 <= n <= size()}; none gives an empty dataset). */
    public TensorDataset take(int n) {
        if (n < 0 || n > size()) throw new JBurnException("dataset", "take(" + n + ") of " + size() + " examples");
        return n == 0 ? empty() : batch(0, n);
    }

    /** All but the first {@code n} examples ({@code 0 <= n <= size()}). */
    public TensorDataset skip(int n) {
        if (n < 0 || n > size()) throw new JBurnException("dataset", "skip(" + n + ") of " + size() + " examples");
        return n == size() ? empty() : n == 0 ? this : batch(n, size() - n);
    }

    /** The examples at {@code indices} (an integer vector, repeats allowed), in that order. */
    public TensorDataset rows(int[] indices) {
        for (int i : indices) {
            if (i < 0 || i >= size()) throw new JBurnException("dataset", "row " + i + " is outside [0, " + size() + ")");
        }
        try (Tensor idx = Tensor.of(indices)) {
            return new TensorDataset(x.take(idx.to(x.engine()), 0), y.take(idx.to(y.engine()), 0));
        }
    }

    /** The examples transformed by {@code f} (which must keep the example axis); the targets unchanged. */
    public TensorDataset map(UnaryOperator<Tensor> f) { return new TensorDataset(f.apply(x), y); }

    /** The targets transformed by {@code f}; the examples unchanged. */
    public TensorDataset mapLabels(UnaryOperator<Tensor> f) { return new TensorDataset(x, f.apply(y)); }

    /**
     * Integer class labels {@code y[n]} in {@code [0, classes)} as one-hot rows {@code f32[n, classes]}
     * (labels of rank r give rank r + 1).
     */
    public TensorDataset oneHot(int classes) {
        if (classes < 1) throw new JBurnException("oneHot", "classes must be >= 1, got " + classes);
        if (!y.dtype().isInteger()) throw new JBurnException("oneHot", "labels must be integers, got " + y.dtype().shortName() + y.shape());
        long[] v = y.toLongArray();
        for (int i = 0; i < v.length; i++) {
            if (v[i] < 0 || v[i] >= classes) {
                throw new JBurnException("oneHot", "label " + i + " is " + (y.dtype() == DType.U64 ? Long.toUnsignedString(v[i]) : v[i])
                        + ", outside [0, " + classes + ")");
            }
        }
        try (Tensor ids = Tensor.iota(Shape.of(classes), DType.S64).to(y.engine());
             Tensor wide = y.asType(DType.S64);
             Tensor col = wide.newAxis(y.rank());
             Tensor hit = col.equal(ids)) {
            return new TensorDataset(x, hit.asType(DType.F32));
        }
    }

    private TensorDataset empty() { return rows(new int[0]); }

    private static Tensor rows(Tensor t, int start, int length) {
        int[] starts = new int[t.rank()], lengths = t.shape().dims();
        starts[0] = start;
        lengths[0] = length;
        return t.slice(starts, lengths);
    }
}
