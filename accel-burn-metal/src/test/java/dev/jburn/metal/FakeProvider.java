package dev.jburn.metal;

import dev.jburn.Engine;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/**
 * Metal engines over a {@link FakeObjc}, for {@code Engine.create}: the whole front end (tensors, Jit)
 * on the metal backend where no Mac exists.
 *
 * <pre>{@code
 * Engine metal = FakeProvider.engine(new FakeObjc());
 * }</pre>
 */
record FakeProvider(FakeObjc fake) implements EngineProvider {
    /** A fresh metal engine over {@code fake}; close its backend when done. */
    static Engine engine(FakeObjc fake) { return Engine.create(new FakeProvider(fake), EngineConfig.defaults()); }

    @Override public String name() { return MetalProvider.NAME; }

    @Override public int priority() { return 0; }

    @Override public Availability availability() { return Availability.yes("metal over a fake Objective-C runtime"); }

    @Override public Backend create(EngineConfig config) { return new MetalBackend(new Objc(fake)); }
}
