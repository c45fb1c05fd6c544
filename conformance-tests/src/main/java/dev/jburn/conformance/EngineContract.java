package dev.jburn.conformance;

import dev.jburn.Engine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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

    /**
     * Passes under JUnit 5 and fails under any other runner, so that a build that runs none of the
     * contracts fails instead of passing. The contracts are JUnit 5 tests; an old surefire (2.x,
     * Maven 3.8's default) runs none of them and reports success, but its plain-Java runner does
     * call public methods whose names start with {@code test}: this one.
     */
    @Test
    default void testTheKitRunsOnJUnit5() {
        boolean jupiter = StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName().startsWith("org.junit.jupiter.engine.")));
        if (!jupiter) {
            throw new AssertionError("The JBurn conformance kit's contracts are JUnit 5 tests, and this runner is not JUnit 5: none of them ran. "
                    + "Use maven-surefire-plugin 3.x with junit-jupiter (see the kit's README for a complete pom.xml).");
        }
    }
}
