package dev.jburn.vulkan;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Picks the physical device: the one named by the configuration (an index, or a substring of the
 * name), otherwise the best kind — discrete GPU, then integrated, then virtual, then CPU
 * (lavapipe) — among the devices that have a compute queue and Vulkan 1.2. Pure logic, testable
 * without a device.
 */
final class DeviceChoice {
    private DeviceChoice() {}

    /** What the choice needs to know about one physical device. */
    record Candidate(int index, String name, Kind kind, boolean hasComputeQueue, boolean vulkan12) {
        boolean usable() { return hasComputeQueue && vulkan12; }
    }

    /** Device kinds in order of preference. */
    enum Kind { DISCRETE, INTEGRATED, VIRTUAL, CPU, OTHER }

    /** The chosen device, or a reason why there is none. */
    record Result(Optional<Candidate> device, String reason) {}

    static Result choose(List<Candidate> devices, String wanted) {
        if (devices.isEmpty()) return new Result(Optional.empty(), "no Vulkan physical device (the loader found no driver/ICD)");
        List<Candidate> usable = devices.stream().filter(Candidate::usable).toList();
        if (wanted != null) {
            Optional<Candidate> named = find(devices, wanted);
            if (named.isEmpty()) {
                return new Result(Optional.empty(), "no Vulkan device matches -Djburn.vulkan.device=" + wanted + " among " + names(devices));
            }
            Candidate c = named.get();
            if (!c.hasComputeQueue()) return new Result(Optional.empty(), "device " + c.name() + " has no compute queue");
            if (!c.vulkan12()) return new Result(Optional.empty(), "device " + c.name() + " supports only Vulkan < 1.2");
            return new Result(named, c.name());
        }
        if (usable.isEmpty()) {
            boolean anyCompute = devices.stream().anyMatch(Candidate::hasComputeQueue);
            return new Result(Optional.empty(), (anyCompute ? "no device with Vulkan 1.2" : "no device with a compute queue")
                    + " among " + names(devices));
        }
        Candidate best = usable.stream().min(Comparator.comparing(Candidate::kind).thenComparingInt(Candidate::index)).orElseThrow();
        return new Result(Optional.of(best), best.name());
    }

    private static Optional<Candidate> find(List<Candidate> devices, String wanted) {
        String w = wanted.trim();
        if (w.chars().allMatch(Character::isDigit) && !w.isEmpty()) {
            int i = Integer.parseInt(w);
            return devices.stream().filter(d -> d.index() == i).findFirst();
        }
        String lower = w.toLowerCase(Locale.ROOT);
        return devices.stream().filter(d -> d.name().toLowerCase(Locale.ROOT).contains(lower)).findFirst();
    }

    private static String names(List<Candidate> devices) {
        return devices.stream().map(d -> d.index() + ":" + d.name() + " (" + d.kind().name().toLowerCase(Locale.ROOT) + ")").toList().toString();
    }
}
