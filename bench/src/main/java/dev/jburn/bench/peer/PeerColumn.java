package dev.jburn.bench.peer;

import java.util.Map;

/**
 * One runtime's results: {@code library} says what it ran on (versions, BLAS); {@code unavailable} is the reason
 * when the whole runtime was skipped (then {@code cells} is empty).
 */
public record PeerColumn(String peer, String library, String unavailable, Map<String, Cell> cells) {
    public PeerColumn {
        cells = Map.copyOf(cells);
    }

    public static PeerColumn skipped(String peer, String reason) { return new PeerColumn(peer, null, reason, Map.of()); }

    public boolean available() { return unavailable == null; }
}
