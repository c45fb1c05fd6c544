package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Prim;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Batch norm's scale-shift and ReLU then a pool, compiled: where the windows tile channels-last rows the cpu engine
 * runs the pair as one node ({@link PooledChains}) with the bits of the eager ops, on one thread and four, for max and
 * min pools, windows that leave rows and columns uncovered, channel counts that are not a vector's multiple, NaN,
 * ±0 and ±Inf; overlapping windows and few channels keep the two nodes.
 */
class PooledChainsTest {
    private static final float[] SPECIAL = {Float.NaN, -0f, 0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 2f, 2f, -2f};

    private static List<Tensor> affineReluPool(List<Tensor> xs, int[] window, int[] strides, boolean max) {
        Tensor y = xs.get(0).multiply(xs.get(1)).add(xs.get(2)).maximum(0.0);
        WindowOptions o = WindowOptions.defaults().withStrides(strides).withPadding(Padding.VALID);
        return List.of(y, max ? y.windowMax(window, o) : y.windowMin(window, o));
    }

    @Test
    void theGroupAndItsPoolKeepTheBitsOfTheEagerOps() {
        Random rnd = new Random(5);
        int combined = 0, tiling = 0;
        for (int trial = 0; trial < 36; trial++) {
            int k = 2 + rnd.nextInt(2), c = new int[] {3, 8, 16, 20, 32, 64}[rnd.nextInt(6)];
            boolean overlap = trial % 6 == 5, max = trial % 4 != 3;
            int[] window = {1, k, k, 1}, strides = overlap ? new int[] {1, 1, 1, 1} : window;
            int[] dims = {1 + rnd.nextInt(3), k + rnd.nextInt(9), k + rnd.nextInt(9), c};
            float[] v = new float[dims[0] * dims[1] * dims[2] * dims[3]];
            for (int i = 0; i < v.length; i++) v[i] = trial % 2 == 0 && rnd.nextInt(8) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextGaussian();
            List<Tensor> xs = List.of(Tensor.of(v).reshape(dims), randomFloat(rnd, DType.F32, c), randomFloat(rnd, DType.F32, c));
            for (Engine e : List.of(Engine.defaultEngine(), PARALLEL)) {
                List<Tensor> on = xs.stream().map(t -> t.to(e)).toList();
                List<Tensor> expected = affineReluPool(on, window, strides, max); // eager
                CompiledFunction f = Jit.compileList(in -> affineReluPool(in, window, strides, max));
                List<Tensor> actual = f.apply(on);
                for (int i = 0; i < expected.size(); i++) assertSameBits(expected.get(i), actual.get(i));
                combined += pairs(new PooledChains(new Parallel(1, Long.MAX_VALUE), true).rewrite(f.graph()));
            }
            if (!overlap && c >= 8 && (long) k * dims[2] * c <= FusedKernels.BLOCK) tiling += 2;
        }
        assertEquals(tiling, combined, "every tiling pool with 8 channels or more, and no other, is paired");
        assertTrue(tiling >= 30, "most cases tile: " + tiling);
    }

    /** The scalar oracle (no vector kernels) keeps the traced graph. */
    @Test
    void theScalarOracleKeepsTheGraph() {
        int[] w = {1, 2, 2, 1};
        CompiledFunction f = Jit.compileList(in -> affineReluPool(in, w, w, true));
        Random rnd = new Random(1);
        f.apply(List.of(randomFloat(rnd, DType.F32, 1, 4, 4, 8), randomFloat(rnd, DType.F32, 8), randomFloat(rnd, DType.F32, 8)));
        assertSame(f.graph(), new PooledChains(new Parallel(1, Long.MAX_VALUE), false).rewrite(f.graph()));
    }

    /** Fused nodes with two outputs, the second a window reduction's. */
    private static long pairs(Graph g) {
        return g.nodes().stream().filter(n -> n.prim() instanceof Prim.Fused fu && n.outputs().size() == 2
                && fu.body().nodes().getLast().prim() instanceof Prim.WindowReduce).count();
    }
}
