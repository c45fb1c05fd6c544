package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.ReduceOp;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.Arrays;
import java.util.List;

/**
 * Reductions: {@code sum}, {@code product}, {@code max}, {@code min}, {@code all}, {@code any},
 * {@code mean}, {@code logSumExp} over any set of axes (negative, in any order, {@code keepAxes},
 * or every axis), and {@code argmax}/{@code argmin} along one axis or the flattened tensor, with
 * both tie breaks — every dtype, empty axes (the identity) and rank 0 included. Laws: reducing
 * every axis at once equals reducing them one at a time; reducing a broadcast tensor equals
 * reducing the original (sums scaled by the broadcast factor, exact for integers). Bad axes
 * name the reduction the user called.
 */
public interface ReductionContract extends EngineContract {

    /** A tensor, the axes to reduce ({@code null}: every axis, the no-argument form when not keeping them) and keepAxes. */
    record ReduceCase(TensorCase x, int[] axes, boolean keepAxes) {
        /** How many input elements make one output element. */
        long terms() {
            if (axes == null) return x.size();
            long n = 1;
            for (int a : Axes.normalized(axes, x.shape().rank())) n *= x.shape().dim(a);
            return n;
        }

        @Override
        public String toString() {
            return x + " over " + (axes == null ? "every axis" : "axes " + Arrays.toString(axes)) + (keepAxes ? ", keepAxes" : "");
        }
    }

    /** A tensor, one axis ({@code null}: the flattened tensor), keepAxis and the tie break. */
    record ArgCase(TensorCase x, Integer axis, boolean keepAxis, boolean tieBreakHigh) {
        @Override
        public String toString() {
            return x + (axis == null ? " flattened" : " along axis " + axis + (keepAxis ? ", keepAxis" : "")
                    + (tieBreakHigh ? ", tie break high" : ""));
        }
    }

    /** A tensor and every one of its axes, in the order to reduce them one at a time. */
    record OrderCase(TensorCase x, int[] order) {
        @Override
        public String toString() { return x + " one axis at a time in the order " + Arrays.toString(order); }
    }

    /** A tensor and a shape it broadcasts to (NumPy rules). */
    record BroadcastCase(TensorCase x, Shape to) {
        @Override
        public String toString() { return x + " broadcast to " + to; }
    }

    @Test
    @Covers("sum")
    default void sumMatchesTheOracle() {
        Props.forAll(reduceCases(Elements.Mix.BOUNDED, Shapes.any()), c0 -> {
            for (ReduceCase c : layouts(c0)) {
                Oracle.check(engine(), c.toString(), c.x(), Tolerance.accumulation(ReduceOp.SUM.resultType(c.x().dtype()), c.terms(),
                        Specs.sumAbs(c.x())), t -> reduce(ReduceOp.SUM, t, c.axes(), c.keepAxes()));
            }
        });
    }

    @Test
    @Covers("product")
    default void productMatchesTheOracle() {
        Props.forAll(reduceCases(Elements.Mix.POWERS_OF_TWO, Shapes.upTo(100)), c0 -> {
            for (ReduceCase c : layouts(c0)) {
                Oracle.check(engine(), c.toString(), c.x(), Tolerance.ARITHMETIC, t -> reduce(ReduceOp.PRODUCT, t, c.axes(), c.keepAxes()));
            }
        });
    }

    @Test
    @Covers({"ReduceOp.max", "ReduceOp.min"})
    default void maxAndMinMatchTheOracle() {
        Props.forAll(reduceCases(Elements.Mix.ALL, Shapes.any()), c0 -> {
            for (ReduceCase c : layouts(c0)) {
                for (ReduceOp op : List.of(ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN)) {
                    Oracle.check(engine(), c + ": " + op.opName(), c.x(), Tolerance.SELECTION, t -> reduce(op, t, c.axes(), c.keepAxes()));
                }
            }
        });
    }

    @Test
    @Covers({"all", "any"})
    default void allAndAnyMatchTheOracle() {
        Props.forAll(reduceCases(Elements.Mix.ALL, Shapes.any()), c0 -> {
            for (ReduceCase c : layouts(c0)) {
                for (ReduceOp op : List.of(ReduceOp.ALL, ReduceOp.ANY)) {
                    Oracle.check(engine(), c + ": " + op.opName(), c.x(), Tolerance.EXACT, t -> reduce(op, t, c.axes(), c.keepAxes()));
                }
            }
        });
    }

