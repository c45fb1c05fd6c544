package dev.jburn.conformance;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Movement ops that rearrange one tensor: {@code transpose}, {@code squeeze}, {@code newAxis},
 * {@code reverse} and {@code tile} match the oracle and their index rules, every dtype, rank 0
 * to 4, empty axes. Laws: transposing by a permutation and then by its inverse, reversing
 * twice, and squeezing a new axis are the identity; tiling is concatenating copies. Bad
 * arguments name the op the user called.
 */
public interface MovementContract extends EngineContract {

    /** A tensor and a permutation of its axes ({@code null}: the no-argument form, which reverses them). */
    record TransposeCase(TensorCase x, int[] perm) {
        @Override
        public String toString() { return x + " transposed by " + (perm == null ? "default" : Arrays.toString(perm)); }
    }

    /** A tensor and the axes to act on ({@code null}: the no-argument form). */
    record AxesCase(TensorCase x, int[] axes) {
        @Override
        public String toString() { return x + " on axes " + (axes == null ? "default" : Arrays.toString(axes)); }
    }

    /** A tensor and one axis. */
    record AxisCase(TensorCase x, int axis) {
        @Override
        public String toString() { return x + " at axis " + axis; }
    }

    @Test
    @Covers("transpose")
    default void transposeMatchesTheOracleAndTheIndexRule() {
        Props.forAll(transposeCases(), c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> transpose(t, c.perm()));
            int r = c.x().shape().rank();
            int[] p = c.perm() == null ? reversedAxes(r) : Axes.normalized(c.perm(), r);
            int[] in = c.x().shape().dims();
            int[] out = new int[r];
            for (int i = 0; i < r; i++) out[i] = in[p[i]];
            TensorCase spec = Specs.pick(c.x(), Shape.of(out), idx -> {
                int[] src = new int[r];
                for (int i = 0; i < r; i++) src[p[i]] = idx[i];
                return Specs.flat(c.x().shape(), src);
            });
            TensorAssert.assertSame(c + ": out[i] = x[i permuted]", spec, transpose(c.x().on(engine()), c.perm()));
        });
    }

    @Test
    @Covers("transpose")
    default void transposingBackIsTheIdentity() {
        Props.forAll(transposeCases(), c -> {
            Tensor t = c.x().on(engine());
            int r = c.x().shape().rank();
            int[] p = c.perm() == null ? reversedAxes(r) : c.perm();
            TensorAssert.assertSame(c + ", then by the inverse " + Arrays.toString(Axes.inverse(p)), c.x(),
                    transpose(t, c.perm()).transpose(Axes.inverse(p)));
        });
    }

    @Test
    @Covers("squeeze")
    default void squeezeMatchesTheOracleAndDropsSizeOneAxes() {
        Gen<Shape> shapes = rs -> {
            int[] d = new int[Axes.between(rs, 0, Shapes.MAX_RANK)];
            for (int i = 0; i < d.length; i++) d[i] = Axes.coin(rs) ? 1 : Axes.between(rs, 0, 5);
            return Shape.of(d);
        };
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), shapes, Elements.Mix.ALL);
        Gen<AxesCase> cases = rs -> {
            TensorCase x = xs.generate(rs);
            if (Axes.oneIn(rs, 3)) return new AxesCase(x, null);
            int r = x.shape().rank();
            List<Integer> ones = new ArrayList<>();
            for (int i : Axes.shuffled(rs, r)) if (x.shape().dim(i) == 1) ones.add(Axes.coin(rs) ? i : i - r);
            return new AxesCase(x, ones.subList(0, Axes.between(rs, 0, ones.size())).stream().mapToInt(Integer::intValue).toArray());
        };
        Props.forAll(cases, c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> squeeze(t, c.axes()));
            int r = c.x().shape().rank();
            boolean[] drop = new boolean[r];
            if (c.axes() == null) for (int i = 0; i < r; i++) drop[i] = c.x().shape().dim(i) == 1;
            else for (int a : Axes.normalized(c.axes(), r)) drop[a] = true;
            Shape out = Shape.of(java.util.stream.IntStream.range(0, r).filter(i -> !drop[i]).map(c.x().shape()::dim).toArray());
            TensorAssert.assertSame(c + ": the size-1 axes are gone", c.x().withShape(out), squeeze(c.x().on(engine()), c.axes()));
        });
    }

    @Test
    @Covers({"newAxis", "squeeze"})
    default void newAxisInsertsASizeOneAxisThatSqueezeRemoves() {
        Gen<TensorCase> xs = Generators.tensors();
        Gen<AxisCase> cases = rs -> {
            TensorCase x = xs.generate(rs);
            int r = x.shape().rank();
            return new AxisCase(x, Axes.between(rs, -r - 1, r));
        };
        Props.forAll(cases, c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> t.newAxis(c.axis()));
            int r = c.x().shape().rank();
            int a = c.axis() < 0 ? c.axis() + r + 1 : c.axis();
            List<Integer> dims = new ArrayList<>(Arrays.stream(c.x().shape().dims()).boxed().toList());
            dims.add(a, 1);
            Shape out = Shape.of(dims.stream().mapToInt(Integer::intValue).toArray());
            Tensor y = c.x().on(engine()).newAxis(c.axis());
            TensorAssert.assertSame(c + ": a size-1 axis at " + a, c.x().withShape(out), y);
            TensorAssert.assertSame(c + ", then squeeze(" + a + ")", c.x(), y.squeeze(a));
        });
    }

    @Test
    @Covers("reverse")
    default void reverseMatchesTheOracleAndTheIndexRule() {
        Props.forAll(reverseCases(), c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> reverse(t, c.axes()));
            Shape s = c.x().shape();
            int[] axes = c.axes() == null ? s.allAxes() : Axes.normalized(c.axes(), s.rank());
            TensorCase spec = Specs.pick(c.x(), s, idx -> {
                int[] src = idx.clone();
                for (int a : axes) src[a] = s.dim(a) - 1 - idx[a];
                return Specs.flat(s, src);
            });
            TensorAssert.assertSame(c + ": out[i] = x[i mirrored on the axes]", spec, reverse(c.x().on(engine()), c.axes()));
        });
    }

    @Test
    @Covers("reverse")
    default void reversingTwiceIsTheIdentity() {
        Props.forAll(reverseCases(), c -> TensorAssert.assertSame(c + ", twice", c.x(),
                reverse(reverse(c.x().on(engine()), c.axes()), c.axes())));
    }

    @Test
    @Covers("tile")
    default void tileMatchesTheOracleAndTheIndexRule() {
        Props.forAll(tileCases(0), c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> t.tile(c.axes()));
            int[] dims = tiledDims(c.x().shape(), c.axes().length);
            int[] reps = leftPadded(c.axes(), dims.length);
            int[] out = new int[dims.length];
            for (int i = 0; i < out.length; i++) out[i] = dims[i] * reps[i];
            Shape padded = Shape.of(dims);
            TensorCase spec = Specs.pick(c.x(), Shape.of(out), idx -> {
                int[] src = new int[idx.length];
                for (int i = 0; i < idx.length; i++) src[i] = idx[i] % dims[i];
                return Specs.flat(padded, src);
            });
            TensorAssert.assertSame(c + ": out[i] = x[i mod dims]", spec, c.x().on(engine()).tile(c.axes()));
        });
    }

    @Test
    @Covers({"tile", "concatenate"})
    default void tilingIsConcatenatingCopies() {
        Props.forAll(tileCases(1), c -> {
            Tensor t = c.x().on(engine());
            int[] dims = tiledDims(c.x().shape(), c.axes().length);
            int[] reps = leftPadded(c.axes(), dims.length);
            Tensor expected = t.reshape(Shape.of(dims));
            for (int i = 0; i < dims.length; i++) expected = Tensor.concatenate(Collections.nCopies(reps[i], expected), i);
            TensorAssert.assertClose(c + ": copies concatenated axis by axis", expected, t.tile(c.axes()), Tolerance.EXACT);
        });
    }

    @Test
    @Covers({"transpose", "squeeze", "newAxis", "reverse", "tile"})
    default void movementOpsNameThemselvesForBadArguments() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(0, 3, false, 24), Elements.Mix.SMALL);
        Props.forAll(xs, x -> {
            int r = x.shape().rank();
            String shape = x.shape().toString();
            List<TensorCase> in = List.of(x);
            int[] tooLong = Arrays.copyOf(x.shape().allAxes(), r + 1);
            tooLong[r] = r;
            Oracle.checkFails(engine(), x + " transpose" + Arrays.toString(tooLong), in, "transpose", t -> t.get(0).transpose(tooLong), shape);
            if (r >= 2) {
                int[] twice = x.shape().allAxes();
                twice[1] = twice[0] - r; // axis 0 written twice
                Oracle.checkFails(engine(), x + " transpose" + Arrays.toString(twice), in, "transpose", t -> t.get(0).transpose(twice), shape);
            }
            for (int a = 0; a < r; a++) {
                if (x.shape().dim(a) == 1) continue;
                int axis = a;
                Oracle.checkFails(engine(), x + " squeeze(" + a + ")", in, "squeeze", t -> t.get(0).squeeze(axis), shape);
            }
            for (int bad : new int[] {r + 1, -r - 2}) {
                Oracle.checkFails(engine(), x + " newAxis(" + bad + ")", in, "newAxis", t -> t.get(0).newAxis(bad), "(" + bad + ")", shape);
                Oracle.checkFails(engine(), x + " reverse(" + (bad - 1) + ")", in, "reverse", t -> t.get(0).reverse(bad - 1), "(" + (bad - 1) + ")");
            }
            int[] reps = new int[r + 1];
            Arrays.fill(reps, 2);
            reps[r / 2] = -1;
            Oracle.checkFails(engine(), x + " tile" + Arrays.toString(reps), in, "tile", t -> t.get(0).tile(reps), Arrays.toString(reps));
        });
    }

    // ---- generators and calls -----------------------------------------------------------------

    /** Any tensor and a permutation of its axes in random written form; the no-argument form 1 in 5. */
    private static Gen<TransposeCase> transposeCases() {
        Gen<TensorCase> xs = Generators.tensors();
        return rs -> {
            TensorCase x = xs.generate(rs);
            return new TransposeCase(x, Axes.oneIn(rs, 5) ? null : Axes.permutation(x.shape().rank()).generate(rs));
        };
    }

    /** Any tensor and a subset of its axes; the no-argument form (every axis) 1 in 5. */
    private static Gen<AxesCase> reverseCases() {
        Gen<TensorCase> xs = Generators.tensors();
        return rs -> {
            TensorCase x = xs.generate(rs);
            return new AxesCase(x, Axes.oneIn(rs, 5) ? null : Axes.subset(x.shape().rank()).generate(rs));
        };
    }

    /** Small tensors and 0 to rank + 2 repetitions, each {@code minRep} to 3 (the "axes" of the case). */
    private static Gen<AxesCase> tileCases(int minRep) {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.upTo(40), Elements.Mix.ALL);
        return rs -> {
            TensorCase x = xs.generate(rs);
            int[] reps = new int[Axes.between(rs, 0, Math.min(x.shape().rank() + 2, 5))];
            for (int i = 0; i < reps.length; i++) reps[i] = Axes.between(rs, minRep, 3);
            return new AxesCase(x, reps);
        };
    }

    private static Tensor transpose(Tensor t, int[] perm) { return perm == null ? t.transpose() : t.transpose(perm); }

    private static Tensor squeeze(Tensor t, int[] axes) { return axes == null ? t.squeeze() : t.squeeze(axes); }

    private static Tensor reverse(Tensor t, int[] axes) { return axes == null ? t.reverse() : t.reverse(axes); }

    private static int[] reversedAxes(int rank) {
        int[] p = new int[rank];
        for (int i = 0; i < rank; i++) p[i] = rank - 1 - i;
        return p;
    }

    /** Nx tile: the shape left-padded with 1s to the length of the repetitions. */
    private static int[] tiledDims(Shape s, int repCount) {
        int r = Math.max(repCount, s.rank());
        int[] d = new int[r];
        Arrays.fill(d, 1);
        System.arraycopy(s.dims(), 0, d, r - s.rank(), s.rank());
        return d;
    }

    /** Nx tile: the repetitions left-padded with 1s to {@code rank}. */
    private static int[] leftPadded(int[] reps, int rank) {
        int[] p = new int[rank];
        Arrays.fill(p, 1);
        System.arraycopy(reps, 0, p, rank - reps.length, reps.length);
        return p;
    }
}
