package dev.jburn.spi;

/**
 * A discoverable engine, found through {@link java.util.ServiceLoader}. Declare it in
 * {@code module-info} ({@code provides dev.jburn.spi.EngineProvider with ...}) and in
 * {@code META-INF/services/dev.jburn.spi.EngineProvider} for class-path users.
 *
 * <pre>{@code
 * public final class MyProvider implements EngineProvider {
 *     public String name() { return "my"; }
 *     public int priority() { return 50; }
 *     public Availability availability() { return Availability.yes("my device"); }
 *     public Backend create(EngineConfig c) { return new MyBackend(c); }
 * }
 * }</pre>
 */
public interface EngineProvider {
    /** Unique lower-case engine name, e.g. {@code "cpu"}, {@code "cuda"}. */
    String name();

    /** Higher wins when the default engine is chosen; the CPU engine has 0. */
    int priority();

    /** Probes the hardware and libraries. Must never throw; slow probes should cache. */
    Availability availability();

    /** Convenience for {@code availability().available()}. */
    default boolean isAvailable() { return availability().available(); }

    /** Creates the backend; called at most once per process by {@code Engine}. */
    Backend create(EngineConfig config);
}
