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
 * {@code iota} counts along an axis (or the flattened shape) like the oracle and the formula.
 */
public interface CreationContract extends EngineContract {

    /** A dtype, a shape and a value. */
    record FullCase(DType dtype, Shape shape, double value) {
        @Override
        public String toString() { return "full(" + shape + ", " + dtype.shortName() + ", " + value + ")"; }
    }

    /** A dtype, a shape and an axis ({@code -1}: the flattened shape). */
    record IotaCase(DType dtype, Shape shape, int axis) {
        @Override
        public String toString() { return "iota(" + shape + ", " + dtype.shortName() + ", axis " + axis + ")"; }
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
            TensorAssert.assertSame(c + " as the engine's broadcast of a scalar", want, BackendCalls.broadcast(scalar, c.shape(), new int[0]));
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
        Gen<IotaCase> cases = Generators.numericTypes().zip(Shapes.any(), anyAxis,
                (t, s, a) -> new IotaCase(t, s, s.rank() == 0 ? -1 : Math.min(a, s.rank() - 1)));
        Props.forAll(cases, c -> {
            Tensor got = BackendCalls.iota(engine(), c.shape(), c.dtype(), c.axis());
            TensorAssert.assertSame(c + " vs the oracle", TensorCase.of(BackendCalls.iota(Oracle.engine(), c.shape(), c.dtype(), c.axis())), got);
            TensorAssert.assertSame(c + " vs the formula", iotaSpec(c), got);
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
        for (int i = 0; i < n; i++) count[i] = c.axis() < 0 ? i : TensorAssert.index(c.shape(), i)[c.axis()];
        if (!c.dtype().isFloat()) return TensorCase.ofLongs(c.dtype(), c.shape(), count);
        return TensorCase.ofDoubles(c.dtype(), c.shape(), Arrays.stream(count).asDoubleStream().toArray());
    }
}
