package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * {@code asType}: every source dtype to every target dtype agrees with the oracle bit for bit
 * and follows Nx's cast rules ({@link CastSpec}); casting to the same type is the identity;
 * casting to a type that holds every source value and back is the identity.
 */
public interface CastContract extends EngineContract {

    @Test
    @Covers("asType")
    default void castToEveryTypeMatchesTheOracle() {
        Props.forAll(Generators.tensors(), x -> {
            for (DType to : DType.values()) {
                Oracle.check(engine(), x + " asType " + to.shortName(), x, Tolerance.EXACT, t -> t.asType(to));
            }
        });
    }

    @Test
    @Covers("asType")
    default void castFollowsTheNxRules() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            for (DType to : DType.values()) {
                TensorCase got = TensorCase.of(t.asType(to));
                StringBuilder bad = new StringBuilder();
                for (int i = 0; i < x.size(); i++) {
                    String v = CastSpec.violation(x, i, to, got);
                    if (v != null) bad.append("\n    at flat index ").append(i).append(": ").append(v);
                }
                if (!bad.isEmpty()) Assertions.fail(x + " asType " + to.shortName() + " on engine '" + engine().name() + "'" + bad);
            }
        });
    }

    @Test
    @Covers("asType")
    default void castToTheSameTypeIsTheIdentity() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            TensorAssert.assertSame(x + " asType " + x.dtype().shortName(), x, t.asType(x.dtype()));
        });
    }

    @Test
    @Covers("asType")
    default void castToAWiderTypeAndBackIsTheIdentity() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            for (DType wide : DType.values()) {
                if (!CastSpec.holdsExactly(x.dtype(), wide)) continue;
                TensorAssert.assertSame(x + " asType " + wide.shortName() + " and back", x, t.asType(wide).asType(x.dtype()));
            }
        });
    }
}
