package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Index-driven ops: {@code take}, {@code takeAlongAxis}, {@code gather}, {@code indexedAdd} and
 * {@code indexedPut} with index tensors of every integer type, duplicates, empty index lists and
 * explicit (negative) axes, match the oracle and their index rules. Laws: gathering every
 * coordinate, taking every index, adding zeros and putting back the gathered values are the
 * identity. Non-integer indices, out-of-bounds indices and mismatched shapes name the op the
 * user called.
 */
public interface IndexContract extends EngineContract {

    /** A tensor, integer indices and an axis (or, for gather and the indexed ops, axes: {@code null} for the leading ones). */
    record IndexCase(TensorCase x, TensorCase indices, int[] axes) {
        @Override
        public String toString() {
            return x + " at indices " + indices + (axes == null ? "" : " on axes " + Arrays.toString(axes));
        }
    }

    /** A target, integer indices {@code [n, k]} (or {@code [rank]}), updates and the indexed axes ({@code null}: the leading ones). */
    record UpdateCase(TensorCase target, TensorCase indices, TensorCase updates, int[] axes) {
        @Override
        public String toString() {
            return target + " at indices " + indices + " updates " + updates + (axes == null ? "" : " on axes " + Arrays.toString(axes));
        }
    }

    @Test
    @Covers("take")
    default void takeMatchesTheOracleAndTheIndexRule() {
        Props.forAll(takeCases(), c -> {
            int axis = c.axes()[0];
            Oracle.check(engine(), c, Tolerance.EXACT, List.of(c.x(), c.indices()), in -> List.of(take(in.get(0), in.get(1), axis)));
            Shape s = c.x().shape();
            int a = axis < 0 ? axis + s.rank() : axis;
            if (s.rank() == 0 || !inRange(c.indices(), s.dim(a))) return; // the failure is the oracle's to compare
            Shape is = c.indices().shape();
            int m = is.rank();
            int[] out = new int[s.rank() - 1 + m];
            for (int i = 0, j = 0; i < s.rank(); i++) {
                if (i == a) for (int d : is.dims()) out[j++] = d;
                else out[j++] = s.dim(i);
            }
            TensorCase spec = Specs.pick(c.x(), Shape.of(out), idx -> {
                int[] src = new int[s.rank()];
                for (int i = 0; i < s.rank(); i++) src[i] = i < a ? idx[i] : i > a ? idx[i + m - 1] : (int) c.indices().longAt((int) Specs.flat(is, Arrays.copyOfRange(idx, a, a + m)));
                return Specs.flat(s, src);
            });
            TensorAssert.assertSame(c + ": the axis replaced by the picked slices", spec, take(c.x().on(engine()), c.indices().on(engine()), axis));
        });
    }

    @Test
    @Covers("takeAlongAxis")
    default void takeAlongAxisMatchesTheOracleAndTheIndexRule() {
        Props.forAll(takeAlongCases(), c -> {
            int axis = c.axes()[0];
            Oracle.check(engine(), c, Tolerance.EXACT, List.of(c.x(), c.indices()), in -> List.of(in.get(0).takeAlongAxis(in.get(1), axis)));
            Shape s = c.x().shape();
            int a = axis < 0 ? axis + s.rank() : axis;
            if (!inRange(c.indices(), s.dim(a))) return;
            TensorCase spec = Specs.pick(c.x(), c.indices().shape(), idx -> {
                int[] src = idx.clone();
                src[a] = (int) c.indices().longAt((int) Specs.flat(c.indices().shape(), idx));
                return Specs.flat(s, src);
            });
            TensorAssert.assertSame(c + ": out[i] = x[i with the axis index from indices]", spec,
                    c.x().on(engine()).takeAlongAxis(c.indices().on(engine()), axis));
        });
    }

