package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.List;

/**
 * Scans: {@code cumulativeSum}, {@code cumulativeProduct}, {@code cumulativeMax} and
 * {@code cumulativeMin} along any axis (negative too), forwards and in reverse, every dtype
 * ({@code PRED} sums and products count in U8). Laws: the last running value is the reduction
 * of the axis (exact for integers, and for max/min of every dtype); a reverse scan is the
 * reversed scan of the reversed tensor. A bad axis names the scan the user called.
 */
public interface ScanContract extends EngineContract {

    /** A tensor, the axis to scan along and the direction. */
    record ScanCase(TensorCase x, int axis, boolean reverse) {
        /** Length of the scanned axis (the most terms one output element adds). */
        long terms() {
            return x.shape().rank() == 0 ? 1 : x.shape().dim(axis);
        }

        @Override
        public String toString() { return x + " along axis " + axis + (reverse ? ", reverse" : ""); }
    }

    @Test
    @Covers("cumulativeSum")
    default void cumulativeSumMatchesTheOracle() {
        Props.forAll(scanCases(Generators.dtypesFavouringFastPaths(), Elements.Mix.BOUNDED, Shapes.any()), c -> Oracle.check(engine(), c.toString(), c.x(),
                Tolerance.accumulation(scanType(CumulativeOp.CUMULATIVE_SUM, c.x().dtype()), c.terms(), Specs.sumAbs(c.x())),
                t -> scan(CumulativeOp.CUMULATIVE_SUM, t, c.axis(), c.reverse())));
    }

    @Test
    @Covers("cumulativeProduct")
    default void cumulativeProductMatchesTheOracle() {
        Props.forAll(scanCases(Generators.dtypesFavouringFastPaths(), Elements.Mix.POWERS_OF_TWO, Shapes.upTo(100)), c -> Oracle.check(engine(), c.toString(),
                c.x(), Tolerance.ARITHMETIC, t -> scan(CumulativeOp.CUMULATIVE_PRODUCT, t, c.axis(), c.reverse())));
    }

    @Test
    @Covers({"cumulativeMax", "cumulativeMin"})
    default void cumulativeMaxAndMinMatchTheOracle() {
        Props.forAll(scanCases(Generators.dtypesFavouringFastPaths(), Elements.Mix.ALL, Shapes.any()), c -> {
            for (CumulativeOp op : List.of(CumulativeOp.CUMULATIVE_MAX, CumulativeOp.CUMULATIVE_MIN)) {
                Oracle.check(engine(), c + ": " + op.opName(), c.x(), Tolerance.SELECTION, t -> scan(op, t, c.axis(), c.reverse()));
            }
        });
    }

    @Test
    @Covers({"cumulativeSum", "cumulativeProduct", "cumulativeMax", "cumulativeMin"})
    default void theLastRunningValueIsTheReduction() {
        Props.forAll(scanCases(Generators.dtypesFavouringFastPaths(), Elements.Mix.ALL, Shapes.ofRank(1, 4)), c -> {
            int r = c.x().shape().rank();
            int a = c.axis() < 0 ? c.axis() + r : c.axis();
            int n = c.x().shape().dim(a);
            if (n == 0) return;
            Tensor t = c.x().on(engine());
            int[] starts = new int[r];
            starts[a] = c.reverse() ? 0 : n - 1;
            int[] lengths = c.x().shape().withDim(a, 1).dims();
            for (CumulativeOp op : CumulativeOp.values()) {
                boolean selects = op == CumulativeOp.CUMULATIVE_MAX || op == CumulativeOp.CUMULATIVE_MIN;
                if (!selects && c.x().dtype().isFloat()) continue; // float sums and products depend on the order
                Tensor scanned = scan(op, t, c.axis(), c.reverse());
                Tensor last = scanned.slice(starts, lengths).squeeze(a);
                Tensor whole = ReductionContract.reduce(reduction(op), t, new int[] {c.axis()}, false).asType(scanned.dtype());
                TensorAssert.assertClose(c + ": the " + (c.reverse() ? "first" : "last") + " value of " + op.opName()
                        + " is the reduction, cast to " + scanned.dtype().shortName(), whole, last, Tolerance.SELECTION);
            }
        });
    }

