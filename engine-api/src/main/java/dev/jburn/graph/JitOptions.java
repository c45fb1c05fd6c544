package dev.jburn.graph;

import java.util.Arrays;
import java.util.Objects;

/**
 * How {@link Jit} compiles.
 *
 * <pre>{@code
 * Jit.compile(f, JitOptions.defaults().withVerifyEachPass(true));
 * Jit.compile(step, JitOptions.defaults().withDonation(0));   // input 0 may be overwritten by an output
 * }</pre>
 *
 * @param optimize       run the passes ({@link Passes#standard}); off runs the traced graph as is
 * @param verifyEachPass run {@link Verifier} after every pass (tests; the traced graph is always verified)
 * @param foldLimitBytes constant folding evaluates nodes whose outputs take at most this many bytes
 * @param cacheLimit     compiled signatures kept per function (least recently used ones are dropped)
 * @param fuse           group element-wise chains into {@link Prim.Fused} nodes ({@link Passes#fusion})
 * @param donated        sorted indexes of inputs the caller donates (see {@link #withDonation})
 * @param rematerializeScalars with {@code fuse}, copy short rank-0 computations into every fused group
 *                       that reads them instead of running each as a kernel of one element, and
 *                       recompute element-wise nodes with one full-size input (batch norm's
 *                       {@code x - mean}) in their readers' groups instead of storing them
 *                       ({@link Passes#fusion(dev.jburn.Engine, boolean)})
 */
public record JitOptions(boolean optimize, boolean verifyEachPass, long foldLimitBytes, int cacheLimit, boolean fuse, int[] donated,
                         boolean rematerializeScalars) {
    public JitOptions {
        if (foldLimitBytes < 0) throw new IllegalArgumentException("foldLimitBytes must be >= 0, got " + foldLimitBytes);
        if (cacheLimit < 1) throw new IllegalArgumentException("cacheLimit must be >= 1, got " + cacheLimit);
        donated = donated == null ? new int[0] : Arrays.stream(donated).sorted().distinct().toArray();
        for (int i : donated) if (i < 0) throw new IllegalArgumentException("donated input indexes must be >= 0, got " + i);
    }

    /** The options without fusion or donation (the original form). */
    public JitOptions(boolean optimize, boolean verifyEachPass, long foldLimitBytes, int cacheLimit) {
        this(optimize, verifyEachPass, foldLimitBytes, cacheLimit, true, new int[0], true);
    }

    /** The options before {@code rematerializeScalars} (which this turns on). */
    public JitOptions(boolean optimize, boolean verifyEachPass, long foldLimitBytes, int cacheLimit, boolean fuse, int[] donated) {
        this(optimize, verifyEachPass, foldLimitBytes, cacheLimit, fuse, donated, true);
    }

    /** Optimize and fuse, no per-pass verification, fold up to 1 MiB, cache 64 signatures, no donation. */
    public static JitOptions defaults() { return new JitOptions(true, false, 1 << 20, 64, true, new int[0], true); }

    public JitOptions withOptimize(boolean on) { return new JitOptions(on, verifyEachPass, foldLimitBytes, cacheLimit, fuse, donated, rematerializeScalars); }

    public JitOptions withVerifyEachPass(boolean on) { return new JitOptions(optimize, on, foldLimitBytes, cacheLimit, fuse, donated, rematerializeScalars); }

    public JitOptions withFoldLimitBytes(long bytes) { return new JitOptions(optimize, verifyEachPass, bytes, cacheLimit, fuse, donated, rematerializeScalars); }

    public JitOptions withCacheLimit(int entries) { return new JitOptions(optimize, verifyEachPass, foldLimitBytes, entries, fuse, donated, rematerializeScalars); }

    /** With or without the fusion pass (on by default). */
    public JitOptions withFusion(boolean on) { return new JitOptions(optimize, verifyEachPass, foldLimitBytes, cacheLimit, on, donated, rematerializeScalars); }

    /**
     * With or without copying short rank-0 computations into the fused groups that read them (on by
     * default; off leaves each such computation a node of its own, as a reference to compare against).
     *
     * <pre>{@code
     * Jit.compile(step, JitOptions.defaults().withRematerializedScalars(false));
     * }</pre>
     */
    public JitOptions withRematerializedScalars(boolean on) {
        return new JitOptions(optimize, verifyEachPass, foldLimitBytes, cacheLimit, fuse, donated, on);
    }

    /**
     * Donates the inputs at {@code inputIndexes}: the caller promises not to use those tensors
     * after the call, so the engine may write an output of the same dtype and byte size into a
     * donated input's memory (an optimizer update {@code p - lr * g} then needs no new buffer).
     * After each call the donated input tensors are closed: using one throws.
     */
    public JitOptions withDonation(int... inputIndexes) {
        return new JitOptions(optimize, verifyEachPass, foldLimitBytes, cacheLimit, fuse, inputIndexes.clone(), rematerializeScalars);
    }

    /** Whether input {@code i} is donated. */
    public boolean donates(int i) { return Arrays.binarySearch(donated, i) >= 0; }

    @Override public int[] donated() { return donated.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof JitOptions j && optimize == j.optimize && verifyEachPass == j.verifyEachPass && foldLimitBytes == j.foldLimitBytes
                && cacheLimit == j.cacheLimit && fuse == j.fuse && Arrays.equals(donated, j.donated)
                && rematerializeScalars == j.rematerializeScalars;
    }

    @Override
    public int hashCode() { return Objects.hash(optimize, verifyEachPass, foldLimitBytes, cacheLimit, fuse, Arrays.hashCode(donated), rematerializeScalars); }
}
