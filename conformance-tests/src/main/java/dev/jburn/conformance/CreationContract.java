package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.Arrays;

/**
 * Creation: {@code full}, {@code zeros} and {@code ones} have the shape asked for and the
 * value, cast to the dtype, everywhere — also when the engine broadcasts the scalar itself;
 * {@code iota} counts along an axis (or the flattened shape) like the oracle and the formula,
 * through {@code Tensor.iota} and through the engine's own kernel; {@code eye}, {@code arange}
 * and {@code linspace} follow their formulas and survive the move to the engine. Bad sizes,
 * steps and axes name the op.
 */
public interface CreationContract extends EngineContract {

    /** A dtype, a shape and a value. */
    record FullCase(DType dtype, Shape shape, double value) {
        @Override
        public String toString() { return "full(" + shape + ", " + dtype.shortName() + ", " + value + ")"; }
    }

    /** A dtype, a shape and an axis as written ({@code null}: the flattened shape). */
    record IotaCase(DType dtype, Shape shape, Integer axis) {
        /** The axis in {@code [0, rank)}, or -1 for the flattened shape (the kernel's convention). */
        int kernelAxis() { return axis == null ? -1 : axis < 0 ? axis + shape.rank() : axis; }

        @Override
        public String toString() { return "iota(" + shape + ", " + dtype.shortName() + (axis == null ? "" : ", " + axis) + ")"; }
    }

    @Test
    @Covers("full")
    default void fullHoldsTheCastValueEverywhere() {
        Gen<Double> values = Elements.floats(DType.F64, Elements.Mix.ALL)
                .mix(Generate.longRange(-300, 300).map(Long::doubleValue), 40);
        Gen<FullCase> cases = Generators.dtypes().zip(Shapes.any(), values, FullCase::new);
        Props.forAll(cases, c -> {
            TensorCase want = filled(c.dtype(), c.shape(), c.value());
            Tensor full = Tensor.full(c.shape(), c.dtype(), c.value());
            TensorAssert.assertSame(c.toString(), want, full);
            TensorAssert.assertSame(c + " moved to the engine", want, full.to(engine()));
            Tensor scalar = TensorCase.ofDoubles(DType.F64, Shape.scalar(), c.value()).on(engine()).asType(c.dtype());
            TensorAssert.assertSame(c + " as the engine's broadcast of a scalar", want, scalar.broadcast(c.shape()));
        });
    }

    @Test
    @Covers("full")
    default void zerosAndOnesHaveTheirShapeAndValue() {
        Props.forAll(Generators.dtypes().zip(Shapes.any(), (t, s) -> new FullCase(t, s, 0)), c -> {
            TensorAssert.assertSame("zeros" + c.shape() + " " + c.dtype(), filled(c.dtype(), c.shape(), 0), Tensor.zeros(c.shape(), c.dtype()).to(engine()));
            TensorAssert.assertSame("ones" + c.shape() + " " + c.dtype(), filled(c.dtype(), c.shape(), 1), Tensor.ones(c.shape(), c.dtype()).to(engine()));
        });
    }

    @Test
    @Covers("iota")
    default void iotaCountsAlongTheAxis() {
        Gen<Integer> anyAxis = Generate.range(-1, Shapes.MAX_RANK - 1);
        Gen<IotaCase> cases = Generators.numericTypes().zip(Shapes.any(), anyAxis, Generate.booleans(),
                (t, s, a, negative) -> new IotaCase(t, s, s.rank() == 0 || a < 0 ? null : Math.min(a, s.rank() - 1) - (negative ? s.rank() : 0)));
        Props.forAll(cases, c -> {
            TensorCase spec = iotaSpec(c);
            Tensor api = c.axis() == null ? Tensor.iota(c.shape(), c.dtype()) : Tensor.iota(c.shape(), c.dtype(), c.axis());
            TensorAssert.assertSame(c + " by Tensor.iota vs the formula", spec, api);
            TensorAssert.assertSame(c + " by Tensor.iota, moved to the engine", spec, api.to(engine()));
            Tensor got = BackendCalls.iota(engine(), c.shape(), c.dtype(), c.kernelAxis());
            TensorAssert.assertSame(c + " by the engine's kernel vs the oracle",
                    TensorCase.of(BackendCalls.iota(Oracle.engine(), c.shape(), c.dtype(), c.kernelAxis())), got);
            TensorAssert.assertSame(c + " by the engine's kernel vs the formula", spec, got);
        });
    }

