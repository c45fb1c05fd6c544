package dev.jburn;

/**
 * One discovered engine provider, as {@link Engine#available()} reports it.
 *
 * @param name      engine name ({@code "cpu"}, {@code "cuda"}, ...)
 * @param priority  higher wins for {@link Engine#defaultEngine()}
 * @param available whether it can run here
 * @param reason    why not, or what device it found
 */
public record EngineInfo(String name, int priority, boolean available, String reason) {
    @Override
    public String toString() {
        return String.format("%-8s priority %3d  %-11s %s", name, priority, available ? "available" : "unavailable", reason);
    }
}
