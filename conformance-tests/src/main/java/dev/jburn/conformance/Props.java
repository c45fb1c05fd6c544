package dev.jburn.conformance;

import dev.jburn.Tensor;
import dev.jburn.TensorScope;
import dev.jburn.op.Op;
import org.junit.jupiter.api.Assumptions;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

import java.util.function.Consumer;

/**
 * How the kit runs a property: QuickTheories with {@value #DEFAULT_EXAMPLES} examples (a few
 * seconds per property on the CPU engine), each example inside a {@link TensorScope} so its
 * tensors are freed at once. QuickTheories' system properties still apply:
 * {@code -DQT_SEED=<seed from a failure>} replays a failure, {@code -DQT_EXAMPLES=2000} searches
 * harder. {@code -Djburn.kit.examples=N} changes the kit's default count (and scales the smaller
 * counts of costly families in proportion): a slow software driver such as lavapipe runs the whole
 * kit in CI with fewer examples, while a real device runs the default.
 *
 * <pre>{@code
 * Props.forAll(Generators.tensors(), x -> Oracle.check(engine(), x, Tolerance.EXACT, t -> t.asType(DType.F64)));
 * }</pre>
 */
public final class Props {
    private Props() {}

    /** Examples per property unless {@code -Djburn.kit.examples} or {@code -DQT_EXAMPLES} says otherwise. */
    public static final int DEFAULT_EXAMPLES = 150;

    /** The default count, or {@code -Djburn.kit.examples} where it is set (a positive integer). */
    static int defaultExamples() {
        String v = System.getProperty("jburn.kit.examples");
        if (v == null || v.isBlank()) return DEFAULT_EXAMPLES;
        try {
            int n = Integer.parseInt(v.strip());
            if (n > 0) return n;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-Djburn.kit.examples must be a positive integer, got '" + v + "'");
    }

    /** {@code examples} scaled as {@code -Djburn.kit.examples} scales the default, at least 1. */
    static int scaled(int examples) {
        return Math.max(1, (int) Math.round(examples * (double) defaultExamples() / DEFAULT_EXAMPLES));
    }

    /** {@code QuickTheory.qt()} with the kit's example count. */
    public static QuickTheory qt() {
        QuickTheory q = QuickTheory.qt();
        return System.getProperty("QT_EXAMPLES") == null ? q.withExamples(defaultExamples()) : q;
    }

    /**
     * Skips the calling test (a JUnit assumption) when the oracle says {@code op} is not built
     * yet in this build, so that the property of a pending op shows as skipped rather than as a
     * pass that checked nothing. Call it before {@link #forAll}.
     */
    public static void assumeBuilt(Op op) {
        TensorScope scope = Tensor.scope();
        try {
            for (Tensor t : OpInvoker.invoke(op, OpInvoker.sampleInput(Oracle.engine()))) t.toDoubleArray();
        } catch (RuntimeException e) {
            if (OpInvoker.isNotBuilt(e)) Assumptions.abort(op.opName() + " is not built yet: " + e.getMessage());
            // any other failure is for the property itself to report, with a generated case
        } finally {
            scope.close();
        }
    }

    /** Checks {@code property} for generated values; a failure reports the smallest failing value and the seed. */
    public static <T> void forAll(Gen<T> gen, Consumer<T> property) {
        qt().forAll(gen).checkAssert(v -> {
            TensorScope scope = Tensor.scope();
            try {
                property.accept(v);
            } finally {
                scope.close();
            }
        });
    }

    /**
     * As {@link #forAll(Gen, Consumer)} with {@code examples} examples (unless {@code -DQT_EXAMPLES} says
     * otherwise): for families whose every example is costly (convolutions, factorizations).
     */
    public static <T> void forAll(Gen<T> gen, int examples, Consumer<T> property) {
        QuickTheory q = System.getProperty("QT_EXAMPLES") == null ? QuickTheory.qt().withExamples(scaled(examples)) : QuickTheory.qt();
        q.forAll(gen).checkAssert(v -> {
            TensorScope scope = Tensor.scope();
            try {
                property.accept(v);
            } finally {
                scope.close();
            }
        });
    }
}
