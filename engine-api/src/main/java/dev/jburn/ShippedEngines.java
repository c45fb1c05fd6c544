package dev.jburn;

import java.util.Locale;
import java.util.Optional;

/**
 * The engines JBurn itself ships (or plans), by name, with the Maven artifact that provides each:
 * only for messages, so that {@code Engine.select("cuda")} without the CUDA jar says which jar to
 * add. Discovery never reads this table; any other engine is found through {@code ServiceLoader}
 * alone, and engine-api still depends on no engine.
 */
enum ShippedEngines {
    CPU("cpu", "engine-reference", true),
    CUDA("cuda", "accel-burn-cuda", true),
    VULKAN("vulkan", "accel-burn-vulkan", true),
    METAL("metal", "accel-burn-metal", false);

    private final String engineName;
    private final String artifactId;
    private final boolean built;

    ShippedEngines(String engineName, String artifactId, boolean built) {
        this.engineName = engineName;
        this.artifactId = artifactId;
        this.built = built;
    }

    /** The shipped engine called {@code name} (case-insensitive), if JBurn has or plans one. */
    static Optional<ShippedEngines> named(String name) {
        for (ShippedEngines e : values()) if (e.engineName.equals(name.toLowerCase(Locale.ROOT))) return Optional.of(e);
        return Optional.empty();
    }

    /** What to do to get this engine when no provider of that name was found. */
    String howToAdd() {
        if (!built) return "JBurn's " + engineName + " engine (dev.jburn:" + artifactId + ") is not built yet";
        return "add dev.jburn:" + artifactId + " to the class path (a Maven dependency, runtime scope is enough)";
    }
}
