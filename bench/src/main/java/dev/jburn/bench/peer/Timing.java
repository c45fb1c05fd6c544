package dev.jburn.bench.peer;

import java.util.Arrays;

/** One runtime's figure for one workload: median seconds per call over the samples, and the check's verdict. */
public record Timing(double medianSeconds, double[] samples, int inner, String check) {
    public Timing {
        samples = samples.clone();
    }

    @Override public double[] samples() { return samples.clone(); }

    public boolean checkPassed() { return "ok".equals(check); }

    /** Calls in a row that must stop improving before a JVM warm-up ends (JIT compilation of big kernels takes a while). */
    private static final int STEADY_CALLS = 5;
    /** Cap on that extra warm-up. */
    private static final double MAX_WARMUP_SECONDS = 20;

    /**
     * Times {@code c} by {@code plan} (the same procedure as {@code harness.py}'s {@code bench}), except that a JVM
     * also keeps warming up until {@value #STEADY_CALLS} calls in a row are no more than 10% faster than the best so
     * far (at most {@value #MAX_WARMUP_SECONDS} s): C2 compiles large kernels only after many calls, and timing the
     * interpreter would measure the JIT, not the kernel.
     */
    public static <R> Timing measure(TimedCase<R> c, Plan plan) {
        R result = null;
        double last = 0, warm = 0, best = Double.MAX_VALUE;
        int sinceBest = 0;
        for (int i = 0; i < plan.warmups() || warm < plan.warmupSeconds()
                || (sinceBest < STEADY_CALLS && warm < MAX_WARMUP_SECONDS); i++) {
            c.release(result);
            result = null;
            long t0 = System.nanoTime();
            result = c.run();
            last = (System.nanoTime() - t0) * 1e-9;
            warm += last;
            if (last < best * 0.9) {
                best = last;
                sinceBest = 0;
            } else {
                sinceBest++;
            }
        }
        int inner = plan.inner(last);
        double[] samples = new double[plan.reps()];
        for (int s = 0; s < samples.length; s++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < inner; i++) {
                c.release(result);
                result = c.run();
            }
            samples[s] = (System.nanoTime() - t0) * 1e-9 / inner;
        }
        String check;
        try {
            check = c.check(result);
        } finally {
            c.release(result);
        }
        return new Timing(median(samples), samples, inner, check);
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
