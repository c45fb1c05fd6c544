package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import dev.jburn.Engine;
import dev.jburn.Tensor;

/** Helpers for the JVM sides' correctness invariants (the Python sides have theirs in {@code harness.py}). */
final class Checks {
    private Checks() {}

    /** {@code "ok"} when {@code |got - want| <= tol * scale}, else where and by how much it is off. */
    static String closeTo(double got, double want, double scale, double tol, String what) {
        if (Math.abs(got - want) <= tol * scale) return "ok";
        return "FAIL " + what + ": got " + got + ", want " + want + " (tolerance " + tol * scale + ")";
    }

    /** The first failed result, or {@code "ok"}. */
    static String first(String... results) {
        for (String r : results) if (!"ok".equals(r)) return r;
        return "ok";
    }

    /** {@code "ok"} when the result's shape is {@code want}, else a failure naming both. */
    static String shape(long[] got, long... want) {
        return java.util.Arrays.equals(got, want) ? "ok"
                : "FAIL shape: got " + java.util.Arrays.toString(got) + ", want " + java.util.Arrays.toString(want);
    }

    /** {@link #shape(long[], long...)} for JBurn's {@code int} dimensions. */
    static String shape(int[] got, long... want) {
        return shape(java.util.Arrays.stream(got).asLongStream().toArray(), want);
    }

    /** {@code t} on {@code cpu} (JBurn's creation ops use the default engine); closes {@code t} when it moves. */
    static Tensor onCpu(Tensor t, Engine cpu) {
        if (t.engine() == cpu) return t;
        try (t) {
            return t.to(cpu);
        }
    }

    static void close(Tensor t) { t.close(); }

    static void close(NDArray a) { a.close(); }
}
