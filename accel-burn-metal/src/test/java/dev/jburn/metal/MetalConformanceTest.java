package dev.jburn.metal;

import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole conformance kit on the metal engine; skipped where it is unavailable (everywhere but a
 * Mac with a Metal GPU, so it has never run). On a Mac:
 * {@code ./mvnw -B -pl accel-burn-metal -am verify -Dtest=MetalConformanceTest -Dsurefire.failIfNoSpecifiedTests=false}
 */
class MetalConformanceTest implements ConformanceKit {
    @BeforeAll
    static void needsMetal() {
        Assumptions.assumeTrue(MetalAvailability.get().available(), () -> "metal unavailable: " + MetalAvailability.get().reason());
    }

    @Override
    public Engine engine() { return Engine.select("metal"); }
}
