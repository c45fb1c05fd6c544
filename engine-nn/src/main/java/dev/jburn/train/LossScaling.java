package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.Tensor;
import dev.jburn.optim.OptimizerState;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loss scaling inside one traced training step ({@link LossScale} says what it does for users): scales the loss,
 * unscales the gradients and checks them for overflow, keeps the old values where they overflowed, and computes
 * the next scale. Its state is two f32 scalars in the optimizer state, under {@value #SCALE} and {@value #GOOD}.
 * With scaling disabled every method returns its argument.
 */
final class LossScaling {
    static final String SCALE = "loss_scale/scale";
    static final String GOOD = "loss_scale/good_steps";
    /** The largest scale a dynamic policy grows to: past it, scaled f16 gradients overflow anyway. */
    private static final double MAX_SCALE = 0x1p40;

    private final LossScale config;
    private final Tensor scale;
    private final Tensor good;
    private Tensor finite;

    private LossScaling(LossScale config, Tensor scale, Tensor good) {
        this.config = config;
        this.scale = scale;
        this.good = good;
    }

    /** Scaling for one traced step, reading its state from the step's optimizer-state arguments. */
    static LossScaling of(LossScale config, Map<String, Tensor> opt) {
        return config.enabled() ? new LossScaling(config, opt.get(SCALE), opt.get(GOOD)) : new LossScaling(config, null, null);
    }

    /** Whether {@code name} is one of this state's entries. */
    static boolean isOwn(String name) { return name.equals(SCALE) || name.equals(GOOD); }

    /** Whether {@code o} carries a loss scale. */
    static boolean hasState(OptimizerState o) { return o.tensors().containsKey(SCALE); }

    /** {@code o} with a fresh scale (on {@code like}'s engine) when scaling is enabled. */
    static OptimizerState withState(LossScale config, OptimizerState o, Tensor like) {
        if (!config.enabled()) return o;
        Map<String, Tensor> m = new LinkedHashMap<>(o.tensors());
        m.put(SCALE, Tensor.scalar(config.initial(), DType.F32).to(like.engine()));
        m.put(GOOD, Tensor.scalar(0.0, DType.F32).to(like.engine()));
        return new OptimizerState(m);
    }

    /** The optimizer's own entries of {@code opt}: without the loss scale. */
    static Map<String, Tensor> without(Map<String, Tensor> opt) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        opt.forEach((k, v) -> { if (!isOwn(k)) m.put(k, v); });
        return m;
    }

    Tensor scaled(Tensor loss) { return scale == null ? loss : loss.multiply(scale.asType(loss.dtype())); }

    Tensor unscaledLoss(Tensor loss) { return scale == null ? loss : loss.divide(scale.asType(loss.dtype())); }

    /** The gradients divided by the scale; notes whether all of them are finite. */
    Map<String, Tensor> unscaled(Map<String, Tensor> grads) {
        if (scale == null) return grads;
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (var e : grads.entrySet()) out.put(e.getKey(), e.getValue().divide(scale.asType(e.getValue().dtype())));
        observe(out);
        return out;
    }

    /**
     * Notes whether {@code grads} (already unscaled) are all finite, for {@link #ifFinite}: the data-parallel apply
     * step checks the all-reduced gradients, so that every replica takes the same decision.
     */
    void observe(Map<String, Tensor> grads) {
        if (scale == null) return;
        Tensor poisoned = null; // 0 when every gradient is finite, NaN otherwise (x * 0 is NaN for NaN and ±Inf)
        for (Tensor g : grads.values()) {
            Tensor z = g.multiply(0.0).sum().asType(DType.F32);
            poisoned = poisoned == null ? z : poisoned.add(z);
        }
        finite = poisoned == null ? scale.greater(0.0) : poisoned.equal(0.0); // no trainable parameters: always finite
    }

    /** {@code updated} when this step's gradients were finite, else {@code old}: an overflowed step changes nothing. */
    Tensor ifFinite(Tensor updated, Tensor old) { return finite == null ? updated : finite.select(updated, old); }

    /** The scale state after this step. */
    Map<String, Tensor> next() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        if (scale == null) return m;
        if (!config.isDynamic()) {
            // a fixed scale never changes; the identity ops keep the outputs fresh buffers, not the donated inputs
            m.put(SCALE, scale.add(0.0));
            m.put(GOOD, good.add(0.0));
            return m;
        }
        Tensor count = finite.select(good.add(1.0), good.multiply(0.0));
        Tensor grow = count.greaterEqual((double) config.growthInterval());
        Tensor grown = scale.multiply(config.factor());
        grown = grown.greater(MAX_SCALE).select(scale, grown);
        Tensor shrunk = scale.divide(config.factor());
        shrunk = shrunk.less(1.0).select(1.0, shrunk);
        m.put(SCALE, finite.select(grow.select(grown, scale), shrunk));
        m.put(GOOD, grow.select(count.multiply(0.0), count));
        return m;
    }
}
