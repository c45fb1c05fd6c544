package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

import java.util.Arrays;
import java.util.List;

/**
 * {@code dot}: Nx's dot/2 (scalar, vector and matrix cases, batched leading axes) and the general
 * dot with contraction and batch axes in any position and written form match the oracle, every
 * dtype (integers wrap; floats within the accumulation allowance), empty and zero-length
 * contractions included. Laws: the identity matrix is neutral on both sides; transposing a
 * product swaps and transposes its operands (exact for integers); dot/2 is the general dot on
 * the documented axes. Shapes that do not contract name {@code dot}.
 */
public interface DotContract extends EngineContract {

    /** Two operands of dot/2. */
    record DotCase(TensorCase a, TensorCase b) {
        @Override
        public String toString() { return "dot(" + a + ", " + b + ")"; }
    }

    /** Operands and axes of the general dot. */
    record GeneralDotCase(TensorCase a, int[] contractA, int[] batchA, TensorCase b, int[] contractB, int[] batchB) {
        /** Terms added for one output element: the product of the contracted sizes. */
        long terms() {
            long k = 1;
            for (int c : Axes.normalized(contractA, a.shape().rank())) k *= a.shape().dim(c);
            return k;
        }

        @Override
        public String toString() {
            return "dot(" + a + ", contract " + Arrays.toString(contractA) + ", batch " + Arrays.toString(batchA) + ", " + b
                    + ", contract " + Arrays.toString(contractB) + ", batch " + Arrays.toString(batchB) + ")";
        }
    }

    @Test
    @Covers("dot")
    default void dotOfTwoMatchesTheOracle() {
        Props.forAll(dotCases(Elements.Mix.BOUNDED), c -> {
            long k = c.a().shape().rank() == 0 || c.b().shape().rank() == 0 ? 1 : c.a().shape().dim(-1);
            Oracle.check(engine(), c, tolerance(c.a(), c.b(), k), List.of(c.a(), c.b()), in -> List.of(in.get(0).dot(in.get(1))));
        });
    }

    @Test
    @Covers("dot")
    default void generalDotMatchesTheOracle() {
        Props.forAll(generalDotCases(), c -> Oracle.check(engine(), c, tolerance(c.a(), c.b(), c.terms()), List.of(c.a(), c.b()),
                in -> List.of(in.get(0).dot(c.contractA(), c.batchA(), in.get(1), c.contractB(), c.batchB()))));
    }

    @Test
    @Covers("dot")
    default void dotOfTwoIsTheGeneralDotOnTheDocumentedAxes() {
        Props.forAll(dotCases(Elements.Mix.ALL), c -> {
            Tensor a = c.a().on(engine()), b = c.b().on(engine());
            int[] none = new int[0];
            boolean scalar = a.rank() == 0 || b.rank() == 0;
            int[] ca = scalar ? none : new int[] {-1};
            int[] cb = scalar ? none : new int[] {b.rank() == 1 ? 0 : b.rank() - 2};
            TensorAssert.assertClose(c + " = dot(a, " + Arrays.toString(ca) + ", [], b, " + Arrays.toString(cb) + ", [])",
                    a.dot(ca, none, b, cb, none), a.dot(b), Tolerance.EXACT);
        });
    }

    @Test
    @Covers({"dot", "eye"})
    default void theIdentityMatrixIsNeutral() {
        Gen<Shape> matrices = rs -> Shape.of(Axes.between(rs, 0, 6), Axes.between(rs, 0, 6));
        Props.forAll(Generators.tensors(Generators.dtypes(), matrices, Elements.Mix.FINITE), x -> {
            Tensor a = x.on(engine());
            DType t = x.dtype();
            // Finite values only: a NaN or Inf times the zeros of the identity would spread NaN.
            TensorAssert.assertClose(x + " dot eye", x, a.dot(Tensor.eye(x.shape().dim(1), t).to(engine())), Tolerance.ARITHMETIC);
            TensorAssert.assertClose("eye dot " + x, x, Tensor.eye(x.shape().dim(0), t).to(engine()).dot(a), Tolerance.ARITHMETIC);
        });
    }

