package dev.jburn.spi;

/**
 * Whether an engine can run here, and why not.
 *
 * @param available true when {@code create} is expected to succeed
 * @param reason    a human-readable reason ("no libcuda.so.1 on the library path"), or a short
 *                  description of the device when available
 */
public record Availability(boolean available, String reason) {
    public static Availability yes(String description) { return new Availability(true, description); }

    public static Availability no(String reason) { return new Availability(false, reason); }
}
