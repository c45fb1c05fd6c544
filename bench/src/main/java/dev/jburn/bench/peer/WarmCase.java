package dev.jburn.bench.peer;

/**
 * A {@link TimedCase} of this JVM being timed in bursts: {@link #warmUp} once, then any number of {@link #burst}s,
 * then {@link #finish()} (the check). The JVM sides of PeerBench (JBurn, the DJL worker) and {@link Timing#measure}
 * use it; {@code harness.py} follows the same procedure in Python.
 */
public final class WarmCase<R> {
    /** Calls in a row that must stop improving, with no JIT compilation finishing meanwhile, before a JVM warm-up ends. */
    private static final int STEADY_CALLS = 5;
    /** Cap on that extra warm-up. */
    private static final double MAX_WARMUP_SECONDS = 20;
    /** Seconds of calls, as well as {@link #STEADY_CALLS} calls, with no JIT compilation finishing, before a warm-up ends. */
    private static final double JIT_QUIET_SECONDS = 0.5;
    /** Seconds of calls, as well as {@link #STEADY_CALLS} calls, without a 10% better call, before a warm-up ends. */
    private static final double STEADY_SECONDS = 1;

    private final TimedCase<R> c;
    private final int inner;
    private R result;

    private WarmCase(TimedCase<R> c, int inner, R result) {
        this.c = c;
        this.inner = inner;
        this.result = result;
    }

    /**
     * Warms {@code c} up by {@code plan} (the same procedure as {@code harness.py}'s {@code prepare}), except that a
     * JVM also keeps warming up until {@value #STEADY_CALLS} calls in a row are no more than 10% faster than the best
     * so far nor during the last {@value #STEADY_SECONDS} s of calls, and the JIT finished no compilation during them
     * nor during the last {@value #JIT_QUIET_SECONDS} s of calls (at most {@value #MAX_WARMUP_SECONDS} s of warm-up):
     * C2 compiles large kernels only after many calls, and timing the interpreter would measure the JIT, not the
     * kernel. The JIT test matters: a fresh JVM's first GEMM runs its Vector API kernels interpreted at a steady
     * ~110 ms per 256² call for seconds before C2 has them, then 0.5 ms for a hundred calls before the last
     * compilations (then 0.2 ms); "no longer improving" alone ended the warm-up inside the first plateau (the 6-20
     * GFLOP/s once reported for 256).
     */
    public static <R> WarmCase<R> warmUp(TimedCase<R> c, Plan plan) {
        R result = null;
        double last = 0, warm = 0, best = Double.MAX_VALUE;
        int sinceBest = 0, jitQuiet = 0;
        long jit = jitMillis();
        double jitQuietFrom = 0, bestAt = 0;
        for (int i = 0; i < plan.warmups() || warm < plan.warmupSeconds()
                || ((sinceBest < STEADY_CALLS || warm - bestAt < STEADY_SECONDS
                     || jitQuiet < STEADY_CALLS || warm - jitQuietFrom < JIT_QUIET_SECONDS)
                    && warm < MAX_WARMUP_SECONDS); i++) {
            c.release(result);
            result = null;
            long t0 = System.nanoTime();
            result = c.run();
            last = (System.nanoTime() - t0) * 1e-9;
            warm += last;
            if (last < best * 0.9) {
                best = last;
                sinceBest = 0;
                bestAt = warm;
            } else {
                sinceBest++;
            }
            long nowJit = jitMillis();
            if (nowJit == jit) {
                jitQuiet++;
            } else {
                jitQuiet = 0;
                jitQuietFrom = warm;
            }
            jit = nowJit;
        }
        return new WarmCase<>(c, plan.inner(last), result);
    }

    /** Calls per sample. */
    public int inner() { return inner; }

    /** {@code reps} samples of {@link #inner()} calls each, in seconds per call. */
    public double[] burst(int reps) {
        double[] samples = new double[reps];
        for (int s = 0; s < reps; s++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < inner; i++) {
                c.release(result);
                result = c.run();
            }
            samples[s] = (System.nanoTime() - t0) * 1e-9 / inner;
        }
        return samples;
    }

    /** The check of the last result, which is then freed (the case itself stays open: its owner closes it). */
    public String finish() {
        try {
            return c.check(result);
        } finally {
            c.release(result);
            result = null;
        }
    }

    /** Milliseconds the JIT has spent compiling so far (it grows when a compilation finishes); 0 where not monitored. */
    private static long jitMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }
}
