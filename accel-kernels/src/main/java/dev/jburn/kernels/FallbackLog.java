package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the primitives a device engine handed to the cpu engine, keyed {@code "op:dtype"}
 * (e.g. {@code "sort:f32"}), so a user can see what did not run on the device.
 */
public final class FallbackLog {
    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** Records one fallback of {@code op} on inputs of type {@code dtype}. */
    public void record(String op, DType dtype) {
        counts.computeIfAbsent(op + ":" + dtype.shortName(), k -> new LongAdder()).increment();
    }

    /** A sorted snapshot: {@code "op:dtype"} → times run on the cpu engine. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Total fallbacks so far. */
    public long total() {
        long t = 0;
        for (LongAdder a : counts.values()) t += a.sum();
        return t;
    }

    /** Forgets every count (between benchmark phases, say). */
    public void reset() { counts.clear(); }

    @Override
    public String toString() {
        Map<String, Long> s = snapshot();
        return s.isEmpty() ? "no fallbacks" : total() + " fallbacks " + s;
    }
}
