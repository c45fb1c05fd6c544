package dev.jburn.metal;

import dev.jburn.JBurnException;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/**
 * Provides the {@code metal} engine for Apple GPUs. Found by {@code ServiceLoader} when this jar is
 * on the class or module path; nothing depends on it at compile time.
 *
 * <pre>{@code
 * EngineProvider metal = ServiceLoader.load(EngineProvider.class).stream().map(ServiceLoader.Provider::get)
 *         .filter(p -> p.name().equals("metal")).findFirst().orElseThrow();
 * System.out.println(metal.availability().reason()); // on Linux: "metal needs macOS ..."
 * }</pre>
 *
 * <p>What exists today is the MSL dialect (checked on Linux) and the Objective-C bridge; the backend
 * that runs tensors on the GPU is not built, so {@link #availability()} says no on every OS and
 * {@link #create} throws: never an engine that claims to work but does not (see the module README).
 */
public final class MetalProvider implements EngineProvider {
    /** The engine name. */
    public static final String NAME = "metal";

    @Override public String name() { return NAME; }

    /** Above the cpu engine (0), as the other GPU engines. */
    @Override public int priority() { return 100; }

    @Override public Availability availability() { return MetalAvailability.get(); }

    @Override
    public Backend create(EngineConfig config) {
        throw new JBurnException("Engine.select(metal)", "the metal engine is not available: " + availability().reason());
    }
}
