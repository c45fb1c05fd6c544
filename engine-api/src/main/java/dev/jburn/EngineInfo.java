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
    /** One line: an available engine with its priority, an unavailable one with the reason only (it cannot win). */
    @Override
    public String toString() {
        return available ? String.format("%-8s available, priority %3d:  %s", name, priority, reason)
                : String.format("%-8s unavailable:              %s", name, reason);
    }
}
