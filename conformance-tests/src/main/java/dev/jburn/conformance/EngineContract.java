package dev.jburn.conformance;

import dev.jburn.Engine;

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
}
