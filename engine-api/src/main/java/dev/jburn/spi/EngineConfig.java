package dev.jburn.spi;

/**
 * Settings an engine is created with. Immutable; read from the environment in one place.
 *
 * @param threads            worker threads for parallel kernels (≥ 1)
 * @param parallelThreshold  element count from which element-wise kernels split work across threads
 * @param vectorKernels      whether SIMD kernels may be used (false runs the scalar oracle kernels only)
 */
public record EngineConfig(int threads, long parallelThreshold, boolean vectorKernels) {
    public EngineConfig {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        if (parallelThreshold < 1) throw new IllegalArgumentException("parallelThreshold must be >= 1");
    }

    /** Defaults: every available core, parallel from 256K elements, vector kernels on. */
    public static EngineConfig defaults() {
        return new EngineConfig(Runtime.getRuntime().availableProcessors(), 1L << 18, true);
    }

    /**
     * Defaults overridden by {@code -Djburn.threads=N}, {@code -Djburn.parallelThreshold=N}
     * and {@code -Djburn.vector=false}.
     */
    public static EngineConfig fromSystemProperties() {
        EngineConfig d = defaults();
        return new EngineConfig(
                Integer.getInteger("jburn.threads", d.threads()),
                Long.getLong("jburn.parallelThreshold", d.parallelThreshold()),
                Boolean.parseBoolean(System.getProperty("jburn.vector", "true")));
    }

    public EngineConfig withVectorKernels(boolean on) { return new EngineConfig(threads, parallelThreshold, on); }

    public EngineConfig withThreads(int n) { return new EngineConfig(n, parallelThreshold, vectorKernels); }

    public EngineConfig withParallelThreshold(long n) { return new EngineConfig(threads, n, vectorKernels); }
}
