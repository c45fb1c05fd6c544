package dev.jburn.reference;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/** Provides the {@code cpu} engine: always available, lowest priority. */
public final class ReferenceProvider implements EngineProvider {
    /** The engine name. */
    public static final String NAME = "cpu";

    @Override public String name() { return NAME; }

    @Override public int priority() { return 0; }

    @Override
    public Availability availability() {
        int lanes = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length();
        return Availability.yes("pure Java, " + Runtime.getRuntime().availableProcessors() + " threads, Vector API "
                + (lanes * 32) + "-bit (" + lanes + " f32 lanes)");
    }

    @Override public Backend create(EngineConfig config) { return new ReferenceBackend(config); }
}
