package dev.jburn.metal;

import dev.jburn.JBurnException;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/**
 * Provides the {@code metal} engine for Apple GPUs. Found by {@code ServiceLoader} when this jar is
 * on the class or module path; nothing depends on it at compile time. Available on macOS when Metal
 * gives a default GPU; elsewhere {@link #availability()} says why not in one line, and nothing
 * native is touched.
 *
 * <pre>{@code
 * EngineProvider metal = ServiceLoader.load(EngineProvider.class).stream().map(ServiceLoader.Provider::get)
 *         .filter(p -> p.name().equals("metal")).findFirst().orElseThrow();
 * System.out.println(metal.availability().reason()); // on Linux: "metal needs macOS ..."
 * }</pre>
 *
 * <p>The backend ({@link MetalBackend}) has been tested against a fake Objective-C runtime only; see
 * the module README for what has run where.
 */
public final class MetalProvider implements EngineProvider {
    /** The engine name. */
    public static final String NAME = "metal";

    @Override public String name() { return NAME; }

    /**
     * Below the cpu engine (0): until the backend has run on Apple hardware ({@code MetalOnMacTest}), a Mac keeps the
     * cpu engine as its default and metal is chosen by name ({@code Engine.select("metal")}, {@code -Djburn.engine=metal}).
     * Raise it above the cpu engine, as the other GPU engines are, once a Mac run passes.
     */
    @Override public int priority() { return -20; }

    @Override public Availability availability() { return MetalAvailability.get(); }

    @Override
    public Backend create(EngineConfig config) {
        Availability a = availability();
        if (!a.available()) throw new JBurnException("Engine.select(metal)", "the metal engine is not available: " + a.reason());
        return new MetalBackend(new Objc(Natives.system()));
    }
}
