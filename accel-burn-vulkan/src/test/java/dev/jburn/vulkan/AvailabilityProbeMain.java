package dev.jburn.vulkan;

import dev.jburn.spi.Availability;

/** Prints {@code available|reason} of the vulkan provider; run in a child JVM by {@link VulkanAvailabilityTest}. */
public final class AvailabilityProbeMain {
    private AvailabilityProbeMain() {}

    public static void main(String[] args) {
        Availability a = new VulkanProvider().availability();
        System.out.println("PROBE " + a.available() + "|" + a.reason());
    }
}
