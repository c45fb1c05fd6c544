package dev.jburn;

import java.util.Arrays;

/**
 * How window ops and convolutions pad their input: {@link #VALID} (no padding), {@link #SAME}
 * (pad {@code k_eff - 1} in total, {@code floor} of half before and {@code ceil} of half after,
 * independent of the stride, as Nx), or explicit {@code (lo, hi)} pairs, one per padded axis.
 *
 * <pre>{@code
 * Padding.SAME
 * Padding.explicit(new int[][] {{1, 1}, {0, 2}})   // axis 0: 1 before, 1 after; axis 1: 0 before, 2 after
 * Padding.symmetric(1, 1)                         // {{1, 1}, {1, 1}}
 * }</pre>
 *
 * Window ops pad every axis and take only non-negative amounts; convolutions pad the spatial
 * axes and accept negative amounts (they crop).
 */
public final class Padding {
    /** The three ways to pad. */
    public enum Mode { VALID, SAME, EXPLICIT }

    /** No padding: only windows that fit the input. */
    public static final Padding VALID = new Padding(Mode.VALID, null);

    /** Pads {@code k_eff - 1} in total per axis: {@code floor} of half before, {@code ceil} of half after. */
    public static final Padding SAME = new Padding(Mode.SAME, null);

    private final Mode mode;
    private final int[][] pairs;

    private Padding(Mode mode, int[][] pairs) {
        this.mode = mode;
        this.pairs = pairs;
    }

    /** Explicit {@code {lo, hi}} amounts, one pair per padded axis. */
    public static Padding explicit(int[]... loHi) {
        if (loHi == null) throw new JBurnException("padding", "padding pairs must not be null");
        int[][] copy = new int[loHi.length][];
        for (int i = 0; i < loHi.length; i++) {
            if (loHi[i] == null || loHi[i].length != 2) {
                throw new JBurnException("padding", "padding must be a list of {lo, hi} pairs, got "
                        + (loHi[i] == null ? "null" : Arrays.toString(loHi[i])) + " for axis " + i);
            }
            copy[i] = loHi[i].clone();
        }
        return new Padding(Mode.EXPLICIT, copy);
    }

    /** The same amount before and after each axis: {@code symmetric(1, 2)} is {@code {{1, 1}, {2, 2}}}. */
    public static Padding symmetric(int... amounts) {
        Args.nonNull("padding", "amounts", amounts);
        int[][] p = new int[amounts.length][];
        for (int i = 0; i < amounts.length; i++) p[i] = new int[] {amounts[i], amounts[i]};
        return new Padding(Mode.EXPLICIT, p);
    }

    public Mode mode() { return mode; }

    /** Number of explicit pairs; 0 for {@code VALID} and {@code SAME}. */
    public int rank() { return pairs == null ? 0 : pairs.length; }

    /** Padding before axis {@code i} of an explicit padding. */
    public int lo(int i) { return explicitPairs()[i][0]; }

    /** Padding after axis {@code i} of an explicit padding. */
    public int hi(int i) { return explicitPairs()[i][1]; }

    private int[][] explicitPairs() {
        if (pairs == null) throw new JBurnException("padding", mode + " padding has no explicit pairs");
        return pairs;
    }

    /**
     * The {@code [lo, hi]} arrays for axes whose effective window (or kernel) sizes are
     * {@code effWindow}, checking the rank of an explicit padding and, unless
     * {@code allowNegative}, its sign. Errors name {@code op} and {@code shape}.
     */
    int[][] resolve(String op, int[] effWindow, boolean allowNegative, Shape shape) {
        int r = effWindow.length;
        int[] lo = new int[r], hi = new int[r];
        switch (mode) {
            case VALID -> { }
            case SAME -> {
                for (int i = 0; i < r; i++) {
                    int total = Math.max(effWindow[i] - 1, 0);
                    lo[i] = total / 2;
                    hi[i] = total - total / 2;
                }
            }
            case EXPLICIT -> {
                if (pairs.length != r) {
                    throw new JBurnException(op, "invalid padding configuration, rank of padding configuration and shape must"
                            + " match: got " + pairs.length + " pairs " + this + " for " + r + " padded axes of shape " + shape);
                }
                for (int i = 0; i < r; i++) {
                    lo[i] = pairs[i][0];
                    hi[i] = pairs[i][1];
                    if (!allowNegative && (lo[i] < 0 || hi[i] < 0)) {
                        throw new JBurnException(op, "padding must be non-negative, got " + this + " for shape " + shape);
                    }
                }
            }
        }
        return new int[][] {lo, hi};
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Padding p && p.mode == mode && Arrays.deepEquals(p.pairs, pairs);
    }

    @Override
    public int hashCode() { return mode.hashCode() * 31 + Arrays.deepHashCode(pairs); }

    @Override
    public String toString() { return mode == Mode.EXPLICIT ? Arrays.deepToString(pairs) : mode.name(); }
}