    @Test
    @Covers("gather")
    default void gatherMatchesTheOracleAndTheIndexRule() {
        Props.forAll(gatherCases(), c -> {
            Oracle.check(engine(), c, Tolerance.EXACT, List.of(c.x(), c.indices()), in -> List.of(gather(in.get(0), in.get(1), c.axes())));
            Shape s = c.x().shape();
            Shape is = c.indices().shape();
            int k = is.dim(-1);
            int[] axes = c.axes() == null ? java.util.stream.IntStream.range(0, k).toArray() : Axes.normalized(c.axes(), s.rank());
            for (int j = 0; j < k; j++) if (!inRange(column(c.indices(), j), s.dim(axes[j]))) return;
            boolean[] indexed = new boolean[s.rank()];
            for (int a : axes) indexed[a] = true;
            List<Integer> out = new ArrayList<>();
            for (int i = 0; i < is.rank() - 1; i++) out.add(is.dim(i));
            for (int i = 0; i < s.rank(); i++) if (!indexed[i]) out.add(s.dim(i));
            int batch = is.rank() - 1;
            TensorCase spec = Specs.pick(c.x(), Shape.of(out.stream().mapToInt(Integer::intValue).toArray()), idx -> {
                int[] row = Arrays.copyOf(idx, is.rank());
                int[] src = new int[s.rank()];
                for (int j = 0; j < k; j++) {
                    row[batch] = j;
                    src[axes[j]] = (int) c.indices().longAt((int) Specs.flat(is, row));
                }
                for (int i = 0, p = batch; i < s.rank(); i++) if (!indexed[i]) src[i] = idx[p++];
                return Specs.flat(s, src);
            });
            TensorAssert.assertSame(c + ": each index row picks a slice", spec, gather(c.x().on(engine()), c.indices().on(engine()), c.axes()));
        });
    }

    @Test
    @Covers("indexedAdd")
    default void indexedAddMatchesTheOracleAndAddsDuplicates() {
        Props.forAll(updateCases(true), c -> {
            DType t = DType.merge(c.target().dtype(), c.updates().dtype());
            long rows = c.indices().shape().rank() == 1 ? 1 : c.indices().shape().dim(0);
            Tolerance tol = Tolerance.accumulation(t, rows + 1, Specs.sumAbs(Specs.cast(c.target(), t)) + Specs.sumAbs(Specs.cast(c.updates(), t)));
            Oracle.check(engine(), c, tol, List.of(c.target(), c.indices(), c.updates()), in -> List.of(update(in, c.axes(), true)));
            if (!t.isFloat() && allInRange(c)) {
                TensorAssert.assertSame(c + ": the updates added, duplicates summed", updateSpec(c, true),
                        update(List.of(c.target().on(engine()), c.indices().on(engine()), c.updates().on(engine())), c.axes(), true));
            }
        });
    }

    @Test
    @Covers("indexedPut")
    default void indexedPutMatchesTheOracleAndTheLastWriteWins() {
        Props.forAll(updateCases(false), c -> {
            Oracle.check(engine(), c, Tolerance.EXACT, List.of(c.target(), c.indices(), c.updates()), in -> List.of(update(in, c.axes(), false)));
            if (allInRange(c)) {
                TensorAssert.assertSame(c + ": the updates written, the last of duplicates wins", updateSpec(c, false),
                        update(List.of(c.target().on(engine()), c.indices().on(engine()), c.updates().on(engine())), c.axes(), false));
            }
        });
    }

