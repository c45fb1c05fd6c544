package dev.jburn.autodiff;

import dev.jburn.Tensor;

import java.util.List;

/**
 * A user-written backward rule for {@link Autodiff#customGradient}: given the primal inputs, the
 * forward result and the result's cotangent, the cotangent of each input (same shapes and
 * dtypes as the inputs; {@code null} for zero).
 */
@FunctionalInterface
public interface CustomRule {
    List<Tensor> backward(List<Tensor> inputs, Tensor result, Tensor cotangent);
}
