package dev.jburn.autodiff;

/** How an op or primitive takes part in reverse-mode differentiation (for float values). */
public enum Differentiability {
    /** Has a backward rule (its own, or through its decomposition into primitives that have one). */
    DIFFERENTIABLE,
    /** Marked not differentiable: its inputs get zero cotangents (indices, comparisons, integer results, constants, random bits). */
    NOT_DIFFERENTIABLE,
    /** Its rule is not written yet: differentiating through it throws a {@code JBurnException} naming it. */
    NOT_BUILT
}