    @Test
    @Covers("eye")
    default void eyeHasOnesOnTheMainDiagonal() {
        Gen<FullCase> cases = Generators.dtypes().zip(Generate.range(0, 9), Generate.range(0, 9),
                (t, r, c) -> new FullCase(t, Shape.of(r, c), 1));
        Props.forAll(cases, c -> {
            int rows = c.shape().dim(0), cols = c.shape().dim(1);
            long[] v = new long[rows * cols];
            for (int i = 0; i < Math.min(rows, cols); i++) v[i * cols + i] = 1;
            TensorCase spec = Specs.cast(TensorCase.ofLongs(DType.S64, c.shape(), v), c.dtype());
            TensorAssert.assertSame("eye(" + rows + ", " + cols + ", " + c.dtype().shortName() + ")", spec, Tensor.eye(rows, cols, c.dtype()).to(engine()));
            if (rows == cols) TensorAssert.assertSame("eye(" + rows + ", " + c.dtype().shortName() + ")", spec, Tensor.eye(rows, c.dtype()).to(engine()));
        });
    }

    @Test
    @Covers("arange")
    default void arangeCountsBySteps() {
        Gen<long[]> args = Generate.longRange(-20, 20).zip(Generate.longRange(-20, 20), Generate.longRange(-5, 5),
                (start, stop, step) -> new long[] {start, stop, step == 0 ? 1 : step});
        Props.forAll(args.zip(Generators.numericTypes(), (a, t) -> new Object[] {a, t}), c -> {
            long[] a = (long[]) c[0];
            DType t = (DType) c[1];
            long start = a[0], stop = a[1], step = a[2];
            String what = "arange(" + start + ", " + stop + ", " + step + ", " + t.shortName() + ")";
            int n = (int) Math.max(0, Math.ceilDiv(stop - start, step));
            long[] v = new long[n];
            for (int i = 0; i < n; i++) v[i] = start + i * step;
            TensorCase spec = Specs.cast(TensorCase.ofLongs(DType.S64, Shape.of(n), v), t);
            TensorAssert.assertSame(what, spec, Tensor.arange(start, stop, step, t).to(engine()));
            double[] d = new double[n];
            for (int i = 0; i < n; i++) d[i] = (start + i * step) / 2.0;
            TensorAssert.assertSame(what + " in halves", Specs.cast(TensorCase.ofDoubles(DType.F64, Shape.of(n), d), t),
                    Tensor.arange(start / 2.0, stop / 2.0, step / 2.0, t).to(engine()));
            if (start == 0 && step == 1 && stop >= 0) {
                TensorAssert.assertSame("arange(" + stop + ")", Specs.cast(spec, DType.S32), Tensor.arange((int) stop).to(engine()));
            }
        });
    }

