package dev.jburn.conformance;

import dev.jburn.Engine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The root of every contract: the engine under test. Implement it once, through
 * {@link ConformanceKit}, in one test class.
 */
public interface EngineContract {
    /**
     * The engine under test, e.g. {@code Engine.select("my-engine")}. Called often: return one
     * instance, not a new engine per call.
     */
    Engine engine();

    /** Applies what the engine declares about f32 subnormals ({@link Subnormals}) to the test about to run. */
    @BeforeEach
    default void applySubnormalPolicy() {
        Subnormals.setFlushed(engine().backend().capabilities().flushesF32Subnormals());
    }

    @AfterEach
    default void resetSubnormalPolicy() {
        Subnormals.setFlushed(false);
    }
}
