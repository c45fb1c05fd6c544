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

    /** Creates the backend of the {@linkplain #defaultDevice() default device}; called at most once per process by {@code Engine}. */
    Backend create(EngineConfig config);

    /**
     * How many devices this engine can drive in one process ({@code Engine.select("cuda:1")} asks for device 1); called
     * only when {@linkplain #availability() available}. One unless the engine addresses several GPUs.
     */
    default int deviceCount() { return 1; }

    /** The device a plain {@code Engine.select(name)} uses (the cuda engine's: {@code -Djburn.cuda.device} or 0). */
    default int defaultDevice() { return 0; }

    /**
     * Creates the backend of device {@code device} (below {@link #deviceCount()}); called at most once per device and
     * process by {@code Engine}. An engine with several devices overrides this; the default serves only its one device.
     */
    default Backend create(EngineConfig config, int device) {
        if (device != defaultDevice()) {
            throw new dev.jburn.JBurnException("engine", "engine '" + name() + "' drives one device (" + defaultDevice()
                    + "); device " + device + " was asked for");
        }
        return create(config);
    }
}
