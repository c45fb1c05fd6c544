package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.op.WindowOp;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

import java.util.Arrays;
import java.util.List;

/**
 * Window reductions ({@code windowSum}, {@code windowProduct}, {@code windowMax}, {@code windowMin})
 * and window scatters ({@code windowScatterMax}, {@code windowScatterMin}) with random window sizes,
 * strides, padding ({@code VALID}, {@code SAME}, explicit) and window dilations match the oracle,
 * every dtype (sums within the accumulation allowance of the window size, products of powers of
 * two, max/min bit for bit but the sign of zero). Laws: a window of 1 with stride 1 sums to the
 * input; a window maximum is at least every element of its window and is one of them (a direct
 * loop in the kit); scattering ones adds up to the number of windows. A window of the wrong rank,
 * and a scatter source of the wrong shape, name the op.
 */
public interface WindowContract extends EngineContract {

    /** One window op on {@code x}; {@code lo}/{@code hi} are the padding as resolved (for the kit's own loops). */
    record WindowCase(TensorCase x, WindowOp op, int[] dims, int[] strides, int[] dilations, Padding padding, int[] lo, int[] hi) {
        WindowOptions options() { return WindowOptions.defaults().withStrides(written(strides)).withDilations(written(dilations)).withPadding(padding); }

        /** One value for every axis where they are all equal (Nx's integer form), else one per axis. */
        private static int[] written(int[] v) { return Arrays.stream(v).allMatch(e -> e == v[0]) ? new int[] {v[0]} : v; }


        long windowSize() {
            long n = 1;
            for (int d : dims) n *= d;
            return n;
        }

        /** The pooled shape (what the reductions give and the scatters take as source). */
        Shape outShape() {
            int[] out = new int[dims.length];
            for (int i = 0; i < dims.length; i++) {
                int eff = (dims[i] - 1) * dilations[i] + 1;
                int span = x.shape().dim(i) + lo[i] + hi[i] - eff;
                out[i] = span < 0 ? 0 : span / strides[i] + 1;
            }
            return Shape.of(out);
        }

        @Override
        public String toString() {
            return op.opName() + "(" + x + ", window " + Arrays.toString(dims) + ", strides " + Arrays.toString(strides)
                    + ", dilations " + Arrays.toString(dilations) + ", padding " + padding + ")";
        }
    }

    /** A scatter: the input, its source in the pooled shape and the weakly typed init value. */
    record ScatterCase(WindowCase w, TensorCase source, long init) {
        @Override
        public String toString() { return w + " source " + source + " init " + init; }
    }

    @Test
    @Covers({"windowSum", "windowProduct", "windowMax", "windowMin"})
    default void windowReductionsMatchTheOracle() {
        Gen<WindowCase> cases = rs -> {
            WindowOp op = pick(rs, WindowOp.WINDOW_SUM, WindowOp.WINDOW_PRODUCT, WindowOp.WINDOW_MAX, WindowOp.WINDOW_MIN);
            Elements.Mix mix = switch (op) {
                case WINDOW_SUM -> Elements.Mix.BOUNDED;
                case WINDOW_PRODUCT -> Elements.Mix.POWERS_OF_TWO;
                default -> Elements.Mix.ALL;
            };
            return windowCase(rs, op, Generators.dtypesFavouringFastPaths().generate(rs), mix, true);
        };
        Props.forAll(cases, c -> {
            DType out = c.x().dtype().isPred() && c.op() == WindowOp.WINDOW_SUM ? DType.U8 : c.x().dtype();
            Tolerance tol = switch (c.op()) {
                case WINDOW_SUM -> Tolerance.accumulation(out, c.windowSize(), c.windowSize() * Specs.maxAbs(c.x()));
                case WINDOW_PRODUCT -> Tolerance.ARITHMETIC;
                default -> Tolerance.SELECTION;
            };
            Oracle.check(engine(), c.toString(), c.x(), tol, t -> switch (c.op()) {
                case WINDOW_SUM -> t.windowSum(c.dims(), c.options());
                case WINDOW_PRODUCT -> t.windowProduct(c.dims(), c.options());
                case WINDOW_MAX -> t.windowMax(c.dims(), c.options());
                case WINDOW_MIN -> t.windowMin(c.dims(), c.options());
                case WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> throw new AssertionError("not a reduction");
            });
        });
    }

