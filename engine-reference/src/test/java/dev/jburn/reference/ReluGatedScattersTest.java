package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.spi.EngineConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A max pool's gradient then its input ReLU's, {@code select(y > 0, windowScatterMax(y, g, 0), 0)}, compiled: the cpu
 * engine runs the pair as one pass ({@link ReluGatedScatters}) with the bits of the two eager ops, on pooling shapes the
 * one-pass kernel takes (channels last, disjoint windows, 8 channels or more) and on shapes it leaves to the two ops
 * (fewer channels, overlapping windows), with ties, zeros of both signs, negative maxima and NaN.
 */
class ReluGatedScattersTest {
    private static final float[] VALUES = {-1f, -0f, 0f, 1f, 2f, 2f, 3f, Float.NaN};

    private static List<Tensor> pair(List<Tensor> xs, int[] window, WindowOptions o) {
        Tensor y = xs.get(0), g = xs.get(1);
        return List.of(y.greater(0.0).select(y.windowScatterMax(g, 0, window, o), 0.0));
    }

    @Test
    void thePairRunsAsOnePassWithTheBitsOfTheTwoOps() {
        Random rnd = new Random(51);
        int onePass = 0;
        for (int trial = 0; trial < 40; trial++) {
            int k = 2 + rnd.nextInt(2), s = trial % 5 == 4 ? 1 : k, c = new int[] {3, 8, 16, 20, 32, 64}[rnd.nextInt(6)];
            int[] dims = {1 + rnd.nextInt(3), k + rnd.nextInt(9), k + rnd.nextInt(9), c}, window = {1, k, k, 1};
            WindowOptions o = WindowOptions.defaults().withStrides(new int[] {1, s, s, 1}).withPadding(Padding.VALID);
            float[] v = new float[dims[0] * dims[1] * dims[2] * dims[3]];
            for (int i = 0; i < v.length; i++) v[i] = VALUES[rnd.nextInt(VALUES.length - (trial % 2))]; // NaN in half the trials
            Tensor y = Tensor.of(v).reshape(dims);
            Tensor g = randomFloat(rnd, DType.F32, y.windowMax(window, o).shape().dims());
            for (Engine e : List.of(Engine.defaultEngine(), PARALLEL)) {
                Tensor expected = pair(List.of(y.to(e), g.to(e)), window, o).getFirst(); // eager: the two ops
                CompiledFunction f = Jit.compileList(xs -> pair(xs, window, o));
                assertSameBits(expected, f.apply(List.of(y.to(e), g.to(e))).getFirst());
                Graph r = new ReluGatedScatters(new WindowKernels(new Parallel(1, Long.MAX_VALUE), EngineConfig.defaults()), true).rewrite(f.graph());
                assertEquals(1, pairs(r), () -> "the pair is one node: " + r);
            }
            if (c >= 8 && s == k) onePass++;
        }
        assertTrue(onePass >= 15, "most cases take the one-pass kernel, got " + onePass);
    }

    /** The scalar oracle (no vector kernels) keeps the traced graph. */
    @Test
    void theScalarOracleKeepsTheGraph() {
        CompiledFunction f = Jit.compileList(xs -> pair(xs, new int[] {1, 2, 2, 1}, WindowOptions.defaults().withStrides(new int[] {1, 2, 2, 1})));
        f.apply(List.of(Tensor.zeros(dev.jburn.Shape.of(1, 4, 4, 8), DType.F32), Tensor.zeros(dev.jburn.Shape.of(1, 2, 2, 8), DType.F32)));
        ReluGatedScatters off = new ReluGatedScatters(new WindowKernels(new Parallel(1, Long.MAX_VALUE), EngineConfig.defaults()), false);
        assertSame(f.graph(), off.rewrite(f.graph()));
    }

    /** Fused nodes holding a window scatter. */
    private static long pairs(Graph g) {
        return g.nodes().stream().filter(n -> n.prim() instanceof Prim.Fused fu
                && fu.body().nodes().stream().map(Node::prim).anyMatch(p -> p instanceof Prim.WindowScatter)).count();
    }
}
