package com.example.heap;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/** Found by ServiceLoader; {@code Engine.select("heap")} creates the backend once per process. */
public final class HeapProvider implements EngineProvider {
    @Override public String name() { return "heap"; }

    /** Below the cpu engine (0): selected by name only, never the default. */
    @Override public int priority() { return -1; }

    /** A real engine probes its device here (never throwing) and says why it cannot run. */
    @Override public Availability availability() { return Availability.yes("Java heap memory"); }

    @Override public Backend create(EngineConfig config) { return new HeapBackend(); }
}
