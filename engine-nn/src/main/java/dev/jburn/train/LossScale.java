package dev.jburn.train;

import dev.jburn.JBurnException;

/**
 * How a mixed-precision step scales the loss so that small f16 gradients do not flush to zero: the loss is
 * multiplied by the scale before differentiation and the gradients divided by it after. A dynamic scale
 * (the default for f16, as in PyTorch's {@code GradScaler} and Keras' {@code LossScaleOptimizer}) halves
 * when a step's gradients are not finite — that step is skipped: parameters, optimizer state and model
 * state are left as they were — and doubles after {@code growthInterval} finite steps in a row. The scale
 * and the count of good steps live in the optimizer state ({@code "loss_scale/scale"},
 * {@code "loss_scale/good_steps"}), so they are compiled as data and saved in checkpoints.
 *
 * <pre>{@code
 * LossScale.dynamic()                 // 2^15, doubled every 2000 finite steps, halved on overflow
 * LossScale.fixed(1024)               // always 1024; a step with overflowed gradients is still skipped
 * LossScale.none()                    // bf16 needs none: it has f32's exponent range
 * }</pre>
 *
 * @param initial        the first scale (a power of two keeps scaling exact)
 * @param growthInterval finite steps in a row before the scale doubles (0: the scale never changes)
 * @param factor         the growth factor and the inverse of the backoff (2)
 * @param enabled        false for no scaling at all (and no overflow check)
 */
public record LossScale(double initial, int growthInterval, double factor, boolean enabled) {
    public LossScale {
        if (!(initial >= 1) || Double.isInfinite(initial)) throw new JBurnException("lossScale", "the initial scale must be finite and >= 1, got " + initial);
        if (growthInterval < 0) throw new JBurnException("lossScale", "the growth interval must be >= 0, got " + growthInterval);
        if (!(factor > 1) || Double.isInfinite(factor)) throw new JBurnException("lossScale", "the factor must be finite and > 1, got " + factor);
    }

    /** No scaling. */
    public static LossScale none() { return new LossScale(1, 0, 2, false); }

    /** A constant {@code scale}; steps whose gradients overflow are skipped. */
    public static LossScale fixed(double scale) { return new LossScale(scale, 0, 2, true); }

    /** Dynamic scaling from 2^15, doubling after 2000 finite steps, halving on overflow (PyTorch's and Keras' defaults). */
    public static LossScale dynamic() { return new LossScale(32768, 2000, 2, true); }

    /** Dynamic scaling with these settings. */
    public static LossScale dynamic(double initial, int growthInterval, double factor) {
        return new LossScale(initial, growthInterval, factor, true);
    }

    /** Whether the scale changes with the gradients. */
    public boolean isDynamic() { return enabled && growthInterval > 0; }
}