    @Test
    @Covers("linspace")
    default void linspaceSpacesEvenlyFromStartToStop() {
        Gen<double[]> args = Generate.range(-40, 40).zip(Generate.range(-40, 40), Generate.range(0, 12),
                (start, stop, n) -> new double[] {start / 4.0, stop / 4.0, n});
        Props.forAll(args.zip(Generators.numericTypes(), Generate.booleans(), (a, t, e) -> new Object[] {a, t, e}), c -> {
            double[] a = (double[]) c[0];
            DType t = (DType) c[1];
            boolean endpoint = (Boolean) c[2];
            double start = a[0], stop = a[1];
            int n = (int) a[2];
            String what = "linspace(" + start + ", " + stop + ", " + n + (endpoint ? "" : ", no endpoint") + ", " + t.shortName() + ")";
            int div = endpoint ? n - 1 : n;
            double step = div > 0 ? (stop - start) / div : 0;
            double[] v = new double[n];
            for (int i = 0; i < n; i++) v[i] = endpoint && i == n - 1 && n > 1 ? stop : start + i * step;
            TensorCase spec = Specs.cast(TensorCase.ofDoubles(DType.F64, Shape.of(n), v), t);
            Tensor got = endpoint ? Tensor.linspace(start, stop, n, t) : Tensor.linspace(start, stop, n, false, t);
            TensorAssert.assertClose(what, spec, got.to(engine()), Tolerance.ARITHMETIC);
            if (n > 0) TensorAssert.assertClose(what + ": starts at start", Specs.cast(TensorCase.ofDoubles(DType.F64, Shape.of(1), start), t),
                    got.slice(new int[] {0}, new int[] {1}), Tolerance.EXACT);
        });
    }

    @Test
    @Covers({"iota", "eye", "arange", "linspace"})
    default void creationNamesTheOpForBadArguments() {
        Props.forAll(Shapes.ofRank(0, 3, true, 24), s -> {
            int r = s.rank();
            Oracle.assertFailsNaming("iota", "iota of " + s + " pred", () -> Tensor.iota(s, DType.PRED));
            for (int bad : new int[] {r, -r - 1}) {
                Oracle.assertFailsNaming("iota", "iota of " + s + " along " + bad, () -> Tensor.iota(s, DType.S32, bad));
            }
            Oracle.assertFailsNaming("eye", "eye(-1)", () -> Tensor.eye(-1, DType.F32));
            Oracle.assertFailsNaming("eye", "eye(2, -" + (r + 1) + ")", () -> Tensor.eye(2, -r - 1, DType.S8));
            Oracle.assertFailsNaming("arange", "arange with step 0", () -> Tensor.arange(0, r, 0, DType.S32));
            Oracle.assertFailsNaming("arange", "arange with step 0.0", () -> Tensor.arange(0.0, r, 0.0, DType.F32));
            Oracle.assertFailsNaming("arange", "arange to NaN", () -> Tensor.arange(0.0, Double.NaN, 1.0, DType.F32));
            Oracle.assertFailsNaming("linspace", "linspace of -" + (r + 1) + " values", () -> Tensor.linspace(0, 1, -r - 1, DType.F32));
        });
    }

    /** {@code value} cast to {@code t} (by the oracle) in every element of {@code s}. */
    private static TensorCase filled(DType t, Shape s, double value) {
        TensorCase one = TensorCase.of(TensorCase.ofDoubles(DType.F64, Shape.scalar(), value).on(Oracle.engine()).asType(t));
        int n = Math.toIntExact(s.size());
        if (t.isFloat()) {
            double[] v = new double[n];
            Arrays.fill(v, one.doubleAt(0));
            return TensorCase.ofDoubles(t, s, v);
        }
        long[] v = new long[n];
        Arrays.fill(v, one.longAt(0));
        return TensorCase.ofLongs(t, s, v);
    }

    /** Element i is its index along the axis (its flat index for axis -1), converted to the dtype. */
    private static TensorCase iotaSpec(IotaCase c) {
        int n = Math.toIntExact(c.shape().size());
        long[] count = new long[n];
        for (int i = 0; i < n; i++) count[i] = c.kernelAxis() < 0 ? i : TensorAssert.index(c.shape(), i)[c.kernelAxis()];
        if (!c.dtype().isFloat()) return TensorCase.ofLongs(c.dtype(), c.shape(), count);
        return TensorCase.ofDoubles(c.dtype(), c.shape(), Arrays.stream(count).asDoubleStream().toArray());
    }
}
