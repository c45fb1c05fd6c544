package dev.jburn.bench.peer;

import java.util.Arrays;
import java.util.List;

/**
 * One runtime's figure for one workload: the median seconds per call over all its samples, the median of each
 * round's burst ({@code roundSeconds}, in round order), and the check's verdict.
 */
public record Timing(double medianSeconds, double[] samples, double[] roundSeconds, int inner, String check) {
    public Timing {
        samples = samples.clone();
        roundSeconds = roundSeconds.clone();
    }

    /** The figure of the bursts {@code rounds} (one array of samples per round). */
    public static Timing ofRounds(List<double[]> rounds, int inner, String check) {
        double[] all = rounds.stream().flatMapToDouble(Arrays::stream).toArray();
        double[] perRound = rounds.stream().mapToDouble(Timing::median).toArray();
        return new Timing(median(all), all, perRound, inner, check);
    }

    @Override public double[] samples() { return samples.clone(); }

    @Override public double[] roundSeconds() { return roundSeconds.clone(); }

    public boolean checkPassed() { return "ok".equals(check); }

    /** Times {@code c} alone: the warm-up of {@link WarmCase#warmUp}, then one burst of {@code plan.reps()} samples. */
    public static <R> Timing measure(TimedCase<R> c, Plan plan) {
        WarmCase<R> warm = WarmCase.warmUp(c, plan);
        double[] samples = warm.burst(plan.reps());
        return ofRounds(List.of(samples), warm.inner(), warm.finish());
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