    @Test
    @Covers({"cumulativeSum", "cumulativeProduct", "cumulativeMax", "cumulativeMin", "reverse"})
    default void aReverseScanIsTheReversedScanOfTheReversedTensor() {
        Props.forAll(scanCases(Generators.dtypesFavouringFastPaths(), Elements.Mix.ALL, Shapes.ofRank(1, 4)), c -> {
            Tensor t = c.x().on(engine());
            for (CumulativeOp op : CumulativeOp.values()) {
                boolean selects = op == CumulativeOp.CUMULATIVE_MAX || op == CumulativeOp.CUMULATIVE_MIN;
                if (!selects && c.x().dtype().isFloat()) continue;
                Tensor expected = scan(op, t.reverse(c.axis()), c.axis(), c.reverse()).reverse(c.axis());
                TensorAssert.assertClose(c + ": " + op.opName() + " of the reversed tensor, reversed", expected,
                        scan(op, t, c.axis(), !c.reverse()), Tolerance.SELECTION);
            }
        });
    }

    @Test
    @Covers({"cumulativeSum", "cumulativeProduct", "cumulativeMax", "cumulativeMin"})
    default void scansNameThemselvesForBadAxes() {
        Gen<TensorCase> xs = Generators.tensors(Generators.dtypes(), Shapes.ofRank(0, 4, true, 24), Elements.Mix.SMALL);
        Props.forAll(xs, x -> {
            int r = x.shape().rank();
            for (CumulativeOp op : CumulativeOp.values()) {
                for (int bad : new int[] {r, -r - 1, r + 3}) {
                    Oracle.checkFails(engine(), x + " along axis " + bad, List.of(x), op.opName(),
                            in -> scan(op, in.get(0), bad, bad == r), "(" + bad + ")", x.shape().toString());
                }
            }
        });
    }

    // ---- generators and calls -----------------------------------------------------------------

    /** Tensors of {@code types} and {@code shapes} with values of {@code mix}, one axis (0 for rank 0, which fails), either direction. */
    static Gen<ScanCase> scanCases(Gen<DType> types, Elements.Mix mix, Gen<Shape> shapes) {
        Gen<TensorCase> xs = Generators.tensors(types, shapes, mix);
        return rs -> {
            TensorCase x = xs.generate(rs);
            return new ScanCase(x, Axes.one(x.shape().rank()).generate(rs), Axes.coin(rs));
        };
    }

    /** The output type: the input type, except that PRED sums and products count in U8. */
    private static DType scanType(CumulativeOp op, DType in) {
        boolean counts = op == CumulativeOp.CUMULATIVE_SUM || op == CumulativeOp.CUMULATIVE_PRODUCT;
        return in.isPred() && counts ? DType.U8 : in;
    }

    private static ReduceOp reduction(CumulativeOp op) {
        return switch (op) {
            case CUMULATIVE_SUM -> ReduceOp.SUM;
            case CUMULATIVE_PRODUCT -> ReduceOp.PRODUCT;
            case CUMULATIVE_MAX -> ReduceOp.REDUCE_MAX;
            case CUMULATIVE_MIN -> ReduceOp.REDUCE_MIN;
        };
    }

    /** Calls the scan's {@code Tensor} method: no arguments for axis 0 forwards, else {@code (axis)} or {@code (axis, true)}. */
    static Tensor scan(CumulativeOp op, Tensor t, int axis, boolean reverse) {
        boolean plain = axis == 0 && !reverse;
        return switch (op) {
            case CUMULATIVE_SUM -> plain ? t.cumulativeSum() : reverse ? t.cumulativeSum(axis, true) : t.cumulativeSum(axis);
            case CUMULATIVE_PRODUCT -> plain ? t.cumulativeProduct() : reverse ? t.cumulativeProduct(axis, true) : t.cumulativeProduct(axis);
            case CUMULATIVE_MAX -> plain ? t.cumulativeMax() : reverse ? t.cumulativeMax(axis, true) : t.cumulativeMax(axis);
            case CUMULATIVE_MIN -> plain ? t.cumulativeMin() : reverse ? t.cumulativeMin(axis, true) : t.cumulativeMin(axis);
        };
    }
}