    @Test
    @Covers({"windowScatterMax", "windowScatterMin"})
    default void windowScattersMatchTheOracle() {
        Gen<ScatterCase> cases = rs -> {
            WindowOp op = pick(rs, WindowOp.WINDOW_SCATTER_MAX, WindowOp.WINDOW_SCATTER_MIN);
            DType t = Generators.oneOf(DType.F32, DType.F64, DType.S32, DType.S64, DType.F16, DType.BF16, DType.U8, DType.S16).generate(rs);
            WindowCase w = windowCase(rs, op, t, Elements.Mix.ALL, false);
            TensorCase source = Generators.values(t, w.outShape(), Elements.Mix.BOUNDED).generate(rs);
            return new ScatterCase(w, source, Axes.between(rs, -2, 2));
        };
        Props.forAll(cases, c -> {
            WindowCase w = c.w();
            Tolerance tol = Tolerance.accumulation(w.x().dtype(), w.windowSize() + 1, (w.windowSize() + 1) * (Specs.maxAbs(c.source()) + 2));
            Oracle.check(engine(), c, tol, List.of(w.x(), c.source()), in -> List.of(w.op() == WindowOp.WINDOW_SCATTER_MAX
                    ? in.get(0).windowScatterMax(in.get(1), c.init(), w.dims(), w.options())
                    : in.get(0).windowScatterMin(in.get(1), c.init(), w.dims(), w.options())));
        });
    }

    @Test
    @Covers("windowSum")
    default void aWindowOfOneWithStrideOneSumsToTheInput() {
        Props.forAll(Generators.tensors(Generators.numericTypes(), Shapes.any(), Elements.Mix.ALL), x -> {
            int[] ones = new int[x.shape().rank()];
            Arrays.fill(ones, 1);
            if (ones.length == 0) return;   // a window needs an axis
            TensorAssert.assertClose(x + " windowSum(window of 1s)", x, x.on(engine()).windowSum(ones), Tolerance.SELECTION);
        });
    }

    @Test
    @Covers("windowMax")
    default void aWindowMaximumIsAtLeastEveryElementOfItsWindow() {
        Gen<WindowCase> cases = rs -> windowCase(rs, WindowOp.WINDOW_MAX, Generators.numericTypes().generate(rs), Elements.Mix.ALL, true);
        Props.forAll(cases, c -> {
            TensorCase out = TensorCase.of(c.x().on(engine()).windowMax(c.dims(), c.options()));
            Assertions.assertEquals(c.outShape(), out.shape(), c + ": pooled shape");
            Shape in = c.x().shape();
            int rank = in.rank();
            for (int o = 0; o < out.size(); o++) {
                int[] oi = TensorAssert.index(out.shape(), o);
                double m = out.doubleAt(o);
                boolean nan = false, found = false, any = false;
                for (int w = 0; w < c.windowSize(); w++) {
                    int[] wi = TensorAssert.index(Shape.of(c.dims()), w);
                    int[] xi = new int[rank];
                    boolean inside = true;
                    for (int a = 0; a < rank; a++) {
                        xi[a] = oi[a] * c.strides()[a] + wi[a] * c.dilations()[a] - c.lo()[a];
                        inside &= xi[a] >= 0 && xi[a] < in.dim(a);
                    }
                    if (!inside) continue;
                    any = true;
                    double v = c.x().doubleAt((int) Specs.flat(in, xi));
                    if (Double.isNaN(v)) {
                        nan = true;
                        continue;
                    }
                    if (!(m >= v) && !Double.isNaN(m)) Assertions.fail(c + ": window max at " + Arrays.toString(oi) + " is " + m + " < element " + v + " at " + Arrays.toString(xi));
                    found |= m == v;
                }
                if (nan) Assertions.assertTrue(Double.isNaN(m), c + ": a window holding NaN at " + Arrays.toString(oi) + " gave " + m);
                else if (any) Assertions.assertTrue(found, c + ": window max at " + Arrays.toString(oi) + " is " + m + ", not an element of its window");
            }
        });
    }

