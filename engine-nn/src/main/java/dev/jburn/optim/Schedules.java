package dev.jburn.optim;

import dev.jburn.JBurnException;

import java.util.Arrays;

/**
 * The usual learning-rate schedules (Optax's and PyTorch's formulas, cited per factory). They use {@code StrictMath}:
 * {@code Math.cos}/{@code pow} may differ in the last bit between JVMs and CPUs, and a learning rate one ulp off
 * changes a run's digits.
 */
public final class Schedules {
    private Schedules() {}

    /** Always {@code lr}. */
    public static Schedule constant(double lr) {
        checkLr("constant", lr);
        return step -> lr;
    }

    /** {@code lr · factor^floor(step / every)} (PyTorch {@code StepLR}). */
    public static Schedule stepDecay(double lr, long every, double factor) {
        checkLr("stepDecay", lr);
        if (every < 1 || !(factor > 0)) throw new JBurnException("stepDecay", "needs every >= 1 and factor > 0, got " + every + ", " + factor);
        return step -> lr * StrictMath.pow(factor, Math.floorDiv(Math.max(0, step), every));
    }

    /** {@code lr · rate^(step / steps)}, or {@code rate^floor(step / steps)} when {@code staircase} (Optax {@code exponential_decay}). */
    public static Schedule exponentialDecay(double lr, double rate, long steps, boolean staircase) {
        checkLr("exponentialDecay", lr);
        if (steps < 1 || !(rate > 0)) throw new JBurnException("exponentialDecay", "needs steps >= 1 and rate > 0, got " + steps + ", " + rate);
        return step -> {
            double p = (double) Math.max(0, step) / steps;
            return lr * StrictMath.pow(rate, staircase ? Math.floor(p) : p);
        };
    }

    /** From {@code lr} to {@code end} over {@code steps}: {@code (lr − end)·(1 − t/steps)^power + end}, then {@code end} (Optax {@code polynomial_schedule}). */
    public static Schedule polynomial(double lr, double end, long steps, double power) {
        checkLr("polynomial", lr);
        checkLr("polynomial", end);
        if (steps < 1 || !(power > 0)) throw new JBurnException("polynomial", "needs steps >= 1 and power > 0, got " + steps + ", " + power);
        return step -> {
            double t = Math.min(Math.max(0, step), steps);
            return (lr - end) * StrictMath.pow(1 - t / steps, power) + end;
        };
    }

    /** Cosine decay from {@code lr} to {@code alpha·lr} over {@code steps}, then flat (Optax {@code cosine_decay_schedule}). */
    public static Schedule cosineDecay(double lr, long steps, double alpha) {
        checkLr("cosineDecay", lr);
        if (steps < 1 || !(alpha >= 0 && alpha <= 1)) throw new JBurnException("cosineDecay", "needs steps >= 1 and alpha in [0, 1], got " + steps + ", " + alpha);
        return step -> {
            double t = Math.min(Math.max(0, step), steps) / (double) steps;
            return lr * ((1 - alpha) * 0.5 * (1 + StrictMath.cos(Math.PI * t)) + alpha);
        };
    }

    /**
     * Linear warm-up from 0 to {@code peak} over {@code warmup} steps, then cosine decay to {@code end} at
     * {@code total} (Optax {@code warmup_cosine_decay_schedule} with init 0).
     */
    public static Schedule warmupCosine(double peak, long warmup, long total, double end) {
        checkLr("warmupCosine", peak);
        checkLr("warmupCosine", end);
        if (warmup < 0 || total <= warmup) throw new JBurnException("warmupCosine", "needs 0 <= warmup < total, got " + warmup + ", " + total);
        return step -> {
            if (step < warmup) return peak * step / (double) warmup;
            double t = Math.min(step - warmup, total - warmup) / (double) (total - warmup);
            return end + (peak - end) * 0.5 * (1 + StrictMath.cos(Math.PI * t));
        };
    }

    /**
     * PyTorch's {@code OneCycleLR} (cosine annealing, three phases off): from {@code max/divFactor} up to
     * {@code max} over {@code pctStart·total} steps, then down to {@code max/(divFactor·finalDivFactor)} at the end.
     */
    public static Schedule oneCycle(double max, long total, double pctStart, double divFactor, double finalDivFactor) {
        checkLr("oneCycle", max);
        if (total < 2 || !(pctStart > 0 && pctStart < 1) || !(divFactor > 0) || !(finalDivFactor > 0)) {
            throw new JBurnException("oneCycle", "needs total >= 2, pctStart in (0, 1), positive div factors");
        }
        double initial = max / divFactor, last = initial / finalDivFactor;
        double upEnd = pctStart * total - 1, downEnd = total - 1;
        return step -> {
            double s = Math.min(Math.max(0, step), downEnd);
            if (s <= upEnd) return annealCos(initial, max, upEnd <= 0 ? 1 : s / upEnd);
            return annealCos(max, last, (s - upEnd) / (downEnd - upEnd));
        };
    }

    /** {@code values[i]} from boundary {@code i-1} (inclusive) to boundary {@code i}: {@code values.length = boundaries.length + 1}. */
    public static Schedule piecewiseConstant(long[] boundaries, double[] values) {
        if (boundaries == null || values == null || values.length != boundaries.length + 1) {
            throw new JBurnException("piecewiseConstant", "needs one more value than boundaries");
        }
        for (int i = 1; i < boundaries.length; i++) {
            if (boundaries[i] <= boundaries[i - 1]) throw new JBurnException("piecewiseConstant", "boundaries must increase, got " + Arrays.toString(boundaries));
        }
        for (double v : values) checkLr("piecewiseConstant", v);
        long[] b = boundaries.clone();
        double[] v = values.clone();
        return step -> {
            int i = 0;
            while (i < b.length && step >= b[i]) i++;
            return v[i];
        };
    }

    /** {@code schedules[i]} from boundary {@code i-1}, each counting its steps from its own start (Optax {@code join_schedules}). */
    public static Schedule join(Schedule[] schedules, long[] boundaries) {
        if (schedules == null || boundaries == null || schedules.length != boundaries.length + 1) {
            throw new JBurnException("join", "needs one more schedule than boundaries");
        }
        Schedule[] s = schedules.clone();
        long[] b = boundaries.clone();
        return step -> {
            int i = 0;
            while (i < b.length && step >= b[i]) i++;
            return s[i].at(i == 0 ? step : step - b[i - 1]);
        };
    }

    private static double annealCos(double start, double end, double pct) { return end + (start - end) / 2 * (StrictMath.cos(Math.PI * pct) + 1); }

    private static void checkLr(String op, double lr) {
        if (!(lr >= 0) || Double.isInfinite(lr)) throw new JBurnException(op, "learning rates must be finite and >= 0, got " + lr);
    }
}