    @Test
    @Covers({"dot", "transpose"})
    default void transposingADotSwapsAndTransposesItsOperands() {
        Gen<DotCase> cases = rs -> {
            DType t = Generators.integerTypes().generate(rs);
            int batch = Axes.coin(rs) ? Axes.between(rs, 1, 3) : 0;
            int m = Axes.between(rs, 0, 5), k = Axes.between(rs, 0, 5), n = Axes.between(rs, 0, 5);
            Shape sa = batch == 0 ? Shape.of(m, k) : Shape.of(batch, m, k);
            Shape sb = batch == 0 ? Shape.of(k, n) : Shape.of(batch, k, n);
            return new DotCase(Generators.values(t, sa, Elements.Mix.ALL).generate(rs), Generators.values(t, sb, Elements.Mix.ALL).generate(rs));
        };
        Props.forAll(cases, c -> {
            Tensor a = c.a().on(engine()), b = c.b().on(engine());
            if (a.rank() == 2) {
                TensorAssert.assertClose(c + ": dot(a, b)^T = dot(b^T, a^T)", a.dot(b).transpose(), b.transpose().dot(a.transpose()), Tolerance.EXACT);
                return;
            }
            int[] swap = {0, 2, 1};
            int[] batch = {0};
            Tensor ab = a.dot(new int[] {2}, batch, b, new int[] {1}, batch);
            Tensor ba = b.transpose(swap).dot(new int[] {2}, batch, a.transpose(swap), new int[] {1}, batch);
            TensorAssert.assertClose(c + ": batched dot(a, b)^T = dot(b^T, a^T)", ab.transpose(swap), ba, Tolerance.EXACT);
        });
    }

    @Test
    @Covers("dot")
    default void shapesThatDoNotContractNameDot() {
        Gen<int[]> sizes = rs -> new int[] {Axes.between(rs, 1, 4), Axes.between(rs, 1, 4), Axes.between(rs, 1, 4)};
        Props.forAll(sizes, d -> {
            int m = d[0], k = d[1], n = d[2];
            TensorCase a = Specs.zeros(DType.F32, Shape.of(m, k)), b = Specs.zeros(DType.F32, Shape.of(k + 1, n));
            TensorCase a3 = Specs.zeros(DType.S32, Shape.of(m, k, n)), b3 = Specs.zeros(DType.S32, Shape.of(m, k, n));
            int[] none = new int[0];
            Oracle.checkFails(engine(), "dot(" + a.shape() + ", " + b.shape() + ")", List.of(a, b), "dot",
                    in -> in.get(0).dot(in.get(1)), a.shape().toString(), b.shape().toString());
            Oracle.checkFails(engine(), "dot contracting [1] with []", List.of(a3, b3), "dot",
                    in -> in.get(0).dot(new int[] {1}, none, in.get(1), none, none));
            Oracle.checkFails(engine(), "dot batched on the left only", List.of(a3, b3), "dot",
                    in -> in.get(0).dot(new int[] {1}, new int[] {0}, in.get(1), new int[] {1}, none), "batched");
            Oracle.checkFails(engine(), "dot with batch axis [1]", List.of(a3, b3), "dot",
                    in -> in.get(0).dot(new int[] {2}, new int[] {1}, in.get(1), new int[] {2}, new int[] {1}), "[1]");
            Oracle.checkFails(engine(), "dot contracting axis 5", List.of(a3, b3), "dot",
                    in -> in.get(0).dot(new int[] {5}, none, in.get(1), new int[] {1}, none), "(5)");
            Oracle.checkFails(engine(), "dot contracting the batch axis", List.of(a3, b3), "dot",
                    in -> in.get(0).dot(new int[] {0}, new int[] {0}, in.get(1), new int[] {0}, new int[] {0}));
            if (engine() != Oracle.engine()) {
                Tensor here = a3.on(engine()), there = b3.on(Oracle.engine());
                Oracle.assertFailsNaming("dot", "dot of tensors on two engines", () -> here.dot(new int[] {1}, none, there, new int[] {1}, none));
            }
        });
    }

    // ---- generators -----------------------------------------------------------------------------