    @Test
    @Covers("windowScatterMax")
    default void scatteringOnesAddsUpToTheNumberOfWindows() {
        Gen<WindowCase> cases = rs -> windowCase(rs, WindowOp.WINDOW_SCATTER_MAX,
                Generators.oneOf(DType.F32, DType.F64, DType.S32, DType.BF16).generate(rs), Elements.Mix.ALL, false);
        Props.forAll(cases, c -> {
            Shape pooled = c.outShape();
            Tensor ones = Tensor.full(pooled, c.x().dtype(), 1).to(engine());
            double[] scattered = c.x().on(engine()).windowScatterMax(ones, 0L, c.dims(), c.options()).toDoubleArray();
            double total = 0;
            for (double v : scattered) total += v;
            Assertions.assertEquals((double) pooled.size(), total, c + ": the scattered ones add up to the number of windows");
        });
    }

    @Test
    @Covers({"windowSum", "windowMax", "windowScatterMax"})
    default void windowsOfTheWrongRankNameTheOp() {
        Props.forAll(Generators.tensors(Generators.oneOf(DType.F32, DType.S32), Shapes.ofRank(2, 2, false), Elements.Mix.SMALL), x -> {
            int[] three = {1, 1, 1};
            Oracle.checkFails(engine(), x + " windowSum(window [1, 1, 1])", List.of(x), "windowSum",
                    in -> in.get(0).windowSum(three), "rank");
            Oracle.checkFails(engine(), x + " windowMax(window [0, 1])", List.of(x), "windowMax",
                    in -> in.get(0).windowMax(new int[] {0, 1}));
            TensorCase source = Specs.zeros(x.dtype(), Shape.of(x.shape().dim(0) + 1, x.shape().dim(1) + 1));
            Oracle.checkFails(engine(), x + " windowScatterMax(source " + source.shape() + ")", List.of(x, source), "windowScatterMax",
                    in -> in.get(0).windowScatterMax(in.get(1), 0L, new int[] {1, 1}, WindowOptions.defaults()), "source");
        });
    }

    // ---- generators -----------------------------------------------------------------------------

    /**
     * Rank 1 to 3, sizes up to 40, 12 and 5 (past vector widths and parallel thresholds); windows of
     * up to 8, 4 and 4 per axis that fit the input; strides 1 to 3 (one for all
     * axes or one per axis); dilations 1 or 2 where {@code dilate}; padding VALID, SAME or explicit
     * pairs below the window size (so no window is all padding).
     */
    private static WindowCase windowCase(RandomnessSource rs, WindowOp op, DType t, Elements.Mix mix, boolean dilate) {
        int rank = Axes.between(rs, 1, 3);
        int[] shape = new int[rank], dims = new int[rank], strides = new int[rank], dil = new int[rank], lo = new int[rank], hi = new int[rank];
        int mode = Axes.between(rs, 0, 2);
        boolean oneStride = Axes.coin(rs);
        int stride = Axes.between(rs, 1, 3);
        for (int a = 0; a < rank; a++) {
            shape[a] = Axes.between(rs, 1, rank == 3 ? 5 : rank == 2 ? 12 : 40);
            dil[a] = dilate && Axes.oneIn(rs, 3) ? 2 : 1;
            strides[a] = oneStride ? stride : Axes.between(rs, 1, 3);
            int maxEff = shape[a];
            dims[a] = Axes.between(rs, 1, Math.min(rank == 1 ? 8 : 4, Math.max(1, (maxEff - 1) / dil[a] + 1)));
            int eff = (dims[a] - 1) * dil[a] + 1;
            switch (mode) {
                case 0 -> { }
                case 1 -> {
                    lo[a] = (eff - 1) / 2;
                    hi[a] = eff - 1 - lo[a];
                }
                default -> {
                    lo[a] = Axes.between(rs, 0, Math.min(2, dims[a] - 1));
                    hi[a] = Axes.between(rs, 0, Math.min(2, dims[a] - 1));
                }
            }
        }
        Padding padding = switch (mode) {
            case 0 -> Padding.VALID;
            case 1 -> Padding.SAME;
            default -> {
                int[][] pairs = new int[rank][];
                for (int a = 0; a < rank; a++) pairs[a] = new int[] {lo[a], hi[a]};
                yield Padding.explicit(pairs);
            }
        };
        TensorCase x = Generators.values(t, Shape.of(shape), mix).generate(rs);
        return new WindowCase(x, op, dims, strides, dil, padding, lo, hi);
    }

    private static WindowOp pick(RandomnessSource rs, WindowOp... ops) { return ops[Axes.between(rs, 0, ops.length - 1)]; }
}
