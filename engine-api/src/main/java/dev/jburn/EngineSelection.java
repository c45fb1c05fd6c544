package dev.jburn;

import java.util.Optional;

/**
 * Which engine the user asked for by configuration: {@code -Djburn.engine=NAME} wins over the
 * {@code JBURN_ENGINE} environment variable. Read in one place so tests can construct it.
 *
 * @param requested the requested engine name, if any
 * @param source    where it came from, for messages
 */
record EngineSelection(Optional<String> requested, String source) {
    static EngineSelection fromEnvironment() {
        String prop = System.getProperty("jburn.engine");
        if (prop != null && !prop.isBlank()) return new EngineSelection(Optional.of(prop.trim()), "-Djburn.engine");
        String env = System.getenv("JBURN_ENGINE");
        if (env != null && !env.isBlank()) return new EngineSelection(Optional.of(env.trim()), "JBURN_ENGINE");
        return new EngineSelection(Optional.empty(), "default");
    }
}
