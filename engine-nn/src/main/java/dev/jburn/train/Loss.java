package dev.jburn.train;

import dev.jburn.Tensor;

/**
 * A loss: predictions (logits or values, {@code [batch, ...]}) and targets to a scalar, or to one
 * value per sample with {@link Losses.Reduction#NONE}. Built from tensor ops, so it traces into a
 * compiled training step and differentiates with {@code Autodiff}.
 */
@FunctionalInterface
public interface Loss {
    /** The per-sample losses, {@code [batch]}. */
    Tensor perSample(Tensor predictions, Tensor targets);

    /** The mean over the batch. */
    default Tensor apply(Tensor predictions, Tensor targets) { return perSample(predictions, targets).mean(); }

    /** The weighted mean, {@code sum(w·l) / sum(w)}, with one weight per sample. */
    default Tensor apply(Tensor predictions, Tensor targets, Tensor sampleWeights) {
        Tensor l = perSample(predictions, targets);
        Tensor w = sampleWeights.asType(l.dtype()).reshape(l.shape());
        return l.multiply(w).sum().divide(w.sum());
    }
}
