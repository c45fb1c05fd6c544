package dev.jburn.conformance;

import dev.jburn.Tensor;
import dev.jburn.TensorScope;
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
}
