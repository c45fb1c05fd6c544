package dev.jburn.graph;

/**
 * How {@link Jit} compiles.
 *
 * <pre>{@code
 * Jit.compile(f, JitOptions.defaults().withVerifyEachPass(true));
 * }</pre>
 *
 * @param optimize       run the passes ({@link Passes#standard}); off runs the traced graph as is
 * @param verifyEachPass run {@link Verifier} after every pass (tests; the traced graph is always verified)
 * @param foldLimitBytes constant folding evaluates nodes whose outputs take at most this many bytes
 * @param cacheLimit     compiled signatures kept per function (least recently used ones are dropped)
 */
public record JitOptions(boolean optimize, boolean verifyEachPass, long foldLimitBytes, int cacheLimit) {
    public JitOptions {
        if (foldLimitBytes < 0) throw new IllegalArgumentException("foldLimitBytes must be >= 0, got " + foldLimitBytes);
        if (cacheLimit < 1) throw new IllegalArgumentException("cacheLimit must be >= 1, got " + cacheLimit);
    }

    /** Optimize, no per-pass verification, fold up to 1 MiB, cache 64 signatures. */
    public static JitOptions defaults() { return new JitOptions(true, false, 1 << 20, 64); }

    public JitOptions withOptimize(boolean on) { return new JitOptions(on, verifyEachPass, foldLimitBytes, cacheLimit); }

    public JitOptions withVerifyEachPass(boolean on) { return new JitOptions(optimize, on, foldLimitBytes, cacheLimit); }

    public JitOptions withFoldLimitBytes(long bytes) { return new JitOptions(optimize, verifyEachPass, bytes, cacheLimit); }

    public JitOptions withCacheLimit(int entries) { return new JitOptions(optimize, verifyEachPass, foldLimitBytes, entries); }
}
