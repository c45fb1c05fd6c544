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
 * harder.
 *
 * <pre>{@code
 * Props.forAll(Generators.tensors(), x -> Oracle.check(engine(), x, Tolerance.EXACT, t -> t.asType(DType.F64)));
 * }</pre>
 */
public final class Props {
    private Props() {}

    /** Examples per property unless {@code -DQT_EXAMPLES} says otherwise. */
    public static final int DEFAULT_EXAMPLES = 150;

    /** {@code QuickTheory.qt()} with the kit's example count. */
    public static QuickTheory qt() {
        QuickTheory q = QuickTheory.qt();
        return System.getProperty("QT_EXAMPLES") == null ? q.withExamples(DEFAULT_EXAMPLES) : q;
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
        QuickTheory q = System.getProperty("QT_EXAMPLES") == null ? QuickTheory.qt().withExamples(examples) : QuickTheory.qt();
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
