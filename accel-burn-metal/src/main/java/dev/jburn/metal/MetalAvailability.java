package dev.jburn.metal;

import dev.jburn.spi.Availability;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Whether the metal engine can run here. Off Apple systems it is decided from {@code os.name}
 * alone, so on Linux and Windows nothing native is loaded or looked up; on macOS it asks Metal for
 * the default GPU ({@code MTLCreateSystemDefaultDevice}) once per process. Never throws.
 *
 * <pre>{@code
 * MetalAvailability.get().reason(); // on Linux: "metal needs macOS (Metal.framework); this is Linux"
 * }</pre>
 */
public final class MetalAvailability {
    private static volatile Availability cached;

    private MetalAvailability() {}

    /** The availability in this process (the probe on macOS runs once). */
    public static Availability get() {
        Availability a = cached;
        if (a == null) cached = a = forOs(System.getProperty("os.name", ""), Natives::system);
        return a;
    }

    /**
     * The availability on an OS named {@code osName} (the {@code os.name} property's value), probing
     * through {@code natives} only on an Apple OS.
     */
    static Availability forOs(String osName, Supplier<Natives> natives) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (!(os.startsWith("mac") || os.startsWith("darwin") || os.startsWith("ios"))) {
            return Availability.no("metal needs macOS (Metal.framework); this is " + (osName.isBlank() ? "an unknown OS" : osName));
        }
        return probe(natives);
    }

    /** Opens the default GPU and closes it again; its name is the description. */
    private static Availability probe(Supplier<Natives> natives) {
        try (MetalDevice gpu = MetalDevice.open(new Objc(natives.get()))) {
            return Availability.yes("metal: " + gpu.name() + " (never run on Apple hardware before this build: accel-burn-metal/README.md)");
        } catch (Throwable t) { // a missing framework is an UnsatisfiedLinkError or IllegalArgumentException, not a JBurnException
            String why = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            return Availability.no("metal: no Metal GPU: " + why.lines().findFirst().orElse(why));
        }
    }
}
