package dev.jburn.conformance;

import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.generators.Generate;

import java.util.Arrays;

/**
 * Axis arguments as users write them: every axis may come as {@code a} or as its negative
 * form {@code a - rank}, lists in any order. Used by the properties of reductions, scans,
 * sorts and movement ops; {@link #normalized} gives the {@code [0, rank)} form back.
 *
 * <pre>{@code
 * int[] axes = Axes.subset(3).generate(rs);        // e.g. [-1, 0]
 * int[] perm = Axes.permutation(3).generate(rs);   // e.g. [2, -3, 1]
 * }</pre>
 */
public final class Axes {
    private Axes() {}

    /** One axis of a shape of rank {@code rank}, in {@code [-rank, rank)}; 0 for rank 0 (where no axis is valid). */
    public static Gen<Integer> one(int rank) {
        return rank == 0 ? Generate.constant(0) : Generate.range(-rank, rank - 1);
    }

    /** Distinct axes, from none to all, in random order, each written as {@code a} or {@code a - rank}. */
    public static Gen<int[]> subset(int rank) {
        return rs -> {
            int[] perm = shuffled(rs, rank);
            int n = between(rs, 0, rank);
            return maybeNegative(rs, Arrays.copyOf(perm, n), rank);
        };
    }

    /** {@code count} distinct axes in increasing order (of their normalized form), each written as {@code a} or {@code a - rank}. */
    public static Gen<int[]> increasing(int rank, int count) {
        return rs -> {
            int[] chosen = Arrays.copyOf(shuffled(rs, rank), Math.min(count, rank));
            Arrays.sort(chosen);
            return maybeNegative(rs, chosen, rank);
        };
    }

    /** A permutation of {@code [0, rank)}, each entry written as {@code a} or {@code a - rank}. */
    public static Gen<int[]> permutation(int rank) {
        return rs -> maybeNegative(rs, shuffled(rs, rank), rank);
    }

    /** {@code axes} in {@code [0, rank)} form (assumes each is in {@code [-rank, rank)}). */
    public static int[] normalized(int[] axes, int rank) {
        return Arrays.stream(axes).map(a -> a < 0 ? a + rank : a).toArray();
    }

    /** The inverse of a permutation (given in any written form), normalized. */
    public static int[] inverse(int[] perm) {
        int[] p = normalized(perm, perm.length);
        int[] inv = new int[p.length];
        for (int i = 0; i < p.length; i++) inv[p[i]] = i;
        return inv;
    }

    // ---- drawing helpers shared by the contracts ------------------------------------------------

    /** An int in {@code [lo, hi]}; {@code lo} when the range is empty. */
    static int between(RandomnessSource rs, int lo, int hi) {
        return hi <= lo ? lo : Generate.range(lo, hi).generate(rs);
    }

    /** A fair coin. */
    static boolean coin(RandomnessSource rs) { return Generate.booleans().generate(rs); }

    /** True about one time in {@code n}. */
    static boolean oneIn(RandomnessSource rs, int n) { return between(rs, 1, n) == 1; }

    /** {@code [0, n)} in random order. */
    static int[] shuffled(RandomnessSource rs, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = between(rs, 0, i);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static int[] maybeNegative(RandomnessSource rs, int[] axes, int rank) {
        for (int i = 0; i < axes.length; i++) if (coin(rs)) axes[i] -= rank;
        return axes;
    }
}
