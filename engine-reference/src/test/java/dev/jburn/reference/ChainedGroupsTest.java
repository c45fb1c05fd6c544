package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;
import dev.jburn.graph.Prim;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * An Adam update, compiled: the new moments {@code m'} and {@code v'} (step outputs) and the parameter update that reads
 * them run as one node ({@link ChainedGroups}) with the bits of the eager ops, on one thread and four, with the bias
 * corrections as a scalar prologue, shapes from one element to several blocks, a broadcast per-row operand, NaN, ±0
 * and ±Inf gradients; with inputs donated, a new value takes a dying input's buffer only where no other part reads it.
 */
class ChainedGroupsTest {
    private static final float[] SPECIAL = {Float.NaN, -0f, 0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1e-30f};

    /** (p, m, v, g, t, lr, rowScale) -> (m', v', p'). */
    private static List<Tensor> adam(List<Tensor> xs) {
        Tensor p = xs.get(0), m = xs.get(1), v = xs.get(2), g = xs.get(3), t = xs.get(4), lr = xs.get(5), rows = xs.get(6);
        Tensor m2 = m.multiply(0.9).add(g.multiply(0.1));
        Tensor v2 = v.multiply(0.999).add(g.multiply(g).multiply(0.001));
        Tensor bc1 = t.multiply(0.0).add(0.9).pow(t).negate().add(1.0), bc2 = t.multiply(0.0).add(0.999).pow(t).negate().add(1.0);
        Tensor p2 = p.subtract(m2.divide(bc1).divide(v2.divide(bc2).sqrt().add(1e-8)).multiply(lr).multiply(rows));
        return List.of(m2, v2, p2);
    }

    @Test
    void theUpdateAndItsMomentsKeepTheBitsOfTheEagerOps() {
        Random rnd = new Random(9);
        int combined = 0, trials = 0;
        for (int[] dims : new int[][] {{1, 1}, {3, 7}, {17, 5}, {64, 129}, {300, 40}}) {
            for (boolean special : new boolean[] {false, true}) {
                float[] gv = new float[dims[0] * dims[1]];
                for (int i = 0; i < gv.length; i++) gv[i] = special && rnd.nextInt(6) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextGaussian();
                List<Tensor> xs = List.of(randomFloat(rnd, DType.F32, dims), randomFloat(rnd, DType.F32, dims),
                        randomFloat(rnd, DType.F32, dims).abs(), Tensor.of(gv).reshape(dims), Tensor.scalar(3f), Tensor.scalar(1e-3f),
                        randomFloat(rnd, DType.F32, dims[1]));
                for (Engine e : List.of(Engine.defaultEngine(), PARALLEL)) {
                    // donated: none; p, m, v and g (each new value may take one); g alone (two parts read it: neither may)
                    for (int[] donated : new int[][] {{}, {0, 1, 2, 3}, {3}}) {
                        List<Tensor> on = xs.stream().map(t -> t.to(e)).toList();
                        List<Tensor> expected = adam(on); // eager
                        CompiledFunction f = Jit.compileList(ChainedGroupsTest::adam, JitOptions.defaults().withDonation(donated));
                        List<Tensor> actual = f.apply(donated.length > 0 ? on.stream().map(t -> t.add(0.0)).toList() : on);
                        for (int k = 0; k < expected.size(); k++) assertSameBits(expected.get(k), actual.get(k));
                        combined += chains(new ChainedGroups(new Parallel(1, Long.MAX_VALUE), null, true).rewrite(f.graph()));
                        trials++;
                    }
                }
            }
        }
        assertEquals(trials, combined, "the update and its moments are one node in every case");
    }

    /** The scalar oracle (no vector kernels) keeps the traced graph. */
    @Test
    void theScalarOracleKeepsTheGraph() {
        Random rnd = new Random(2);
        CompiledFunction f = Jit.compileList(ChainedGroupsTest::adam);
        f.apply(List.of(randomFloat(rnd, DType.F32, 2, 3), randomFloat(rnd, DType.F32, 2, 3), randomFloat(rnd, DType.F32, 2, 3).abs(),
                randomFloat(rnd, DType.F32, 2, 3), Tensor.scalar(1f), Tensor.scalar(1e-3f), randomFloat(rnd, DType.F32, 3)));
        assertSame(f.graph(), new ChainedGroups(new Parallel(1, Long.MAX_VALUE), null, false).rewrite(f.graph()));
    }

    /** Fused nodes with three outputs. */
    private static long chains(Graph g) {
        return g.nodes().stream().filter(n -> n.prim() instanceof Prim.Fused && n.outputs().size() == 3).count();
    }
}