    @Test
    @Covers({"gather", "take", "takeAlongAxis"})
    default void pickingEveryIndexIsTheIdentity() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(1, 3, true, 60), Elements.Mix.ALL);
        Gen<IndexCase> cases = rs -> {
            TensorCase x = xs.generate(rs);
            return new IndexCase(x, null, new int[] {Axes.one(x.shape().rank()).generate(rs)});
        };
        Props.forAll(cases, c -> {
            Shape s = c.x().shape();
            int r = s.rank();
            int axis = c.axes()[0];
            int a = axis < 0 ? axis + r : axis;
            Tensor t = c.x().on(engine());
            int n = Math.toIntExact(s.size());
            long[] coords = new long[n * r];
            for (int i = 0; i < n; i++) System.arraycopy(Arrays.stream(TensorAssert.index(s, i)).asLongStream().toArray(), 0, coords, i * r, r);
            int[] withK = Arrays.copyOf(s.dims(), r + 1);
            withK[r] = r;
            Tensor every = TensorCase.ofLongs(DType.S64, Shape.of(withK), coords).on(engine());
            TensorAssert.assertSame(c + ": gather of every coordinate", c.x(), t.gather(every));
            TensorAssert.assertSame(c + ": gather of every coordinate on axes " + Arrays.toString(Axes.normalized(s.allAxes(), r)),
                    c.x(), t.gather(every, s.allAxes()));
            long[] all = new long[s.dim(a)];
            for (int i = 0; i < all.length; i++) all[i] = i;
            TensorAssert.assertSame(c + ": take of every index along " + axis, c.x(),
                    t.take(TensorCase.ofLongs(DType.S32, Shape.of(all.length), all).on(engine()), axis));
            long[] along = new long[n];
            for (int i = 0; i < n; i++) along[i] = TensorAssert.index(s, i)[a];
            TensorAssert.assertSame(c + ": takeAlongAxis of iota along " + axis, c.x(),
                    t.takeAlongAxis(TensorCase.ofLongs(DType.U16, s, along).on(engine()), axis));
        });
    }

    @Test
    @Covers({"indexedAdd", "indexedPut", "gather"})
    default void addingZerosAndPuttingBackTheGatheredValuesAreTheIdentity() {
        Props.forAll(updateCases(false), c -> {
            if (c.indices().shape().rank() != 2 || !allInRange(c)) return;
            Tensor target = c.target().on(engine());
            Tensor idx = c.indices().on(engine());
            TensorCase zeros = Specs.zeros(c.target().dtype(), c.updates().shape());
            TensorAssert.assertClose(c + ": indexedAdd of zeros", c.target(), update(List.of(target, idx, zeros.on(engine())), c.axes(), true),
                    Tolerance.SELECTION);
            Tensor gathered = gather(target, idx, c.axes());
            TensorAssert.assertSame(c + ": indexedPut of gather(target, indices)", c.target(), update(List.of(target, idx, gathered), c.axes(), false));
        });
    }

    @Test
    @Covers({"take", "takeAlongAxis", "gather", "indexedAdd", "indexedPut"})
    default void indexOpsNameThemselvesForBadIndices() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(1, 3, false, 24), Elements.Mix.SMALL);
        Gen<IndexCase> cases = rs -> {
            TensorCase x = xs.generate(rs);
            DType bad = Generators.oneOf(DType.F16, DType.BF16, DType.F32, DType.F64, DType.PRED).generate(rs);
            return new IndexCase(x, Specs.zeros(bad, Shape.of(1, x.shape().rank())), null);
        };
        Props.forAll(cases, c -> {
            TensorCase x = c.x();
            Shape s = x.shape();
            int r = s.rank();
            TensorCase row = c.indices();
            TensorCase upd = Specs.zeros(x.dtype(), Shape.of(1));
            TensorCase scalarUpd = Specs.zeros(x.dtype(), Shape.scalar());
            String type = row.dtype().shortName();
            Oracle.checkFails(engine(), c + ": take", List.of(x, row), "take", in -> in.get(0).take(in.get(1)), type);
            Oracle.checkFails(engine(), c + ": takeAlongAxis", List.of(x, row), "takeAlongAxis", in -> in.get(0).takeAlongAxis(in.get(1), 0), type);
            Oracle.checkFails(engine(), c + ": gather", List.of(x, row), "gather", in -> in.get(0).gather(in.get(1)), type);
            Oracle.checkFails(engine(), c + ": indexedAdd", List.of(x, row.withShape(Shape.of(r)), scalarUpd), "indexedAdd",
                    in -> in.get(0).indexedAdd(in.get(1), in.get(2)), type);
            Oracle.checkFails(engine(), c + ": indexedPut", List.of(x, row.withShape(Shape.of(r)), scalarUpd), "indexedPut",
                    in -> in.get(0).indexedPut(in.get(1), in.get(2)), type);

            // out of bounds, past the end and negative
            for (long bad : new long[] {s.dim(0), s.dim(0) + 7, -1}) {
                TensorCase one = TensorCase.ofLongs(DType.S32, Shape.of(1, 1), bad);
                String named = "index " + bad;
                Oracle.checkFails(engine(), x + " take [" + bad + "]", List.of(x, one.withShape(Shape.of(1))), "take",
                        in -> in.get(0).take(in.get(1)), named, "out of bounds");
                Oracle.checkFails(engine(), x + " gather [[" + bad + "]]", List.of(x, one), "gather",
                        in -> in.get(0).gather(in.get(1)), named, "out of bounds");
                TensorCase along = TensorCase.ofLongs(DType.S64, s.withDim(0, 1), new long[Math.toIntExact(s.size() / s.dim(0))]);
                long[] alongValues = along.longs();
                alongValues[alongValues.length - 1] = bad;
                TensorCase badAlong = TensorCase.ofLongs(DType.S64, along.shape(), alongValues);
                Oracle.checkFails(engine(), x + " takeAlongAxis " + badAlong, List.of(x, badAlong), "takeAlongAxis",
                        in -> in.get(0).takeAlongAxis(in.get(1), 0), named, "out of bounds");
                TensorCase slice = Specs.zeros(x.dtype(), Shape.of(Arrays.copyOf(s.withDim(0, 1).dims(), r)));
                Oracle.checkFails(engine(), x + " indexedAdd at [[" + bad + "]]", List.of(x, one, slice), "indexedAdd",
                        in -> in.get(0).indexedAdd(in.get(1), in.get(2)), named, "out of bounds");
                Oracle.checkFails(engine(), x + " indexedPut at [[" + bad + "]]", List.of(x, one, slice), "indexedPut",
                        in -> in.get(0).indexedPut(in.get(1), in.get(2)), named, "out of bounds");
            }

            // mismatched shapes
            TensorCase wrongRank = Specs.zeros(DType.S32, Shape.of(Arrays.copyOf(s.dims(), r + 1)));
            Oracle.checkFails(engine(), x + " takeAlongAxis " + wrongRank, List.of(x, wrongRank), "takeAlongAxis",
                    in -> in.get(0).takeAlongAxis(in.get(1), 0), wrongRank.shape().toString());
            TensorCase scalarIndex = Specs.zeros(DType.S32, Shape.scalar());
            Oracle.checkFails(engine(), x + " gather of a scalar index", List.of(x, scalarIndex), "gather", in -> in.get(0).gather(in.get(1)));
            TensorCase tooMany = Specs.zeros(DType.S32, Shape.of(1, r + 1));
            Oracle.checkFails(engine(), x + " gather " + tooMany, List.of(x, tooMany), "gather", in -> in.get(0).gather(in.get(1)), s.toString());
            TensorCase two = Specs.zeros(DType.S32, Shape.of(2, 1));
            Oracle.checkFails(engine(), x + " indexedAdd of 2 rows with 1 update", List.of(x, two, upd.withShape(Shape.of(1))), "indexedAdd",
                    in -> in.get(0).indexedAdd(in.get(1), in.get(2)));
            TensorCase rank3 = Specs.zeros(DType.S32, Shape.of(1, 1, 1));
            Oracle.checkFails(engine(), x + " indexedPut with indices " + rank3.shape(), List.of(x, rank3, upd), "indexedPut",
                    in -> in.get(0).indexedPut(in.get(1), in.get(2)), rank3.shape().toString());
            TensorCase zero = Specs.zeros(DType.S32, Shape.of(1));
            Oracle.checkFails(engine(), x + " take along axis " + r, List.of(x, zero), "take", in -> in.get(0).take(in.get(1), r), "(" + r + ")");

            if (engine() != Oracle.engine()) {
                Tensor here = x.on(engine());
                Tensor elsewhere = Specs.zeros(DType.S32, Shape.of(1)).on(Oracle.engine());
                Oracle.assertFailsNaming("take", x + " with indices on another engine", () -> here.take(elsewhere));
                Oracle.assertFailsNaming("gather", x + " with indices on another engine", () -> here.gather(elsewhere.reshape(1, 1)));
            }
        });
    }

    // ---- generators -----------------------------------------------------------------------------

    /** Index values below {@code bound}, in an integer type that holds them (S8 to U64). */
    private static TensorCase indices(RandomnessSource rs, Shape shape, int[] bounds) {
        int n = Math.toIntExact(shape.size());
        long[] v = new long[n];
        int max = 0;
        for (int i = 0; i < n; i++) {
            int bound = bounds[i % bounds.length];
            v[i] = bound == 0 ? 0 : Axes.between(rs, 0, bound - 1);
            max = Math.max(max, bound);
        }
        List<DType> fit = new ArrayList<>();
        for (DType t : DType.values()) if (t.isInteger() && Long.compareUnsigned(t.maxLong(), max) >= 0) fit.add(t);
        return TensorCase.ofLongs(fit.get(Axes.between(rs, 0, fit.size() - 1)), shape, v);
    }

    /** A tensor of rank 0 (which fails) to 3, an axis, indices of rank 0 to 2 with small dims. */
    private static Gen<IndexCase> takeCases() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(0, 3, true, 60), Elements.Mix.ALL);
        return rs -> {
            TensorCase x = xs.generate(rs);
            int axis = Axes.one(x.shape().rank()).generate(rs);
            int dim = x.shape().rank() == 0 ? 1 : x.shape().dim(axis);
            int[] id = new int[Axes.between(rs, 0, 2)];
            for (int i = 0; i < id.length; i++) id[i] = Axes.between(rs, 0, 4);
            if (dim == 0 && id.length > 0) id[0] = 0; // nothing to pick from: only empty indices are valid
            return new IndexCase(x, indices(rs, Shape.of(id), new int[] {dim}), new int[] {axis});
        };
    }

    /** A tensor of rank 1 to 3, an axis, indices of its shape with the axis size 0 to 5 (0 when the axis is empty). */
    private static Gen<IndexCase> takeAlongCases() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(1, 3, true, 60), Elements.Mix.ALL);
        return rs -> {
            TensorCase x = xs.generate(rs);
            int axis = Axes.one(x.shape().rank()).generate(rs);
            int dim = x.shape().dim(axis);
            Shape is = x.shape().withDim(axis, dim == 0 ? 0 : Axes.between(rs, 0, 5));
            return new IndexCase(x, indices(rs, is, new int[] {dim}), new int[] {axis});
        };
    }

    /** A tensor of rank 1 to 3, k of its axes (leading, or an increasing subset), index rows {@code [batch..., k]}. */
    private static Gen<IndexCase> gatherCases() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(1, 3, true, 60), Elements.Mix.ALL);
        return rs -> {
            TensorCase x = xs.generate(rs);
            int r = x.shape().rank();
            int k = Axes.between(rs, 1, r);
            int[] axes = Axes.coin(rs) ? null : Axes.increasing(r, k).generate(rs);
            int[] norm = axes == null ? java.util.stream.IntStream.range(0, k).toArray() : Axes.normalized(axes, r);
            int[] bounds = Arrays.stream(norm).map(x.shape()::dim).toArray();
            int[] id = new int[Axes.between(rs, 0, 2) + 1];
            for (int i = 0; i < id.length - 1; i++) id[i] = Axes.between(rs, 0, 3);
            id[id.length - 1] = k;
            if (Arrays.stream(bounds).anyMatch(b -> b == 0) && id.length > 1) id[0] = 0;
            return new IndexCase(x, indices(rs, Shape.of(id), bounds), axes);
        };
    }

    /**
     * A target of rank 1 to 3, n = 0 to 5 index rows of k of its axes (duplicates likely) and
     * updates {@code [n, other dims]} (the target's dtype 3 in 4); 1 in 6 the single-row form
     * ({@code [rank]} indices, scalar update). For indexedAdd, float values are bounded and
     * integers of a mixed pair small, so sums cannot overflow in one order and not another.
     */
    private static Gen<UpdateCase> updateCases(boolean add) {
        Gen<Shape> shapes = Shapes.ofRank(1, 3, true, 60);
        return rs -> {
            Shape s = shapes.generate(rs);
            int r = s.rank();
            DType tt = Generators.dtypesFavouringFastPaths().generate(rs);
            DType ut = Axes.oneIn(rs, 4) ? Generators.dtypes().generate(rs) : tt;
            Elements.Mix mix = !add ? Elements.Mix.ALL : tt == ut ? Elements.Mix.BOUNDED : Elements.Mix.SMALL;
            TensorCase target = Generators.values(tt, s, mix).generate(rs);
            if (Axes.oneIn(rs, 6) && s.size() > 0) {
                TensorCase idx = indices(rs, Shape.of(r), s.dims());
                return new UpdateCase(target, idx, Generators.values(ut, Shape.scalar(), mix).generate(rs), null);
            }
            int k = Axes.between(rs, 1, r);
            int[] axes = Axes.coin(rs) ? null : Axes.increasing(r, k).generate(rs);
            int[] norm = axes == null ? java.util.stream.IntStream.range(0, k).toArray() : Axes.normalized(axes, r);
            int[] bounds = Arrays.stream(norm).map(s::dim).toArray();
            int n = Arrays.stream(bounds).anyMatch(b -> b == 0) ? 0 : Axes.between(rs, 0, 5);
            boolean[] indexed = new boolean[r];
            for (int a : norm) indexed[a] = true;
            List<Integer> ud = new ArrayList<>(List.of(n));
            for (int i = 0; i < r; i++) if (!indexed[i]) ud.add(s.dim(i));
            Shape us = Shape.of(ud.stream().mapToInt(Integer::intValue).toArray());
            return new UpdateCase(target, indices(rs, Shape.of(n, k), bounds), Generators.values(ut, us, mix).generate(rs), axes);
        };
    }

    // ---- calls and specs ------------------------------------------------------------------------

    /** {@code take(indices)} for axis 0, else {@code take(indices, axis)}. */
    private static Tensor take(Tensor x, Tensor indices, int axis) {
        return axis == 0 ? x.take(indices) : x.take(indices, axis);
    }

    private static Tensor gather(Tensor x, Tensor indices, int[] axes) {
        return axes == null ? x.gather(indices) : x.gather(indices, axes);
    }

    /** indexedAdd/indexedPut of inputs (target, indices, updates), with or without axes. */
    private static Tensor update(List<Tensor> in, int[] axes, boolean add) {
        Tensor t = in.get(0), i = in.get(1), u = in.get(2);
        if (axes == null) return add ? t.indexedAdd(i, u) : t.indexedPut(i, u);
        return add ? t.indexedAdd(i, u, axes) : t.indexedPut(i, u, axes);
    }

    private static boolean inRange(TensorCase indices, int bound) {
        for (int i = 0; i < indices.size(); i++) if (indices.longAt(i) < 0 || indices.longAt(i) >= bound) return false;
        return true;
    }

    /** Column {@code j} of index rows {@code [..., k]}. */
    private static TensorCase column(TensorCase indices, int j) {
        int k = indices.shape().dim(-1);
        long[] v = new long[Math.toIntExact(indices.size() / Math.max(1, k))];
        for (int i = 0; i < v.length; i++) v[i] = indices.longAt(i * k + j);
        return TensorCase.ofLongs(indices.dtype(), Shape.of(v.length), v);
    }

    private static boolean allInRange(UpdateCase c) {
        Shape s = c.target().shape();
        int k = c.indices().shape().dim(-1);
        int[] axes = c.axes() == null ? java.util.stream.IntStream.range(0, k).toArray() : Axes.normalized(c.axes(), s.rank());
        for (int j = 0; j < k; j++) if (!inRange(column(c.indices(), j), s.dim(axes[j]))) return false;
        return true;
    }

    /** The indexed update computed here: rows in order, adding (wrapping) or writing each slice. */
    private static TensorCase updateSpec(UpdateCase c, boolean add) {
        DType t = DType.merge(c.target().dtype(), c.updates().dtype());
        TensorCase target = Specs.cast(c.target(), t), updates = Specs.cast(c.updates(), t);
        Shape s = target.shape();
        int r = s.rank();
        int k = c.indices().shape().dim(-1);
        int rows = c.indices().shape().rank() == 1 ? 1 : c.indices().shape().dim(0);
        int[] axes = c.axes() == null ? java.util.stream.IntStream.range(0, k).toArray() : Axes.normalized(c.axes(), r);
        boolean[] indexed = new boolean[r];
        for (int a : axes) indexed[a] = true;
        int[] sliceDims = java.util.stream.IntStream.range(0, r).filter(i -> !indexed[i]).map(s::dim).toArray();
        Shape slice = Shape.of(sliceDims);
        int per = Math.toIntExact(slice.size());
        double[] d = t.isFloat() ? target.doubles() : null;
        long[] l = t.isFloat() ? null : target.longs();
        for (int row = 0; row < rows; row++) {
            for (int j = 0; j < per; j++) {
                int[] sIdx = TensorAssert.index(slice, j);
                int[] idx = new int[r];
                for (int q = 0; q < k; q++) idx[axes[q]] = (int) c.indices().longAt(row * k + q);
                for (int i = 0, p = 0; i < r; i++) if (!indexed[i]) idx[i] = sIdx[p++];
                int at = (int) Specs.flat(s, idx);
                int from = row * per + j;
                if (t.isFloat()) d[at] = add ? d[at] + updates.doubleAt(from) : updates.doubleAt(from);
                else l[at] = add ? Elements.wrap(t, l[at] + updates.longAt(from)) : updates.longAt(from);
            }
        }
        return t.isFloat() ? TensorCase.ofDoubles(t, s, d) : TensorCase.ofLongs(t, s, l);
    }
}
