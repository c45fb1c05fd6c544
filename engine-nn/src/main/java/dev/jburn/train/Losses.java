package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Jit;

/**
 * The usual losses, each a {@link Loss} giving per-sample values (mean over every non-batch axis
 * for element-wise losses) that {@link Loss#apply} averages (or sums, with {@link #sum}). Forms are
 * numerically stable: cross-entropies from logits go through log-sum-exp / softplus, never through
 * {@code log(softmax)}.
 *
 * <pre>{@code
 * Tensor loss = Losses.softmaxCrossEntropy().apply(logits, labels);   // labels s32 [batch] or one-hot [batch, classes]
 * }</pre>
 */
public final class Losses {
    private Losses() {}

    /** How per-sample losses become the result. */
    public enum Reduction { MEAN, SUM, NONE }

    /** {@code loss} reduced by {@code reduction} instead of the mean (NONE returns the per-sample values). */
    public static Loss reduced(Loss loss, Reduction reduction) {
        return new Loss() {
            @Override public Tensor perSample(Tensor p, Tensor t) { return loss.perSample(p, t); }

            @Override public Tensor apply(Tensor p, Tensor t) {
                Tensor l = loss.perSample(p, t);
                return switch (reduction) {
                    case MEAN -> l.mean();
                    case SUM -> l.sum();
                    case NONE -> l;
                };
            }
        };
    }

    /** {@code loss} summed over the batch. */
    public static Loss sum(Loss loss) { return reduced(loss, Reduction.SUM); }

    /** Softmax cross-entropy from logits {@code [batch, classes]}, labels as integers {@code [batch]} or one-hot. */
    public static Loss softmaxCrossEntropy() { return softmaxCrossEntropy(0); }

    /**
     * Softmax cross-entropy from logits with label smoothing {@code ε} (targets {@code (1−ε)·y + ε/classes}):
     * {@code logSumExp(z) − Σ y·z}. Integer labels must be in {@code [0, classes)}; eagerly a label out of range is a
     * {@link JBurnException} naming it.
     */
    public static Loss softmaxCrossEntropy(double labelSmoothing) {
        if (!(labelSmoothing >= 0 && labelSmoothing < 1)) {
            throw new JBurnException("softmaxCrossEntropy", "label smoothing must be in [0, 1), got " + labelSmoothing);
        }
        return (logits, labels) -> {
            if (logits.rank() != 2) throw new JBurnException("softmaxCrossEntropy", "expects logits [batch, classes], got " + logits.shape());
            Tensor y = targets("softmaxCrossEntropy", logits, labels);
            int classes = logits.shape().dim(1);
            if (labelSmoothing > 0) y = y.multiply(1 - labelSmoothing).add(labelSmoothing / classes);
            return logits.logSumExp(new int[] {1}).subtract(y.multiply(logits).sum(new int[] {1}));
        };
    }

    /** Binary cross-entropy from logits: {@code softplus(z) − y·z}, stable for any z. */
    public static Loss binaryCrossEntropyFromLogits() {
        return (z, y) -> {
            Tensor t = sameShape("binaryCrossEntropy", z, y);
            Tensor softplus = z.maximum(0.0).add(z.abs().negate().exp().log1p());
            return perSampleMean(softplus.subtract(t.multiply(z)));
        };
    }

    /** Binary cross-entropy from probabilities, clipped to {@code [1e-7, 1 − 1e-7]} as Keras does. */
    public static Loss binaryCrossEntropy() {
        return (p, y) -> {
            Tensor t = sameShape("binaryCrossEntropy", p, y);
            Tensor q = p.clip(1e-7, 1 - 1e-7);
            return perSampleMean(t.multiply(q.log()).add(t.negate().add(1.0).multiply(q.negate().add(1.0).log())).negate());
        };
    }

    /** Mean squared error. */
    public static Loss mse() { return (p, y) -> { Tensor d = p.subtract(sameShape("mse", p, y)); return perSampleMean(d.multiply(d)); }; }

    /** Mean absolute error. */
    public static Loss mae() { return (p, y) -> perSampleMean(p.subtract(sameShape("mae", p, y)).abs()); }

