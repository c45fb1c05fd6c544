package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.Arrays;
import java.util.List;

/**
 * The kit's generators of dtypes and tensors; shapes come from {@link Shapes}, element values
 * from {@link Elements}. Every generated {@link TensorCase} prints its dtype, shape and values.
 *
 * <pre>{@code
 * qt().forAll(Generators.tensors()).checkAssert(x -> ...);                      // any dtype, shape, values
 * qt().forAll(Generators.tensors(Generators.floatTypes(), Shapes.nonEmpty(), Elements.Mix.FINITE)) ...
 * qt().forAll(Generators.broadcastPairs(Generators.dtypes(), Elements.Mix.ALL)) ...   // a, b that broadcast
 * }</pre>
 */
public final class Generators {
    private Generators() {}

    /** Every dtype, PRED included. */
    public static Gen<DType> dtypes() { return Generate.enumValues(DType.class); }

    /**
     * Every dtype, but half of the time one of F32, F64, S32 and S64: the types engines give
     * fast (vector) kernels, so that their paths get most of the cases.
     */
    public static Gen<DType> dtypesFavouringFastPaths() {
        return Generate.frequency(List.of(Pair.of(1, dtypes()), Pair.of(1, oneOf(DType.F32, DType.F64, DType.S32, DType.S64))));
    }

    /** F16, BF16, F32, F64. */
    public static Gen<DType> floatTypes() { return oneOf(DType.F16, DType.BF16, DType.F32, DType.F64); }

    /** The eight integer types (not PRED). */
    public static Gen<DType> integerTypes() {
        return oneOf(DType.U8, DType.U16, DType.U32, DType.U64, DType.S8, DType.S16, DType.S32, DType.S64);
    }

    /** Every dtype but PRED. */
    public static Gen<DType> numericTypes() {
        return oneOf(Arrays.stream(DType.values()).filter(t -> !t.isPred()).toArray(DType[]::new));
    }

    /** One of the given dtypes. */
    public static Gen<DType> oneOf(DType... types) { return Generate.pick(List.of(types)); }

    /** Any dtype, any shape ({@link Shapes#any()}), values with edge cases mixed in. */
    public static Gen<TensorCase> tensors() { return tensors(dtypes(), Shapes.any(), Elements.Mix.ALL); }

    /** Tensors of the given dtypes, any shape, values with edge cases mixed in. */
    public static Gen<TensorCase> tensors(Gen<DType> types) { return tensors(types, Shapes.any(), Elements.Mix.ALL); }

    /** Tensors of the given dtypes and shapes with values drawn by {@code mix}. */
    public static Gen<TensorCase> tensors(Gen<DType> types, Gen<Shape> shapes, Elements.Mix mix) {
        return rs -> values(types.generate(rs), shapes.generate(rs), mix).generate(rs);
    }

    /** Values of dtype {@code t} filling shape {@code s}. */
    public static Gen<TensorCase> values(DType t, Shape s, Elements.Mix mix) {
        int n = Math.toIntExact(s.size());
        if (t.isFloat()) {
            Gen<Double> e = Elements.floats(t, mix);
            return rs -> {
                double[] v = new double[n];
                for (int i = 0; i < n; i++) v[i] = e.generate(rs);
                return TensorCase.ofDoubles(t, s, v);
            };
        }
        Gen<Long> e = Elements.integers(t, mix);
        return rs -> {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) v[i] = e.generate(rs);
            return TensorCase.ofLongs(t, s, v);
        };
    }

    /** Two operands of one dtype with broadcast-compatible shapes. */
    public static Gen<TensorPair> broadcastPairs(Gen<DType> types, Elements.Mix mix) {
        return rs -> {
            DType t = types.generate(rs);
            BroadcastShapes s = Shapes.broadcastable().generate(rs);
            return new TensorPair(values(t, s.a(), mix).generate(rs), values(t, s.b(), mix).generate(rs));
        };
    }

    /** Two operands of independently drawn dtypes (so type promotion applies) with broadcast-compatible shapes. */
    public static Gen<TensorPair> broadcastPairs(Gen<DType> left, Gen<DType> right, Elements.Mix mix) {
        return rs -> {
            DType ta = left.generate(rs);
            DType tb = right.generate(rs);
            BroadcastShapes s = Shapes.broadcastable().generate(rs);
            return new TensorPair(values(ta, s.a(), mix).generate(rs), values(tb, s.b(), mix).generate(rs));
        };
    }
}
