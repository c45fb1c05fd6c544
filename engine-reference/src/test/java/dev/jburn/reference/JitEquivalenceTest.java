package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.TopK;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Prim;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.jburn.reference.JitTestSupport.assertJitEqualsEager;
import static dev.jburn.reference.JitTestSupport.count;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Compiled functions give exactly what the same code gives eagerly. */
class JitEquivalenceTest {
    private static final Tensor X23 = Tensor.of(new float[][] {{1.5f, -2f, 3f}, {-0.25f, 5f, Float.NaN}});
    private static final Tensor POS23 = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});

    @Test
    void elementwiseChains() {
        assertJitEqualsEager("chain", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.exp().add(1).multiply(x).subtract(x.abs().sqrt()).divide(2.0).tanh().apply(UnaryOp.ERF));
        }, X23);
        assertJitEqualsEager("leaky relu", xs -> List.of(xs.get(0).greater(0).select(xs.get(0), xs.get(0).multiply(0.01))), X23);
        assertJitEqualsEager("clip", xs -> List.of(xs.get(0).clip(-1.0, 2.0), xs.get(0).clip(Tensor.scalar(0f), Tensor.of(1f, 2f, 3f))), X23);
        assertJitEqualsEager("pow, atan2, min, max", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.pow(2), x.atan2(x.add(1)), x.minimum(0.5), x.maximum(x.negate()), x.isNan(), x.isInfinity().logicalNot());
        }, X23);
    }

    @Test
    void promotionBroadcastingAndWeakScalars() {
        Tensor a = Tensor.of(new int[][] {{1}, {2}});
        Tensor b = Tensor.of(0.5f, 1.5f, -2f);
        assertJitEqualsEager("s32[2,1] + f32[3]", xs -> List.of(xs.get(0).add(xs.get(1)).multiply(xs.get(0))), a, b);
        Tensor u8 = Tensor.fromArray(new int[] {250, 3, 7}, DType.U8);
        assertJitEqualsEager("u8 weak scalars", xs -> List.of(xs.get(0).add(10), xs.get(0).add(300), xs.get(0).multiply(-1),
                xs.get(0).divide(2), xs.get(0).quotient(2), xs.get(0).bitwiseAnd(6), xs.get(0).leftShift(1)), u8);
        Tensor ints = Tensor.of(5, -3, 0);
        assertJitEqualsEager("integer isNan (a zero buffer)", xs -> List.of(xs.get(0).isNan(), xs.get(0).abs(), xs.get(0).sign()), ints);
        assertJitEqualsEager("pred arithmetic", xs -> List.of(xs.get(0).greater(0).add(xs.get(0).less(1))), ints);
    }

    @Test
    void reductionsAndScans() {
        assertJitEqualsEager("reductions", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.sum(), x.sum(new int[] {1}, true), x.mean(new int[] {0}), x.max(new int[] {-1}, true),
                    x.min(), x.product(new int[] {0}), x.argmax(1, true, false), x.argmin(), x.logSumExp(new int[] {1}, true),
                    x.cumulativeSum(1), x.cumulativeMax(0, true), x.any(), x.greater(0).all(new int[] {1}));
        }, POS23);
        assertJitEqualsEager("reductions with NaN", xs -> List.of(xs.get(0).sum(new int[] {1}), xs.get(0).max()), X23);
        Tensor empty = Tensor.zeros(Shape.of(0, 3), DType.F32);
        assertJitEqualsEager("empty reductions", xs -> List.of(xs.get(0).sum(new int[] {0}), xs.get(0).max(new int[] {0}),
                xs.get(0).mean()), empty);
        Tensor s8 = Tensor.fromArray(new int[][] {{100, 100}, {-128, 1}}, DType.S8);
        assertJitEqualsEager("widening sums", xs -> List.of(xs.get(0).sum(new int[] {1}), xs.get(0).cumulativeSum(0)), s8);
    }

    @Test
    void movement() {
        assertJitEqualsEager("reshape and transpose", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.reshape(3, 2).transpose().reshape(-1), x.transpose().transpose(), x.newAxis(0).squeeze(),
                    x.transpose(1, 0).reshape(Shape.of(6)).reshape(2, 3));
        }, POS23);
        assertJitEqualsEager("slice, pad, reverse, tile", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.slice(new int[] {0, 1}, new int[] {2, 2}), x.slice(new int[] {0, 0}, new int[] {2, 3}, new int[] {1, 2}),
                    x.pad(0.5, new int[][] {{1, 0, 0}, {0, 2, 1}}), x.pad(Tensor.scalar(-1f), new int[][] {{-1, 0, 0}, {1, 1, 0}}),
                    x.reverse(1), x.tile(2, 1), x.broadcast(Shape.of(4, 2, 3)), x.slice(new int[] {1, 0}, new int[] {1, 3}).broadcast(Shape.of(2, 3)));
        }, POS23);
        assertJitEqualsEager("concatenate, stack, putSlice", xs -> {
            Tensor x = xs.get(0);
            return List.of(Tensor.concatenate(0, x, x.multiply(2)), Tensor.stack(1, x, x.add(1)),
                    x.putSlice(new int[] {1, 1}, Tensor.of(new float[][] {{9, 8}})), Tensor.concatenate(1, x, Tensor.of(new int[][] {{7}, {8}})));
        }, POS23);
    }

    @Test
    void dotIndexingSorting() {
        Tensor a = Tensor.of(new float[][] {{1, 2}, {3, 4}, {5, 6}});
        Tensor b = Tensor.of(new float[][] {{1, -1, 0.5f}, {2, 0, 1}});
        assertJitEqualsEager("dot", xs -> {
            Tensor p = xs.get(0), q = xs.get(1);
            return List.of(p.dot(q), q.dot(p), p.dot(Tensor.of(1f, 1f)), p.reshape(1, 3, 2).dot(new int[] {2}, new int[] {0}, q.reshape(1, 2, 3),
                    new int[] {1}, new int[] {0}), p.dot(Tensor.scalar(2f)));
        }, a, b);
        Tensor idx = Tensor.of(2, 0, 2);
        assertJitEqualsEager("take, gather, indexedAdd", xs -> {
            Tensor t = xs.get(0), i = xs.get(1);
            return List.of(t.take(i), t.take(i.remainder(2), 1), t.gather(Tensor.of(new int[][] {{1, 0}, {2, 1}})),
                    t.indexedAdd(Tensor.of(new int[][] {{0, 0}, {0, 0}, {2, 1}}), Tensor.of(1f, 2f, 3f)),
                    t.takeAlongAxis(Tensor.of(new int[][] {{1}, {0}, {1}}), 1));
        }, a, idx);
        assertJitEqualsEager("sort, argsort, topK", xs -> {
            Tensor x = xs.get(0);
            TopK top = x.topK(2);
            return List.of(x.sort(1), x.argsort(1, true), top.values(), top.indices(), x.sort(0, true));
        }, X23);
    }

    @Test
    void constantsCreatedInsideTheFunction() {
        CompiledFunction f = assertJitEqualsEager("constants", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.add(Tensor.of(1f, 2f, 3f)).multiply(Tensor.full(Shape.of(2, 3), DType.F32, 2)),
                    x.add(Tensor.iota(Shape.of(2, 3), DType.F32, 0)), Tensor.eye(2, DType.F32).dot(x),
                    x.add(Tensor.arange(3).asType(DType.F32)), Tensor.scalar(3f), Tensor.linspace(0, 1, 3, DType.F64));
        }, POS23);
        assertEquals(0, count(f.graph(), Prim.Reshape.class), "views of constants fold away:\n" + f.graph());
    }

    @Test
    void capturedOuterTensorsBecomeConstants() {
        Tensor w = Tensor.of(new float[][] {{1, 0}, {0, 1}, {1, 1}});
        Tensor bias = Tensor.of(0.5f, -0.5f);
        CompiledFunction f = assertJitEqualsEager("captured", xs -> List.of(xs.get(0).dot(w).add(bias).maximum(0.0)), POS23);
        assertEquals(1, count(f.graph(), Prim.Dot.class));
        Tensor onOracle = Tensor.of(1f, 2f).to(ElementwiseTestSupport.ORACLE);
        JitTestSupport.assertSame("captured from another engine", Tensor.of(new float[] {2, 4}),
                Jit.compile(x -> x.add(onOracle)).apply(Tensor.of(1f, 2f)));
    }

    @Test
    void randomWithAConstantKey() {
        assertJitEqualsEager("random", xs -> {
            Tensor key = Prng.key(7);
            Prng.Sample s = Prng.normal(key, Shape.of(2, 3), DType.F32, 0, 1);
            Tensor[] keys = Prng.split(s.nextKey(), 2);
            Tensor u = Prng.uniform(keys[1], Shape.of(3), DType.F32, 0, 1).values();
            Tensor k2 = Prng.split(key).slice(new int[] {1, 0}, new int[] {1, 2}).reshape(2);   // a constant computed by the engine
            return List.of(xs.get(0).add(s.values()).multiply(u), Prng.randint(k2, 0, 10, Shape.of(4), DType.S32).values());
        }, POS23);
    }

    @Test
    void bitcastsCastsAndLinearAlgebra() {
        assertJitEqualsEager("bitcast and asType", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.bitcast(DType.S32).bitwiseAnd(0xFF).asType(DType.F32), x.asType(DType.BF16).asType(DType.F64), x.asType(DType.F32));
        }, POS23);
        Tensor spd = Tensor.of(new double[][] {{4, 2, 0.4}, {2, 5, 1}, {0.4, 1, 3}});
        assertJitEqualsEager("linalg", xs -> {
            Tensor a = xs.get(0);
            LinAlg.QR qr = LinAlg.qr(a);
            LinAlg.LU lu = LinAlg.lu(a);
            LinAlg.SVD svd = LinAlg.svd(a, false);
            Tensor l = LinAlg.cholesky(a);
            return List.of(l, LinAlg.triangularSolve(l, Tensor.of(1.0, 2.0, 3.0)), qr.q(), qr.r(), lu.p(), lu.u(), svd.s(),
                    LinAlg.eigh(a).eigenvalues());
        }, spd);
    }

    @Test
    void outputsThatAreInputsOrConstants() {
        assertJitEqualsEager("identity and constant outputs", xs -> List.of(xs.get(0), xs.get(0), Tensor.scalar(3), xs.get(1).exp()),
                POS23, Tensor.scalar(0.5));
        assertJitEqualsEager("no inputs", xs -> List.of(Tensor.iota(Shape.of(3), DType.S32).multiply(2)));
        assertJitEqualsEager("scalar input", xs -> List.of(xs.get(0).multiply(xs.get(0)).add(1)), Tensor.scalar(3.0));
    }

    @Test
    void smallMlp() {
        java.util.Random r = new java.util.Random(1);
        float[][] w1 = new float[8][16], w2 = new float[16][4], x = new float[5][8];
        for (float[] row : w1) for (int j = 0; j < row.length; j++) row[j] = (float) r.nextGaussian();
        for (float[] row : w2) for (int j = 0; j < row.length; j++) row[j] = (float) r.nextGaussian();
        for (float[] row : x) for (int j = 0; j < row.length; j++) row[j] = (float) r.nextGaussian();
        assertJitEqualsEager("mlp", xs -> {
            Tensor h = xs.get(0).dot(xs.get(1)).add(xs.get(3)).maximum(0.0);
            Tensor logits = h.dot(xs.get(2));
            Tensor shifted = logits.subtract(logits.max(new int[] {1}, true));
            Tensor probs = shifted.exp().divide(shifted.exp().sum(new int[] {1}, true));
            return List.of(probs, logits.argmax(1), probs.log().mean());
        }, Tensor.of(x), Tensor.of(w1), Tensor.of(w2), Tensor.zeros(Shape.of(16), DType.F32).add(0.1));
    }

    @Test
    void theOracleEngineRunsItsOwnGraph() {
        Tensor x = POS23.to(ElementwiseTestSupport.ORACLE);
        CompiledFunction f = Jit.compile(t -> t.exp().sum(new int[] {0}));
        Tensor y = f.apply(x);
        assertEquals(ElementwiseTestSupport.ORACLE, y.engine());
        JitTestSupport.assertSame("oracle", x.exp().sum(new int[] {0}), y);
    }
}
