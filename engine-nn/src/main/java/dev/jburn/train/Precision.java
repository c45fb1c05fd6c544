package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;

/**
 * The precision policy of a training run: the float type layers compute in, with the parameters kept in their
 * declared type (f32 "master weights") and a {@link LossScale}. Under a mixed policy the compiled step casts the
 * inputs and parameters of every layer to the compute type inside the graph (normalization layers excepted: see
 * {@link dev.jburn.nn.Layer#keepsFullPrecision()}), casts the model's outputs back before the loss, and the
 * gradients arrive in f32 through the casts' derivatives; the optimizer then updates the f32 parameters.
 *
 * <pre>{@code
 * trainer.fit(state, train, Fit.epochs(5).precision(Precision.mixedBf16()));
 * trainer.fit(state, train, Fit.epochs(5).precision(Precision.mixedF16()));            // dynamic loss scaling
 * Precision.mixed(DType.F16).withLossScale(LossScale.fixed(1024));
 * }</pre>
 *
 * @param compute   the compute type, or null for each layer's declared type (full precision)
 * @param lossScale the loss scaling
 */
public record Precision(DType compute, LossScale lossScale) {
    public Precision {
        if (compute != null && !compute.isFloat()) {
            throw new JBurnException("precision", "the compute type must be a float type (bf16, f16, f32, f64), got " + compute.shortName());
        }
        if (lossScale == null) throw new JBurnException("precision", "the loss scale must not be null (LossScale.none() for none)");
    }

    /** Every layer in its declared type, no loss scaling: the default. */
    public static Precision full() { return new Precision(null, LossScale.none()); }

    /** bf16 compute, f32 parameters, no loss scaling (bf16 has f32's range). */
    public static Precision mixedBf16() { return mixed(DType.BF16); }

    /** f16 compute, f32 parameters, dynamic loss scaling. */
    public static Precision mixedF16() { return mixed(DType.F16); }

    /** {@code compute} with the usual loss scaling for it: dynamic for f16, none otherwise. */
    public static Precision mixed(DType compute) {
        if (compute == null) throw new JBurnException("precision", "the compute type must not be null (Precision.full() for none)");
        return new Precision(compute, compute == DType.F16 ? LossScale.dynamic() : LossScale.none());
    }

    /** This policy with another loss scaling. */
    public Precision withLossScale(LossScale s) { return new Precision(compute, s); }

    /** Whether layers run in their declared types. */
    public boolean isFull() { return compute == null; }

    /** {@code "f32"} for full precision, else e.g. {@code "mixed bf16"} or {@code "mixed f16, dynamic loss scale"}. */
    public String describe() {
        if (compute == null) return lossScale.enabled() ? "declared types, loss scale " + lossScale.initial() : "declared types";
        return "mixed " + compute.shortName() + (lossScale.isDynamic() ? ", dynamic loss scale" : lossScale.enabled() ? ", loss scale " + lossScale.initial() : "");
    }
}