    @Test
    @Covers({"argmax", "argmin"})
    default void argmaxAndArgminMatchTheOracle() {
        Props.forAll(argCases(), c0 -> {
            List<ArgCase> layouts = c0.x().shape().rank() == 0 ? List.of(c0) : List.of(c0,
                    new ArgCase(c0.x(), -1, c0.keepAxis(), c0.tieBreakHigh()), new ArgCase(c0.x(), 0, !c0.keepAxis(), !c0.tieBreakHigh()));
            for (ArgCase c : layouts) {
                for (ReduceOp op : List.of(ReduceOp.ARGMAX, ReduceOp.ARGMIN)) {
                    Oracle.check(engine(), c + ": " + op.opName(), c.x(), Tolerance.EXACT,
                            t -> arg(op, t, c.axis(), c.keepAxis(), c.tieBreakHigh()));
                }
            }
        });
    }

    @Test
    @Covers("mean")
    default void meanMatchesTheOracle() {
        Props.assumeBuilt(ReduceOp.MEAN);
        Props.forAll(reduceCases(Elements.Mix.BOUNDED, Shapes.any()), c0 -> {
            for (ReduceCase c : layouts(c0)) {
                Oracle.check(engine(), c + ": mean", c.x(), Tolerance.accumulation(ReduceOp.MEAN.resultType(c.x().dtype()), c.terms(),
                        Specs.sumAbs(c.x())), t -> reduce(ReduceOp.MEAN, t, c.axes(), c.keepAxes()));
            }
        });
    }

    @Test
    @Covers("logSumExp")
    default void logSumExpMatchesTheOracle() {
        Props.assumeBuilt(ReduceOp.LOG_SUM_EXP);
        Props.forAll(reduceCases(Elements.Mix.ALL, Shapes.any()), c0 -> layouts(c0).forEach(c -> {
            DType f = ReduceOp.LOG_SUM_EXP.resultType(c.x().dtype());
            // exp and log are each within a few ulps of f; the sum of positive terms adds a relative error of terms·u.
            double unit = Math.scalb(1.0, -FloatFormats.mantissaBits(f));
            double allowance = 4 * unit * (2 + Math.log(c.terms() + 1.0)) + 2.0 * c.terms() * (f == DType.F64 ? 0x1p-53 : 0x1p-24);
            Oracle.check(engine(), c + ": logSumExp", c.x(), Tolerance.TRANSCENDENTAL.withAbsolute(allowance),
                    t -> reduce(ReduceOp.LOG_SUM_EXP, t, c.axes(), c.keepAxes()));
        }));
    }

