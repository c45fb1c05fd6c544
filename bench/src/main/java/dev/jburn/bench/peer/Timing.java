package dev.jburn.bench.peer;

import java.util.Arrays;

/** One runtime's figure for one workload: median seconds per call over the samples, and the check's verdict. */
public record Timing(double medianSeconds, double[] samples, int inner, String check) {
    public Timing {
        samples = samples.clone();
    }

    @Override public double[] samples() { return samples.clone(); }

    public boolean checkPassed() { return "ok".equals(check); }

    /** Times {@code c} by {@code plan} (the same procedure as {@code harness.py}'s {@code bench}). */
    public static <R> Timing measure(TimedCase<R> c, Plan plan) {
        R result = null;
        double last = 0, warm = 0;
        for (int i = 0; i < plan.warmups() || warm < plan.warmupSeconds(); i++) {
            c.release(result);
            result = null;
            long t0 = System.nanoTime();
            result = c.run();
            last = (System.nanoTime() - t0) * 1e-9;
            warm += last;
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
