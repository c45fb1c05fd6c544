package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.TopK;
import dev.jburn.op.SortOp;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Sorting: stable {@code sort} and {@code argsort} along any axis in both directions (NaN
 * above +Inf, {@code -0.0} equal to {@code 0.0}, U64 unsigned) match the oracle and a stable
 * sort written here; {@code topK} matches the oracle. Laws: taking along the argsort gives the
 * sort; sorting is idempotent; the descending sort is the reversed ascending sort (exactly, for
 * distinct values, also for argsort); top-k is the head of the descending sort. A bad axis or k
 * names the op the user called.
 */
public interface SortContract extends EngineContract {

    /** A tensor, the axis to sort along and the direction. */
    record SortCase(TensorCase x, int axis, boolean descending) {
        @Override
        public String toString() { return x + " along axis " + axis + (descending ? ", descending" : ""); }
    }

    /** A tensor and how many of the largest elements of its last axis to take. */
    record TopKCase(TensorCase x, int k) {
        @Override
        public String toString() { return x + " top " + k; }
    }

    @Test
    @Covers("sort")
    default void sortMatchesTheOracleAndAStableSort() {
        Props.forAll(sortCases(Shapes.any()), c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> sort(t, c.axis(), c.descending()));
            if (c.x().shape().rank() > 0) {
                TensorAssert.assertSame(c + " vs a stable sort", sortSpec(c, false), sort(c.x().on(engine()), c.axis(), c.descending()));
            }
        });
    }

    @Test
    @Covers("argsort")
    default void argsortMatchesTheOracleAndAStableSort() {
        Props.forAll(sortCases(Shapes.any()), c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> argsort(t, c.axis(), c.descending()));
            if (c.x().shape().rank() > 0) {
                TensorAssert.assertSame(c + " vs a stable sort", sortSpec(c, true), argsort(c.x().on(engine()), c.axis(), c.descending()));
            }
        });
    }

    @Test
    @Covers("topK")
    default void topKMatchesTheOracle() {
        Props.assumeBuilt(SortOp.TOP_K);
        Props.forAll(topKCases(), c -> Oracle.check(engine(), c, Tolerance.EXACT, List.of(c.x()), in -> {
            TopK top = in.get(0).topK(c.k());
            return List.of(top.values(), top.indices());
        }));
    }

    @Test
    @Covers({"argsort", "takeAlongAxis", "sort"})
    default void takingAlongTheArgsortGivesTheSort() {
        Props.forAll(sortCases(Shapes.ofRank(1, 4)), c -> {
            Tensor t = c.x().on(engine());
            TensorAssert.assertClose(c + ": takeAlongAxis(argsort) = sort", sort(t, c.axis(), c.descending()),
                    t.takeAlongAxis(argsort(t, c.axis(), c.descending()), c.axis()), Tolerance.EXACT);
        });
    }

    @Test
    @Covers("sort")
    default void sortingTwiceIsSortingOnce() {
        Props.forAll(sortCases(Shapes.ofRank(1, 4)), c -> {
            Tensor once = sort(c.x().on(engine()), c.axis(), c.descending());
            TensorAssert.assertClose(c + ": sorted again", once, sort(once, c.axis(), c.descending()), Tolerance.EXACT);
        });
    }

    @Test
    @Covers({"sort", "argsort", "reverse"})
    default void descendingIsTheReversedAscendingSort() {
        Props.forAll(sortCases(Shapes.ofRank(1, 4)), c -> {
            Tensor t = c.x().on(engine());
            // Ties are equal values, except -0.0 with 0.0 and NaN payloads, which SELECTION does not tell apart.
            TensorAssert.assertClose(c + ": descending = reversed ascending", sort(t, c.axis(), false).reverse(c.axis()),
                    sort(t, c.axis(), true), Tolerance.SELECTION);
        });
        Props.forAll(distinctCases(), c -> {
            Tensor t = c.x().on(engine());
            TensorAssert.assertClose(c + ": argsort descending = reversed argsort ascending (distinct values)",
                    argsort(t, c.axis(), false).reverse(c.axis()), argsort(t, c.axis(), true), Tolerance.EXACT);
        });
    }

    @Test
    @Covers({"topK", "sort", "argsort"})
    default void topKIsTheHeadOfTheDescendingSort() {
        Props.assumeBuilt(SortOp.TOP_K);
        Props.forAll(topKCases(), c -> {
            if (c.x().shape().rank() == 0 || c.k() > c.x().shape().dim(-1)) return; // failures: the oracle comparison's business
            Tensor t = c.x().on(engine());
            int r = c.x().shape().rank();
            int[] starts = new int[r];
            int[] lengths = c.x().shape().withDim(-1, c.k()).dims();
            TopK top = t.topK(c.k());
            if (c.k() == 0) {
                // A slice of length 0 is refused on a non-empty axis: compare types and shapes only.
                TensorAssert.assertSame(c + ": values", Specs.empty(c.x().dtype(), Shape.of(lengths)), top.values());
                TensorAssert.assertSame(c + ": indices", TensorCase.ofLongs(DType.S32, Shape.of(lengths)), top.indices());
                return;
            }
            TensorAssert.assertClose(c + ": values = head of sort descending", sort(t, -1, true).slice(starts, lengths), top.values(), Tolerance.EXACT);
            TensorAssert.assertClose(c + ": indices = head of argsort descending", argsort(t, -1, true).slice(starts, lengths), top.indices(), Tolerance.EXACT);
        });
    }

    @Test
    @Covers({"sort", "argsort", "topK"})
    default void sortsNameThemselvesForBadAxesAndK() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(0, 3, true, 24), Elements.Mix.SMALL);
        Props.forAll(xs, x -> {
            int r = x.shape().rank();
            String shape = x.shape().toString();
            for (int bad : new int[] {r, -r - 1}) {
                Oracle.checkFails(engine(), x + " along axis " + bad, List.of(x), "sort", in -> sort(in.get(0), bad, false), "(" + bad + ")", shape);
                Oracle.checkFails(engine(), x + " along axis " + bad, List.of(x), "argsort", in -> argsort(in.get(0), bad, true), "(" + bad + ")", shape);
            }
            if (r == 0) {
                Oracle.checkFails(engine(), x + " top 1", List.of(x), "topK", in -> in.get(0).topK(1));
                return;
            }
            int k = x.shape().dim(-1) + 1;
            Oracle.checkFails(engine(), x + " top " + k, List.of(x), "topK", in -> in.get(0).topK(k), "k=" + k, shape);
            Oracle.checkFails(engine(), x + " top -1", List.of(x), "topK", in -> in.get(0).topK(-1), "-1");
        });
    }

    // ---- generators, calls and the stable sort ------------------------------------------------

    /** Any dtype, values with edge cases or many ties (half each), one axis (0 for rank 0, which has none), either direction. */
    static Gen<SortCase> sortCases(Gen<Shape> shapes) {
        Gen<TensorCase> wide = Generators.tensors(Generators.dtypesFavouringFastPaths(), shapes, Elements.Mix.ALL);
        Gen<TensorCase> ties = Generators.tensors(Generators.dtypesFavouringFastPaths(), shapes, Elements.Mix.SMALL);
        return rs -> {
            TensorCase x = (Axes.coin(rs) ? wide : ties).generate(rs);
            return new SortCase(x, Axes.one(x.shape().rank()).generate(rs), Axes.coin(rs));
        };
    }

    /** Rank 1 or more: a random permutation of n distinct values, in a dtype that holds them all. */
    private static Gen<SortCase> distinctCases() {
        Gen<Shape> shapes = Shapes.ofRank(1, 4);
        return rs -> {
            Shape s = shapes.generate(rs);
            int n = Math.toIntExact(s.size());
            List<DType> fit = new ArrayList<>();
            for (DType t : DType.values()) {
                if (t.isPred()) continue;
                double span = t.isFloat() ? Math.scalb(1.0, FloatFormats.mantissaBits(t) + 1) : t == DType.U64 ? 0x1p64 : t.maxLong();
                if (n <= span) fit.add(t);
            }
            DType t = fit.get(Axes.between(rs, 0, fit.size() - 1));
            int[] perm = Axes.shuffled(rs, n);
            long shift = t.isUnsigned() ? 0 : n / 2;
            long[] v = new long[n];
            for (int i = 0; i < n; i++) v[i] = perm[i] - shift;
            TensorCase x = t.isFloat()
                    ? TensorCase.ofDoubles(t, s, Arrays.stream(v).asDoubleStream().toArray())
                    : TensorCase.ofLongs(t, s, v);
            return new SortCase(x, Axes.one(s.rank()).generate(rs), Axes.coin(rs));
        };
    }

    /** Any dtype and rank; k from 0 to the last axis size (one more, which fails, 1 in 10). */
    private static Gen<TopKCase> topKCases() {
        Gen<SortCase> xs = sortCases(Shapes.any());
        return rs -> {
            TensorCase x = xs.generate(rs).x();
            int last = x.shape().rank() == 0 ? 1 : x.shape().dim(-1);
            return new TopKCase(x, Axes.oneIn(rs, 10) ? last + 1 : Axes.between(rs, 0, last));
        };
    }

    /** {@code sort()} for axis 0 ascending, else {@code sort(axis)} or {@code sort(axis, true)}. */
    static Tensor sort(Tensor t, int axis, boolean descending) {
        if (axis == 0 && !descending) return t.sort();
        return descending ? t.sort(axis, true) : t.sort(axis);
    }

    /** {@code argsort()} for axis 0 ascending, else {@code argsort(axis)} or {@code argsort(axis, true)}. */
    static Tensor argsort(Tensor t, int axis, boolean descending) {
        if (axis == 0 && !descending) return t.argsort();
        return descending ? t.argsort(axis, true) : t.argsort(axis);
    }

    /** The Nx order of one element: NaN above everything, the zeros equal, U64 unsigned. */
    private static Comparator<Integer> order(TensorCase x) {
        if (x.dtype().isFloat()) {
            return (i, j) -> Double.compare(x.doubleAt(i) == 0 ? 0.0 : x.doubleAt(i), x.doubleAt(j) == 0 ? 0.0 : x.doubleAt(j));
        }
        if (x.dtype() == DType.U64) return (i, j) -> Long.compareUnsigned(x.longAt(i), x.longAt(j));
        return (i, j) -> Long.compare(x.longAt(i), x.longAt(j));
    }

    /** The sorted values (or, with {@code positions}, the S32 positions) by a stable {@link List#sort}, line by line. */
    private static TensorCase sortSpec(SortCase c, boolean positions) {
        Shape s = c.x().shape();
        int a = c.axis() < 0 ? c.axis() + s.rank() : c.axis();
        int n = s.dim(a);
        long stride = s.strides()[a];
        int size = Math.toIntExact(s.size());
        Comparator<Integer> cmp = order(c.x());
        Comparator<Integer> dir = c.descending() ? cmp.reversed() : cmp;
        long[] pos = new long[size];
        for (int flat = 0; flat < size; flat++) {
            if (TensorAssert.index(s, flat)[a] != 0) continue; // one line per element at position 0 of the axis
            List<Integer> line = new ArrayList<>();
            for (int k = 0; k < n; k++) line.add(flat + (int) (k * stride));
            List<Integer> sorted = new ArrayList<>(line);
            sorted.sort(dir); // stable
            for (int k = 0; k < n; k++) pos[line.get(k)] = (sorted.get(k) - flat) / stride;
        }
        if (positions) return TensorCase.ofLongs(DType.S32, s, pos);
        return Specs.pick(c.x(), s, idx -> {
            long f = Specs.flat(s, idx);
            return f - idx[a] * stride + pos[(int) f] * stride;
        });
    }
}
