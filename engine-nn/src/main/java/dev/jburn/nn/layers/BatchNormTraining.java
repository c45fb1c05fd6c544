package dev.jburn.nn.layers;

import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Batch normalization in training mode with its backward pass written out (what PyTorch's
 * {@code native_batch_norm_backward} computes), instead of differentiating the forward's ops.
 *
 * <p>Why: differentiating {@code (x - mean(x)) / sqrt(var(x) + eps) · gamma + beta} op by op
 * gives some twenty passes over the {@code [batch, ..., C]} tensor (each product and negation
 * of the chain rule through the mean and the variance, most with several readers, so they stay
 * outside fused groups). Written out, the input's cotangent is one per-feature affine map of
 * the output's cotangent {@code g} and of {@code x}:
 * <pre>
 *   dbeta  = sum(g)                    dgamma = sum(g · xhat),  xhat = (x - mean) · invstd
 *   dx     = gamma · invstd · (g - dbeta / n - xhat · dgamma / n)
 *          = g · A + x · B + C,   A = gamma · invstd,  B = -A · invstd · dgamma / n,  C = -A · dbeta / n - mean · B
 * </pre>
 * two reductions and one element-wise pass, each a fused group. The forward is the same
 * per-feature affine map: {@code y = x · a + b} with {@code a = gamma · invstd} and
 * {@code b = beta - mean · a} (PyTorch's CPU kernel folds it the same way).
 *
 * <p>The batch statistics come in as inputs (the layer also needs them for the running
 * averages); their cotangents are reported as zero because {@code dx} above already contains the
 * paths through them, and they reach {@code x} only through this rule.
 */
final class BatchNormTraining {
    private BatchNormTraining() {}

    /**
     * {@code (x - mean) · rsqrt(var + epsilon) · gamma + beta} with the written-out gradient.
     *
     * @param x       the input
     * @param mean    the batch mean over {@code axes}, axes kept
     * @param var     the biased batch variance over {@code axes}, axes kept
     * @param gamma   the scale shaped like {@code mean}, or {@code null} (no scale)
     * @param beta    the offset shaped like {@code mean}, or {@code null} (no offset)
     * @param axes    the reduced axes (all but the feature axis)
     * @param epsilon added to the variance
     */
    static Tensor apply(Tensor x, Tensor mean, Tensor var, Tensor gamma, Tensor beta, int[] axes, double epsilon) {
        List<Tensor> ins = new ArrayList<>(Arrays.asList(x, mean, var));
        if (gamma != null) ins.add(gamma);
        if (beta != null) ins.add(beta);
        boolean hasGamma = gamma != null, hasBeta = beta != null;
        long n = 1;
        for (int ax : axes) n *= x.shape().dim(ax);
        final double count = n;
        return Autodiff.customGradientList(
                in -> forward(in, hasGamma, hasBeta, epsilon),
                (in, y, g) -> backward(in, g, hasGamma, hasBeta, axes, epsilon, count)).apply(ins);
    }

    private static Tensor forward(List<Tensor> in, boolean hasGamma, boolean hasBeta, double epsilon) {
        Tensor x = in.get(0), mean = in.get(1), var = in.get(2);
        Tensor a = var.add(epsilon).rsqrt();
        if (hasGamma) a = a.multiply(in.get(3));
        Tensor b = mean.multiply(a).negate();
        if (hasBeta) b = b.add(in.get(hasGamma ? 4 : 3));
        return x.multiply(a).add(b);
    }

    private static List<Tensor> backward(List<Tensor> in, Tensor g, boolean hasGamma, boolean hasBeta, int[] axes, double epsilon, double n) {
        Tensor x = in.get(0), mean = in.get(1), var = in.get(2);
        Tensor invstd = var.add(epsilon).rsqrt();
        Tensor dbeta = g.sum(axes, true);
        Tensor dgammaHat = g.multiply(x.subtract(mean)).sum(axes, true); // sum(g · (x - mean)) = dgamma / invstd
        Tensor dgamma = dgammaHat.multiply(invstd);
        Tensor scale = hasGamma ? invstd.multiply(in.get(3)) : invstd;          // A
        Tensor bx = scale.multiply(invstd).multiply(dgamma).divide(n).negate(); // B
        Tensor c = scale.multiply(dbeta).divide(n).negate().subtract(mean.multiply(bx));
        Tensor dx = g.multiply(scale).add(x.multiply(bx)).add(c);
        List<Tensor> out = new ArrayList<>(Arrays.asList(dx, null, null));
        if (hasGamma) out.add(dgamma);
        if (hasBeta) out.add(dbeta);
        return out;
    }
}