    /** Huber loss with threshold {@code delta}: {@code ½d²} for {@code |d| ≤ δ}, else {@code δ(|d| − ½δ)}. */
    public static Loss huber(double delta) {
        if (!(delta > 0)) throw new JBurnException("huber", "delta must be positive, got " + delta);
        return (p, y) -> {
            Tensor a = p.subtract(sameShape("huber", p, y)).abs();
            return perSampleMean(a.lessEqual(delta).select(a.multiply(a).multiply(0.5), a.subtract(0.5 * delta).multiply(delta)));
        };
    }

    /** KL divergence {@code Σ y·(log y − log p)} of target probabilities y from predicted probabilities p (0·log 0 = 0). */
    public static Loss klDivergence() {
        return (p, y) -> {
            Tensor t = sameShape("klDivergence", p, y);
            Tensor safeT = t.greater(0.0).select(t, 1.0);
            Tensor term = t.greater(0.0).select(t.multiply(safeT.log().subtract(p.clip(1e-12, Double.MAX_VALUE).log())), 0.0);
            return term.sum(rest(term));
        };
    }

    /** Hinge loss {@code max(0, 1 − y·p)} for targets in {-1, 1} (0/1 targets are mapped to -1/1). */
    public static Loss hinge() {
        return (p, y) -> {
            Tensor t = sameShape("hinge", p, y);
            Tensor s = t.equal(0.0).select(-1.0, t);
            Tensor m = s.multiply(p).negate().add(1.0);
            return perSampleMean(m.greater(0.0).select(m, 0.0));
        };
    }

    /** Cosine loss {@code −cos(p, y)} over the non-batch axes (Keras's {@code CosineSimilarity} loss). */
    public static Loss cosine() {
        return (p, y) -> {
            Tensor t = sameShape("cosine", p, y);
            int[] ax = rest(p);
            Tensor dot = p.multiply(t).sum(ax);
            Tensor np = p.multiply(p).sum(ax).maximum(1e-24).sqrt(), nt = t.multiply(t).sum(ax).maximum(1e-24).sqrt();
            return dot.divide(np.multiply(nt)).negate();
        };
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** One-hot float targets from integer labels [batch] or float one-hot [batch, classes]. */
    static Tensor targets(String op, Tensor logits, Tensor labels) {
        int n = logits.shape().dim(0), classes = logits.shape().dim(1);
        if (labels.dtype().isInteger() && labels.rank() == 1) {
            if (labels.shape().dim(0) != n) throw new JBurnException(op, "labels " + labels.shape() + " do not match logits " + logits.shape());
            if (!Jit.isTraced(labels) && labels.size() > 0) {
                long lo = labels.min().asType(DType.S64).toLongArray()[0], hi = labels.max().asType(DType.S64).toLongArray()[0];
                if (lo < 0 || hi >= classes) {
                    throw new JBurnException(op, "labels must be in [0, " + classes + "), got " + (lo < 0 ? lo : hi));
                }
            }
            Tensor classIds = Tensor.iota(Shape.of(1, classes), DType.S32, 1).to(labels.engine());
            return labels.asType(DType.S32).reshape(n, 1).equal(classIds).asType(logits.dtype());
        }
        if (!labels.shape().equals(logits.shape())) {
            throw new JBurnException(op, "expects integer labels [" + n + "] or one-hot targets " + logits.shape() + ", got "
                    + labels.dtype().shortName() + labels.shape());
        }
        return labels.asType(logits.dtype());
    }

    private static Tensor sameShape(String op, Tensor p, Tensor y) {
        if (!p.shape().equals(y.shape())) {
            throw new JBurnException(op, "predictions " + p.shape() + " and targets " + y.shape() + " must have one shape");
        }
        if (p.rank() == 0) throw new JBurnException(op, "expects [batch, ...], got a scalar");
        return y.asType(p.dtype());
    }

    private static Tensor perSampleMean(Tensor t) { return t.rank() <= 1 ? t : t.mean(rest(t)); }

    private static int[] rest(Tensor t) {
        int[] ax = new int[t.rank() - 1];
        for (int i = 0; i < ax.length; i++) ax[i] = i + 1;
        return ax;
    }
}
