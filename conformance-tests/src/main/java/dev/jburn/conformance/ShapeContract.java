package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reshaping and broadcasting: {@code reshape} (to any shape of the same size and back is the
 * identity; a reshaped view outlives its source) and {@code broadcast}, with explicit axes
 * (matches the oracle and the index rule) and with NumPy's rule (equals the explicit form
 * with the trailing axes). Shapes that do not broadcast name {@code broadcast}.
 */
public interface ShapeContract extends EngineContract {

    /** A tensor and another shape of its size. */
    record ReshapeCase(TensorCase x, Shape target) {}

    /** A tensor, the shape to broadcast it to, and the output axis of each input axis. */
    record BroadcastCase(TensorCase x, Shape out, int[] axes) {
        @Override
        public String toString() { return x + " to " + out + " on axes " + Arrays.toString(axes); }
    }

    @Test
    @Covers("reshape")
    default void reshapeAndBackIsTheIdentity() {
        Props.forAll(reshapeCases(), c -> {
            Tensor t = c.x().on(engine());
            Tensor y = t.reshape(c.target());
            TensorAssert.assertSame(c + ": reshape keeps the row-major order", c.x().withShape(c.target()), y);
            TensorAssert.assertSame(c + ": reshape back", c.x(), y.reshape(c.x().shape()));
            if (c.x().size() > 0 && c.target().rank() > 0) {
                int[] dims = c.target().dims();
                dims[dims.length - 1] = -1;
                TensorAssert.assertSame(c + ": reshape with -1 " + Arrays.toString(dims), c.x().withShape(c.target()), t.reshape(dims));
            }
        });
    }

    @Test
    @Covers("reshape")
    default void reshapedViewOutlivesItsSource() {
        Props.forAll(reshapeCases(), c -> {
            Tensor t = c.x().on(engine());
            Tensor y = t.reshape(c.target());
            t.close();
            TensorAssert.assertSame(c + ": the view after closing its source", c.x().withShape(c.target()), y);
        });
    }

    @Test
    @Covers("broadcast")
    default void broadcastMatchesTheOracleAndTheIndexRule() {
        Props.forAll(broadcastCases(), c -> {
            Oracle.check(engine(), c.toString(), c.x(), Tolerance.EXACT, t -> t.broadcast(c.out(), c.axes()));
            TensorAssert.assertSame(c + ": out[i] = x[i projected on the axes, 0 where x has size 1]",
                    broadcastSpec(c), c.x().on(engine()).broadcast(c.out(), c.axes()));
        });
    }

    @Test
    @Covers("broadcast")
    default void numpyBroadcastIsTheExplicitBroadcastOnTheTrailingAxes() {
        Gen<BroadcastShapes> pairs = Shapes.broadcastable();
        Gen<BroadcastCase> cases = rs -> {
            BroadcastShapes p = pairs.generate(rs);
            Shape out = p.result("broadcast");
            TensorCase x = Generators.values(Generators.dtypes().generate(rs), p.a(), Elements.Mix.ALL).generate(rs);
            int[] axes = new int[p.a().rank()];
            for (int i = 0; i < axes.length; i++) axes[i] = out.rank() - axes.length + i;
            return new BroadcastCase(x, out, axes);
        };
        Props.forAll(cases, c -> {
            Oracle.check(engine(), c + " (NumPy)", c.x(), Tolerance.EXACT, t -> t.broadcast(c.out()));
            TensorAssert.assertSame(c + ": NumPy broadcast = explicit broadcast on the trailing axes", broadcastSpec(c),
                    c.x().on(engine()).broadcast(c.out()));
        });
    }

    @Test
    @Covers("broadcast")
    default void shapesThatDoNotBroadcastNameBroadcast() {
        Props.forAll(Shapes.incompatible(), p -> {
            TensorCase x = Specs.zeros(DType.S32, p.a());
            Shape to = p.a().rank() > p.b().rank() ? p.a() : p.b(); // a shape of rank >= a's that a does not broadcast to
            if (p.a().broadcastsTo(to)) return;
            Oracle.checkFails(engine(), x + " broadcast to " + to, List.of(x), "broadcast", in -> in.get(0).broadcast(to),
                    p.a().toString(), to.toString());
            int[] axes = new int[p.a().rank()];
            for (int i = 0; i < axes.length; i++) axes[i] = to.rank() - axes.length + i;
            Oracle.checkFails(engine(), x + " broadcast to " + to + " on axes " + Arrays.toString(axes), List.of(x), "broadcast",
                    in -> in.get(0).broadcast(to, axes), p.a().toString(), to.toString());
            if (axes.length >= 2) {
                int[] decreasing = axes.clone();
                decreasing[0] = axes[1];
                decreasing[1] = axes[0];
                Oracle.checkFails(engine(), x + " broadcast to " + to + " on axes " + Arrays.toString(decreasing), List.of(x),
                        "broadcast", in -> in.get(0).broadcast(to, decreasing), p.a().toString());
            }
        });
    }

    /** Tensors and shapes of the same size, rank 0 to 4. */
    static Gen<ReshapeCase> reshapeCases() {
        Gen<TensorCase> xs = Generators.tensors();
        return rs -> {
            TensorCase x = xs.generate(rs);
            return new ReshapeCase(x, Shapes.withSize(x.size()).generate(rs));
        };
    }

    /** An output shape, a random increasing subset of its axes for the input, input sizes 1 or equal. */
    static Gen<BroadcastCase> broadcastCases() {
        Gen<Shape> outs = Shapes.any();
        Gen<Boolean> coin = Generate.booleans();
        Gen<Integer> third = Generate.range(0, 2);
        return rs -> {
            Shape out = outs.generate(rs);
            List<Integer> axes = new ArrayList<>();
            List<Integer> dims = new ArrayList<>();
            for (int a = 0; a < out.rank(); a++) {
                if (!coin.generate(rs)) continue;
                axes.add(a);
                dims.add(third.generate(rs) == 0 ? 1 : out.dim(a));
            }
            Shape in = Shape.of(dims.stream().mapToInt(Integer::intValue).toArray());
            TensorCase x = Generators.values(Generators.dtypes().generate(rs), in, Elements.Mix.ALL).generate(rs);
            return new BroadcastCase(x, out, axes.stream().mapToInt(Integer::intValue).toArray());
        };
    }

    /** The broadcast result computed from the index rule. */
    private static TensorCase broadcastSpec(BroadcastCase c) {
        int n = Math.toIntExact(c.out().size());
        long[] inStrides = c.x().shape().strides();
        int[] pick = new int[n];
        for (int i = 0; i < n; i++) {
            int[] idx = TensorAssert.index(c.out(), i);
            long src = 0;
            for (int k = 0; k < c.axes().length; k++) {
                if (c.x().shape().dim(k) != 1) src += idx[c.axes()[k]] * inStrides[k];
            }
            pick[i] = (int) src;
        }
        if (c.x().dtype().isFloat()) {
            double[] v = new double[n];
            for (int i = 0; i < n; i++) v[i] = c.x().doubleAt(pick[i]);
            return TensorCase.ofDoubles(c.x().dtype(), c.out(), v);
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = c.x().longAt(pick[i]);
        return TensorCase.ofLongs(c.x().dtype(), c.out(), v);
    }
}
