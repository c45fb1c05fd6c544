package dev.jburn.conformance;

import dev.jburn.Shape;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.ArrayList;
import java.util.List;

/**
 * Shape generators: rank 0 to 4, empty axes, size-1 axes, and sometimes enough elements to
 * pass SIMD widths and parallel thresholds (up to {@link #MAX_ELEMENTS}); broadcast-compatible
 * and incompatible pairs; shapes of a given size for reshapes.
 *
 * <pre>{@code
 * Gen<Shape> s = Shapes.any();                  // [], [0, 3], [2, 1, 5], [300], ...
 * Gen<BroadcastShapes> p = Shapes.broadcastable();   // [4, 1, 3] with [2, 1]
 * }</pre>
 */
public final class Shapes {
    private Shapes() {}

    /** Largest element count a generated shape has; past the usual SIMD widths and the kit's parallel threshold. */
    public static final int MAX_ELEMENTS = 300;

    /** Up to this rank. */
    public static final int MAX_RANK = 4;

    /** Any shape: rank 0 to 4, axes of size 0 (rarely), 1, small, or large (total at most {@link #MAX_ELEMENTS}). */
    public static Gen<Shape> any() { return ofRank(0, MAX_RANK); }

    /** Shapes with at least one element. */
    public static Gen<Shape> nonEmpty() { return ofRank(0, MAX_RANK, false); }

    /** Shapes of rank {@code minRank} to {@code maxRank}, empty axes included. */
    public static Gen<Shape> ofRank(int minRank, int maxRank) { return ofRank(minRank, maxRank, true); }

    /** Shapes of rank {@code minRank} to {@code maxRank}; {@code allowEmpty} admits size-0 axes. */
    public static Gen<Shape> ofRank(int minRank, int maxRank, boolean allowEmpty) {
        return ofRank(minRank, maxRank, allowEmpty, MAX_ELEMENTS);
    }

    /**
     * Shapes of rank {@code minRank} to {@code maxRank} with at most {@code maxElements}
     * elements (large axes are halved until they fit); {@code allowEmpty} admits size-0 axes.
     */
    public static Gen<Shape> ofRank(int minRank, int maxRank, boolean allowEmpty, int maxElements) {
        Gen<Integer> rank = Generate.range(minRank, maxRank); // QuickTheories already favours the bounds
        Gen<Integer> dim = axisSize(allowEmpty);
        return rs -> {
            int r = rank.generate(rs);
            int[] d = new int[r];
            for (int i = 0; i < r; i++) d[i] = dim.generate(rs);
            return Shape.of(capped(d, maxElements));
        };
    }

    /** Any rank 0 to 4, empty axes included, at most {@code maxElements} elements: for ops whose output grows (tile, pad, dot). */
    public static Gen<Shape> upTo(int maxElements) { return ofRank(0, MAX_RANK, true, maxElements); }

    /** One axis size: 0 (when allowed, 4%), 1 (16%), 2..6 (55%), 7..{@link #MAX_ELEMENTS} (25%). */
    static Gen<Integer> axisSize(boolean allowEmpty) {
        List<Pair<Integer, Gen<Integer>>> sizes = new ArrayList<>(List.of(
                Pair.of(16, Generate.range(1, 1)),
                Pair.of(55, Generate.range(2, 6)),
                Pair.of(25, Generate.range(7, MAX_ELEMENTS))));
        if (allowEmpty) sizes.add(Pair.of(4, Generate.range(0, 0)));
        return Generate.frequency(sizes);
    }

    /** Halves the largest axes until the element count is at most {@link #MAX_ELEMENTS}. */
    static int[] capped(int[] d) { return capped(d, MAX_ELEMENTS); }

