package dev.jburn.metal;

import dev.jburn.spi.Availability;

import java.util.Locale;

/**
 * Whether the metal engine can run here. Decided from {@code os.name} alone, so on Linux and
 * Windows nothing native is loaded or looked up; never throws.
 *
 * <pre>{@code
 * MetalAvailability.get().reason(); // "metal needs macOS (Metal.framework); this is Linux"
 * }</pre>
 */
public final class MetalAvailability {
    /** Why a Mac does not run it yet either: the backend is the part not built (see README). */
    static final String NOT_BUILT = "the metal engine's GPU backend is not built yet: the MSL kernels are checked on Linux, "
            + "the Objective-C bridge is unit-tested against a fake runtime, nothing has run on Apple hardware (accel-burn-metal/README.md)";

    private MetalAvailability() {}

    /** The availability for this process's OS. */
    public static Availability get() { return forOs(System.getProperty("os.name", "")); }

    /** The availability on an OS named {@code osName} (the {@code os.name} property's value). */
    static Availability forOs(String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (!(os.startsWith("mac") || os.startsWith("darwin") || os.startsWith("ios"))) {
            return Availability.no("metal needs macOS (Metal.framework); this is " + (osName.isBlank() ? "an unknown OS" : osName));
        }
        return Availability.no(NOT_BUILT);
    }
}
