package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Prim;
import dev.jburn.spi.EngineConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Batch norm's backward column sums, compiled: {@code sum(g)} with {@code sum(g·(x − mean))} (two sums reading
 * {@code g}) and {@code dx = g·a + x·b + c} with {@code sum(dx)} (a group and the sum of its result) run as two
 * fused nodes of two outputs each ({@link ColumnSumSiblings}), with the bits of the eager ops on one thread and four,
 * for row counts around the sums' segment size, several channel counts, NaN, ±0, ±Inf and large magnitudes.
 */
class ColumnSumSiblingsTest {
    private static final float[] SPECIAL = {Float.NaN, -0f, 0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 3e38f, -3e38f, 1e-40f};

    private static List<Tensor> backward(List<Tensor> xs) {
        Tensor x = xs.get(0), g = xs.get(1), mean = xs.get(2), a = xs.get(3), b = xs.get(4), c = xs.get(5);
        int[] lead = new int[x.shape().rank() - 1];
        for (int i = 0; i < lead.length; i++) lead[i] = i;
        Tensor dx = g.multiply(a).add(x.multiply(b)).add(c);
        return List.of(g.sum(lead), g.multiply(x.subtract(mean)).sum(lead), dx, dx.sum(lead));
    }

    @Test
    void pairedSumsKeepTheBitsOfTheEagerOps() {
        Random rnd = new Random(7);
        int combined = 0;
        for (int trial = 0; trial < 30; trial++) {
            int ch = new int[] {2, 3, 8, 17, 32, 64, 100}[rnd.nextInt(7)];
            int[] dims = trial % 3 == 0 ? new int[] {1 + rnd.nextInt(300), ch}
                    : new int[] {1 + rnd.nextInt(4), 1 + rnd.nextInt(12), 1 + rnd.nextInt(12), ch};
            Tensor x = values(rnd, dims, trial % 2 == 0), g = values(rnd, dims, trial % 4 == 1);
            List<Tensor> xs = List.of(x, g, randomFloat(rnd, DType.F32, ch), randomFloat(rnd, DType.F32, ch),
                    randomFloat(rnd, DType.F32, ch), randomFloat(rnd, DType.F32, ch));
            for (Engine e : List.of(Engine.defaultEngine(), PARALLEL)) {
                List<Tensor> on = xs.stream().map(t -> t.to(e)).toList();
                List<Tensor> expected = backward(on); // eager: one op at a time
                CompiledFunction f = Jit.compileList(ColumnSumSiblingsTest::backward);
                List<Tensor> actual = f.apply(on);
                for (int k = 0; k < expected.size(); k++) assertSameBits(expected.get(k), actual.get(k));
                Graph r = new ColumnSumSiblings(new Parallel(1, Long.MAX_VALUE), true).rewrite(f.graph());
                combined += pairs(r);
            }
        }
        assertEquals(2 * 30 * 2, combined, "both pairs combined in every case");
    }

    /** A sum that reads the other's result stays a node of its own (same results). */
    @Test
    void aSumReadingTheOthersResultIsNotPaired() {
        Random rnd = new Random(11);
        Tensor x = randomFloat(rnd, DType.F32, 3, 70, 16), g = randomFloat(rnd, DType.F32, 3, 70, 16);
        CompiledFunction f = Jit.compileList(xs -> {
            Tensor s = xs.get(1).sum(0, 1);
            return List.of(s, xs.get(1).multiply(xs.get(0).subtract(s)).sum(0, 1));
        });
        List<Tensor> actual = f.apply(List.of(x, g));
        Tensor s = g.sum(0, 1);
        assertSameBits(s, actual.get(0));
        assertSameBits(g.multiply(x.subtract(s)).sum(0, 1), actual.get(1));
        assertEquals(0, pairs(new ColumnSumSiblings(new Parallel(1, Long.MAX_VALUE), true).rewrite(f.graph())));
    }

    /** The scalar oracle (no vector kernels) keeps the traced graph. */
    @Test
    void theScalarOracleKeepsTheGraph() {
        Random rnd = new Random(3);
        CompiledFunction f = Jit.compileList(ColumnSumSiblingsTest::backward);
        f.apply(List.of(randomFloat(rnd, DType.F32, 2, 3, 3, 8), randomFloat(rnd, DType.F32, 2, 3, 3, 8), randomFloat(rnd, DType.F32, 8),
                randomFloat(rnd, DType.F32, 8), randomFloat(rnd, DType.F32, 8), randomFloat(rnd, DType.F32, 8)));
        assertSame(f.graph(), new ColumnSumSiblings(new Parallel(1, Long.MAX_VALUE), false).rewrite(f.graph()));
        assertTrue(EngineConfig.defaults().vectorKernels());
    }

    /** Gaussian values, with specials (NaN, ±0, ±Inf, huge, subnormal) sprinkled in when {@code special}. */
    private static Tensor values(Random rnd, int[] dims, boolean special) {
        int n = 1;
        for (int d : dims) n *= d;
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = special && rnd.nextInt(16) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(7) - 3));
        }
        return Tensor.of(v).reshape(dims);
    }

    /** Fused nodes with two outputs. */
    private static long pairs(Graph g) {
        return g.nodes().stream().filter(n -> n.prim() instanceof Prim.Fused && n.outputs().size() == 2).count();
    }
}