    /** Nx's dot/2 cases: a scalar with anything, [k]·[k], [.., k]·[k], [k]·[.., k, m], [.., k]·[.., k, m]; dtypes equal 3 in 4. */
    private static Gen<DotCase> dotCases(Elements.Mix mix) {
        return rs -> {
            DType ta = Generators.dtypesFavouringFastPaths().generate(rs);
            DType tb = Axes.oneIn(rs, 4) ? Generators.dtypes().generate(rs) : ta;
            int k = Axes.oneIn(rs, 8) ? 0 : Axes.between(rs, 1, 6);
            Shape sa, sb;
            switch (Axes.between(rs, 0, 4)) {
                case 0 -> {
                    Shape other = Shapes.upTo(30).generate(rs);
                    boolean left = Axes.coin(rs);
                    sa = left ? Shape.scalar() : other;
                    sb = left ? other : Shape.scalar();
                }
                case 1 -> {
                    sa = Shape.of(k);
                    sb = Shape.of(k);
                }
                case 2 -> {
                    sa = Shape.of(append(lead(rs), k));
                    sb = Shape.of(k);
                }
                case 3 -> {
                    sa = Shape.of(k);
                    sb = Shape.of(append(append(lead(rs), k), Axes.between(rs, 0, 4)));
                }
                default -> {
                    sa = Shape.of(append(lead(rs), k));
                    sb = Shape.of(append(append(lead(rs), k), Axes.between(rs, 0, 4)));
                }
            }
            return new DotCase(Generators.values(ta, sa, mix).generate(rs), Generators.values(tb, sb, mix).generate(rs));
        };
    }

    /**
     * 0 to 2 batch axes (leading on both sides), 0 to 2 contracted pairs and 0 to 2 free axes per
     * side, contracted and free axes shuffled on each side; axes written negative half of the time.
     */
    private static Gen<GeneralDotCase> generalDotCases() {
        return rs -> {
            DType ta = Generators.dtypesFavouringFastPaths().generate(rs);
            DType tb = Axes.oneIn(rs, 4) ? Generators.dtypes().generate(rs) : ta;
            int nb = Axes.between(rs, 0, 2), nc = Axes.between(rs, 0, 2);
            int[] batch = sizes(rs, nb, 2), contract = sizes(rs, nc, 3);
            int[] freeA = sizes(rs, Axes.between(rs, 0, 2), 3), freeB = sizes(rs, Axes.between(rs, 0, 2), 3);
            int[] ca = new int[nc], cb = new int[nc];
            Shape sa = layout(rs, batch, contract, freeA, ca);
            Shape sb = layout(rs, batch, contract, freeB, cb);
            int[] ba = written(rs, java.util.stream.IntStream.range(0, nb).toArray(), sa.rank());
            int[] bb = written(rs, java.util.stream.IntStream.range(0, nb).toArray(), sb.rank());
            return new GeneralDotCase(Generators.values(ta, sa, Elements.Mix.BOUNDED).generate(rs), written(rs, ca, sa.rank()), ba,
                    Generators.values(tb, sb, Elements.Mix.BOUNDED).generate(rs), written(rs, cb, sb.rank()), bb);
        };
    }

    /** Batch dims, then the contracted and free dims in a random order; {@code contractAt[j]} receives the position of contracted dim j. */
    private static Shape layout(RandomnessSource rs, int[] batch, int[] contract, int[] free, int[] contractAt) {
        int rest = contract.length + free.length;
        int[] order = Axes.shuffled(rs, rest);
        int[] dims = Arrays.copyOf(batch, batch.length + rest);
        for (int slot = 0; slot < rest; slot++) {
            int which = order[slot];
            int pos = batch.length + slot;
            if (which < contract.length) {
                dims[pos] = contract[which];
                contractAt[which] = pos;
            } else {
                dims[pos] = free[which - contract.length];
            }
        }
        return Shape.of(dims);
    }

    private static int[] sizes(RandomnessSource rs, int count, int max) {
        int[] d = new int[count];
        for (int i = 0; i < count; i++) d[i] = Axes.oneIn(rs, 12) ? 0 : Axes.between(rs, 1, max);
        return d;
    }

    private static int[] written(RandomnessSource rs, int[] axes, int rank) {
        return Arrays.stream(axes).map(a -> Axes.coin(rs) ? a - rank : a).toArray();
    }

    private static int[] lead(RandomnessSource rs) {
        int[] d = new int[Axes.between(rs, 0, 2)];
        for (int i = 0; i < d.length; i++) d[i] = Axes.between(rs, 0, 3);
        return d;
    }

    private static int[] append(int[] d, int v) {
        int[] out = Arrays.copyOf(d, d.length + 1);
        out[d.length] = v;
        return out;
    }

    /** Exact for integers; for floats the accumulation allowance of {@code k} products bounded by the largest operands. */
    private static Tolerance tolerance(TensorCase a, TensorCase b, long k) {
        DType t = DType.merge(a.dtype(), b.dtype());
        return Tolerance.accumulation(t, k, k * Specs.maxAbs(Specs.cast(a, t)) * Specs.maxAbs(Specs.cast(b, t)));
    }
}