    /**
     * Halves the largest axes until the element count is at most {@code max} (at least 1), an
     * empty axis counting as 1: so the shape stays small when a property gives that axis a size.
     */
    static int[] capped(int[] d, long max) {
        while (product(d) > max) {
            int big = 0;
            for (int i = 1; i < d.length; i++) if (d[i] > d[big]) big = i;
            d[big] = Math.max(1, d[big] / 2);
        }
        return d;
    }

    private static long product(int[] d) {
        long p = 1;
        for (int x : d) p *= Math.max(x, 1);
        return p;
    }

    /**
     * Two shapes that broadcast together (NumPy rules): both are derived from one result shape by
     * dropping leading axes and setting some axes to 1, so every pattern appears, including
     * rank 0 with anything and empty axes against 1.
     */
    public static Gen<BroadcastShapes> broadcastable() {
        Gen<Shape> out = any();
        Gen<Integer> keep = Generate.range(0, MAX_RANK);
        Gen<Integer> toOne = Generate.range(0, 2); // 0 sets the axis to 1: one in three
        return rs -> {
            Shape o = out.generate(rs);
            Shape a = derive(o, keep.generate(rs), toOne, rs);
            Shape b = derive(o, o.rank(), toOne, rs);
            return Generate.booleans().generate(rs) ? new BroadcastShapes(a, b) : new BroadcastShapes(b, a);
        };
    }

    private static Shape derive(Shape o, int keepRank, Gen<Integer> toOne, org.quicktheories.core.RandomnessSource rs) {
        int k = Math.min(keepRank, o.rank());
        int[] d = new int[k];
        int[] od = o.dims();
        for (int i = 0; i < k; i++) {
            int src = od[o.rank() - k + i];
            d[i] = toOne.generate(rs) == 0 ? 1 : src;
        }
        return Shape.of(d);
    }

    /** Two shapes that do not broadcast: their last axes have different sizes, neither 1. */
    public static Gen<BroadcastShapes> incompatible() {
        Gen<Shape> lead = ofRank(0, MAX_RANK - 1, false);
        Gen<Integer> last = Generate.range(2, 6);
        Gen<Integer> step = Generate.range(1, 4);
        return lead.zip(last, step, Generate.booleans(), (l, x, dx, swap) -> {
            int[] d = l.dims();
            capped(d, MAX_ELEMENTS / 10); // room for a last axis of up to 10
            int[] a = java.util.Arrays.copyOf(d, d.length + 1);
            int[] b = a.clone();
            a[d.length] = x;
            b[d.length] = x + dx;
            Shape sa = Shape.of(a);
            Shape sb = Shape.of(b);
            return swap ? new BroadcastShapes(sb, sa) : new BroadcastShapes(sa, sb);
        });
    }

    /**
     * Shapes with exactly {@code size} elements and rank 0 to 4: the prime factors of the
     * size dealt to random axes (size 0: one axis of 0, the others anything small).
     */
    public static Gen<Shape> withSize(long size) {
        Gen<Integer> rank = Generate.range(size == 1 ? 0 : 1, MAX_RANK);
        return rs -> {
            int r = rank.generate(rs);
            int[] d = new int[r];
            java.util.Arrays.fill(d, 1);
            if (size == 0) {
                Gen<Integer> small = Generate.range(0, 4);
                for (int i = 0; i < r; i++) d[i] = small.generate(rs);
                d[Generate.range(0, r - 1).generate(rs)] = 0;
                return Shape.of(d);
            }
            Gen<Integer> axis = Generate.range(0, r - 1);
            for (long p : primeFactors(size)) {
                int a = r == 0 ? 0 : axis.generate(rs);
                d[a] = Math.toIntExact(d[a] * p);
            }
            return Shape.of(d);
        };
    }

    private static List<Long> primeFactors(long n) {
        List<Long> f = new ArrayList<>();
        long m = n;
        for (long p = 2; p * p <= m; p++) {
            while (m % p == 0) {
                f.add(p);
                m /= p;
            }
        }
        if (m > 1) f.add(m);
        return f;
    }
}