    @Test
    @Covers({"sum", "product", "ReduceOp.max", "ReduceOp.min", "all", "any"})
    default void reducingEveryAxisAtOnceEqualsOneAxisAtATime() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypesFavouringFastPaths(), Shapes.upTo(100), Elements.Mix.ALL);
        Gen<OrderCase> cases = rs -> {
            TensorCase x = xs.generate(rs);
            return new OrderCase(x, Axes.permutation(x.shape().rank()).generate(rs));
        };
        Props.forAll(cases, c -> {
            boolean exactSums = !c.x().dtype().isFloat(); // float sums and products depend on the order
            for (ReduceOp op : List.of(ReduceOp.SUM, ReduceOp.PRODUCT, ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN, ReduceOp.ALL, ReduceOp.ANY)) {
                if ((op == ReduceOp.SUM || op == ReduceOp.PRODUCT) && !exactSums) continue;
                Tensor t = c.x().on(engine());
                Tensor whole = reduce(op, t, null, false);
                Tensor stepwise = reduce(op, t, new int[0], true); // over no axes: only the cast to the output type
                for (int a : c.order()) stepwise = reduce(op, stepwise, new int[] {a}, true);
                TensorAssert.assertClose(c + ": " + op.opName(), whole, stepwise.reshape(Shape.scalar()), Tolerance.SELECTION);
            }
        });
    }

    @Test
    @Covers({"sum", "ReduceOp.max", "ReduceOp.min", "all", "any"})
    default void reducingABroadcastTensorScalesOnlyTheSum() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypesFavouringFastPaths(), Shapes.upTo(60), Elements.Mix.ALL);
        Gen<BroadcastCase> cases = rs -> {
            TensorCase x = xs.generate(rs);
            int lead = Axes.between(rs, 0, 2);
            int[] to = new int[lead + x.shape().rank()];
            for (int i = 0; i < lead; i++) to[i] = Axes.oneIn(rs, 10) ? 0 : Axes.between(rs, 1, 3);
            for (int i = 0; i < x.shape().rank(); i++) {
                int d = x.shape().dim(i);
                to[lead + i] = d == 1 ? Axes.between(rs, 1, 4) : d;
            }
            return new BroadcastCase(x, Shape.of(to));
        };
        Props.forAll(cases, c -> {
            Tensor t = c.x().on(engine());
            Tensor b = t.broadcast(c.to());
            if (!c.x().dtype().isFloat()) {
                DType st = ReduceOp.SUM.resultType(c.x().dtype());
                long factor = c.x().size() == 0 ? 0 : c.to().size() / c.x().size();
                long expected = Elements.wrap(st, TensorCase.of(t.sum()).longAt(0) * factor);
                TensorAssert.assertSame(c + ": sum = sum of the original times " + factor, TensorCase.ofLongs(st, Shape.scalar(), expected), b.sum());
            }
            if (c.to().size() == 0 && c.x().size() > 0) return; // every element was dropped: the identity, checked elsewhere
            for (ReduceOp op : List.of(ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN, ReduceOp.ALL, ReduceOp.ANY)) {
                TensorAssert.assertClose(c + ": " + op.opName() + " is unchanged", reduce(op, t, null, false), reduce(op, b, null, false), Tolerance.SELECTION);
            }
        });
    }

    @Test
    @Covers({"sum", "product", "ReduceOp.max", "ReduceOp.min", "all", "any", "mean", "logSumExp"})
    default void reductionsNameThemselvesForBadAxes() {
        Props.forAll(badAxesCases(), c -> {
            String shape = c.x().shape().toString();
            for (ReduceOp op : List.of(ReduceOp.SUM, ReduceOp.PRODUCT, ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN, ReduceOp.ALL,
                    ReduceOp.ANY, ReduceOp.MEAN, ReduceOp.LOG_SUM_EXP)) {
                Oracle.checkFails(engine(), c, List.of(c.x()), op.opName(), in -> reduce(op, in.get(0), c.axes(), c.keepAxes()), shape);
            }
        });
    }

    @Test
    @Covers({"argmax", "argmin"})
    default void argReductionsNameThemselvesForBadAxesAndEmptyInputs() {
        Gen<TensorCase> xs = Generators.tensors(Generators.numericTypes(), Shapes.ofRank(0, 3, true, 24), Elements.Mix.SMALL);
        Props.forAll(xs, x -> {
            int r = x.shape().rank();
            for (ReduceOp op : List.of(ReduceOp.ARGMAX, ReduceOp.ARGMIN)) {
                for (int bad : new int[] {r, -r - 1, r + 5}) {
                    Oracle.checkFails(engine(), x + " along axis " + bad, List.of(x), op.opName(),
                            in -> arg(op, in.get(0), bad, false, false), "(" + bad + ")", x.shape().toString());
                }
                if (x.size() == 0) {
                    Oracle.checkFails(engine(), x + " flattened", List.of(x), op.opName(), in -> arg(op, in.get(0), null, false, false));
                }
            }
        });
    }

    // ---- generators and calls -----------------------------------------------------------------

    /**
     * The case and, for rank 1 or more, the same tensor reduced over its last axis and over its
     * first axis (the row and column shapes of fast kernels), so each example checks three layouts.
     */
    private static List<ReduceCase> layouts(ReduceCase c) {
        if (c.x().shape().rank() == 0) return List.of(c);
        return List.of(c, new ReduceCase(c.x(), new int[] {-1}, c.keepAxes()), new ReduceCase(c.x(), new int[] {0}, !c.keepAxes()));
    }

    /** Any dtype (the fast-path types half of the time) with values of {@code mix}; every axis (1 in 4), or a random subset in random order and written form; keepAxes or not. */
    static Gen<ReduceCase> reduceCases(Elements.Mix mix, Gen<Shape> shapes) {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypesFavouringFastPaths(), shapes, mix);
        return rs -> {
            TensorCase x = xs.generate(rs);
            int[] axes = Axes.oneIn(rs, 4) ? null : Axes.subset(x.shape().rank()).generate(rs);
            return new ReduceCase(x, axes, Axes.coin(rs));
        };
    }

    /** Any dtype; values with many ties (small values) half of the time; flattened (1 in 4) or along one axis. */
    private static Gen<ArgCase> argCases() {
        Gen<TensorCase> wide = Generators.tensors(Generators.dtypesFavouringFastPaths(), Shapes.any(), Elements.Mix.ALL);
        Gen<TensorCase> ties = Generators.tensors(Generators.dtypesFavouringFastPaths(), Shapes.any(), Elements.Mix.SMALL);
        return rs -> {
            TensorCase x = (Axes.coin(rs) ? wide : ties).generate(rs);
            Integer axis = Axes.oneIn(rs, 4) ? null : Axes.one(x.shape().rank()).generate(rs);
            return new ArgCase(x, axis, Axes.coin(rs), Axes.coin(rs));
        };
    }

    /** Valid axes plus one out of range (either sign) or a repeated axis (written the other way half of the time). */
    private static Gen<ReduceCase> badAxesCases() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(0, 4, true, 24), Elements.Mix.SMALL);
        return rs -> {
            TensorCase x = xs.generate(rs);
            int r = x.shape().rank();
            int[] valid = Axes.subset(r).generate(rs);
            int[] axes = Arrays.copyOf(valid, valid.length + 1);
            if (valid.length > 0 && Axes.coin(rs)) {
                int again = valid[Axes.between(rs, 0, valid.length - 1)];
                axes[valid.length] = Axes.coin(rs) ? again : (again < 0 ? again + r : again - r);
            } else {
                axes[valid.length] = Axes.coin(rs) ? r + Axes.between(rs, 0, 3) : -r - 1 - Axes.between(rs, 0, 3);
            }
            int[] shuffled = axes.clone();
            int[] order = Axes.shuffled(rs, axes.length);
            for (int i = 0; i < axes.length; i++) shuffled[i] = axes[order[i]];
            return new ReduceCase(x, shuffled, Axes.coin(rs));
        };
    }

    /** Calls the reduction's {@code Tensor} method: no arguments for every axis without keepAxes, else {@code (axes)} or {@code (axes, true)}. */
    static Tensor reduce(ReduceOp op, Tensor t, int[] axes, boolean keep) {
        boolean plain = axes == null && !keep;
        return switch (op) {
            case SUM -> plain ? t.sum() : keep ? t.sum(axes, true) : t.sum(axes);
            case PRODUCT -> plain ? t.product() : keep ? t.product(axes, true) : t.product(axes);
            case REDUCE_MAX -> plain ? t.max() : keep ? t.max(axes, true) : t.max(axes);
            case REDUCE_MIN -> plain ? t.min() : keep ? t.min(axes, true) : t.min(axes);
            case ALL -> plain ? t.all() : keep ? t.all(axes, true) : t.all(axes);
            case ANY -> plain ? t.any() : keep ? t.any(axes, true) : t.any(axes);
            case MEAN -> plain ? t.mean() : keep ? t.mean(axes, true) : t.mean(axes);
            case LOG_SUM_EXP -> plain ? t.logSumExp() : keep ? t.logSumExp(axes, true) : t.logSumExp(axes);
            case ARGMAX, ARGMIN -> throw new IllegalArgumentException(op.opName() + " takes one axis: use arg(...)");
        };
    }

    /** Calls {@code argmax}/{@code argmin}: flattened, {@code (axis)}, or {@code (axis, keepAxis, tieBreakHigh)}. */
    static Tensor arg(ReduceOp op, Tensor t, Integer axis, boolean keep, boolean high) {
        boolean max = op == ReduceOp.ARGMAX;
        if (axis == null) return max ? t.argmax() : t.argmin();
        if (!keep && !high) return max ? t.argmax(axis) : t.argmin(axis);
        return max ? t.argmax(axis, keep, high) : t.argmin(axis, keep, high);
    }
}
