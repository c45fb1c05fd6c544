package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.spi.EngineConfig;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;

import static dev.jburn.reference.JitTestSupport.VERIFY;
import static dev.jburn.reference.JitTestSupport.assertSame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paths batch norm on channels-last tensors takes: per-channel vectors ({@code [C]}, {@code [1, 1, 1, C]})
 * inside fused element-wise groups, broadcast, and in eager binary ops, and per-channel sums over N, H, W
 * split over threads. Each equals its unfused, one-thread or scalar twin bit for bit.
 */
class ChannelVectorPathsTest {
    private static final Engine TWO = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withThreads(2).withParallelThreshold(16));
    private static final Engine ORACLE = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withVectorKernels(false));

    private static Tensor random(Random r, Shape s, DType t) {
        double[] v = new double[(int) s.size()];
        for (int i = 0; i < v.length; i++) {
            int k = r.nextInt(50);
            v[i] = switch (k) {
                case 0 -> Double.NaN;
                case 1 -> Double.POSITIVE_INFINITY;
                case 2 -> -0.0;
                default -> (r.nextDouble() - 0.5) * 6;
            };
        }
        return Tensor.of(v).asType(t).reshape(s);
    }

    /** A batch-norm-like chain: {@code (x - mean) * scale * gamma + beta} with every per-channel kind of operand. */
    private static List<Tensor> normalize(List<Tensor> xs) {
        Tensor x = xs.get(0), mean = xs.get(1), gamma = xs.get(2), beta = xs.get(3);
        Shape s = x.shape();
        int r = s.rank();
        Tensor g = gamma.broadcast(s, new int[] {r - 1});
        return List.of(x.subtract(mean).multiply(g).add(beta).maximum(x.multiply(0.5)));
    }

    @Test
    void perChannelOperandsRunInOneFusedPassAndEqualTheUnfusedChain() {
        Random rnd = new Random(7);
        Shape[] shapes = {Shape.of(4, 5, 5, 32), Shape.of(3, 7, 7, 64), Shape.of(2, 3, 3, 5), Shape.of(2, 40, 40, 3), Shape.of(5, 700)};
        for (Shape s : shapes) {
            for (DType t : List.of(DType.F32, DType.F64)) {
                int c = s.dim(s.rank() - 1);
                int[] keep = new int[s.rank()];
                java.util.Arrays.fill(keep, 1);
                keep[s.rank() - 1] = c;
                Tensor x = random(rnd, s, t), mean = random(rnd, Shape.of(keep), t), gamma = random(rnd, Shape.of(c), t), beta = random(rnd, Shape.of(c), t);
                CompiledFunction f = Jit.compileList(ChannelVectorPathsTest::normalize, VERIFY);
                for (Engine e : List.of(JitTestSupport.CPU, TWO)) {
                    List<Tensor> in = List.of(x.to(e), mean.to(e), gamma.to(e), beta.to(e));
                    Tensor fused = f.apply(in).getFirst();
                    Tensor unfused = Jit.compileList(ChannelVectorPathsTest::normalize, VERIFY.withFusion(false)).apply(in).getFirst();
                    Tensor oracle = normalize(List.of(x.to(ORACLE), mean.to(ORACLE), gamma.to(ORACLE), beta.to(ORACLE))).getFirst();
                    assertSame(t + "" + s + " on " + e.name(), unfused, fused);
                    assertSame(t + "" + s + " against the oracle on " + e.name(), oracle, fused);
                }
                Node root = f.graph().nodes().getLast();
                assertTrue(root.prim() instanceof Prim.Fused fu && FusedKernels.covers(fu.body()), "one blocked pass: " + f.graph());
            }
        }
    }

    @Test
    void aBroadcastOfAChannelVectorCopiesWholeRuns() {
        Random rnd = new Random(3);
        for (int[] d : new int[][] {{4, 6, 6, 32}, {2, 3, 3, 7}, {3, 5, 2, 9, 11}}) {
            Shape out = Shape.of(d);
            int r = d.length;
            Tensor c = random(rnd, Shape.of(d[r - 1]), DType.F32);
            Tensor hw = random(rnd, Shape.of(d[r - 2], d[r - 1]), DType.S32);
            for (Engine e : List.of(JitTestSupport.CPU, TWO)) {
                float[] cv = c.toFloatArray(), got = c.to(e).broadcast(out, new int[] {r - 1}).toFloatArray();
                for (int i = 0; i < got.length; i++) assertEquals(Float.floatToRawIntBits(cv[i % cv.length]), Float.floatToRawIntBits(got[i]), "at " + i);
                long[] hv = hw.toLongArray(), hg = hw.to(e).broadcast(out, new int[] {r - 2, r - 1}).toLongArray();
                for (int i = 0; i < hg.length; i++) assertEquals(hv[i % hv.length], hg[i], "at " + i);
                // a middle axis broadcast (no contiguous run of 8) still walks element by element
                Tensor mid = random(rnd, Shape.of(d[0], 1, d[2]), DType.F32);
                int[] md = {d[0], d[1], d[2]};
                float[] mv = mid.toFloatArray(), mg = mid.to(e).broadcast(Shape.of(md)).toFloatArray();
                for (int i = 0; i < mg.length; i++) {
                    int a = i / (md[1] * md[2]), k = i % md[2];
                    assertEquals(Float.floatToRawIntBits(mv[a * md[2] + k]), Float.floatToRawIntBits(mg[i]), "mid at " + i);
                }
            }
        }
    }

    @Test
    void anEagerOpWithAChannelVectorEqualsTheOracle() {
        Random rnd = new Random(11);
        for (int[] d : new int[][] {{8, 13, 13, 32}, {3, 5, 5, 3}, {2, 9, 2047}, {2, 2, 3000}}) {
            for (DType t : List.of(DType.F32, DType.F64, DType.S32)) {
                Shape s = Shape.of(d);
                Tensor x = random(rnd, s, t), v = random(rnd, Shape.of(1, 1, d[d.length - 1]), t);
                for (Engine e : List.of(JitTestSupport.CPU, TWO)) {
                    assertSame(t + "" + s + " x*v", x.to(ORACLE).multiply(v.to(ORACLE)), x.to(e).multiply(v.to(e)));
                    assertSame(t + "" + s + " v-x", v.to(ORACLE).subtract(x.to(ORACLE)), v.to(e).subtract(x.to(e)));
                }
            }
        }
    }

    @Test
    void aColumnSumSplitOverRowsEqualsTheOneThreadLoopBitForBit() {
        Random rnd = new Random(5);
        Parallel two = new Parallel(2, 1);
        try (Arena arena = Arena.ofShared()) {
            int[][] cases = {{1, 257, 32}, {1, 256, 32}, {1, 4 * 64 + 1, 64}, {2, 1000, 7}, {1, 86528 / 8, 32}, {3, 640, 1}, {1, 129 * 64 + 1, 5}};
            for (int[] c : cases) {
                AxisSplit run = new AxisSplit(c[0], c[1], c[2]);
                long n = (long) c[0] * c[1] * c[2];
                MemorySegment src = arena.allocate(n * Float.BYTES, 64);
                boolean zeros = rnd.nextBoolean();
                for (long i = 0; i < n; i++) {
                    int k = rnd.nextInt(300);
                    float v = zeros && i % c[2] == 0 ? -0.0f : k == 0 ? Float.NaN : k == 1 ? Float.NEGATIVE_INFINITY : (float) ((rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(9) - 4));
                    src.setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
                }
                MemorySegment one = arena.allocate((long) c[0] * c[2] * Float.BYTES, 64), split = arena.allocate((long) c[0] * c[2] * Float.BYTES, 64);
                for (long o = 0; o < c[0]; o++) VectorReductions.columnsF32(src, one, run, o, 0, c[2], VectorReductions.SUM);
                VectorReductions.columnSumsF32(two, src, split, run);
                for (long j = 0; j < (long) c[0] * c[2]; j++) {
                    assertEquals(Float.floatToRawIntBits(one.getAtIndex(ValueLayout.JAVA_FLOAT, j)), Float.floatToRawIntBits(split.getAtIndex(ValueLayout.JAVA_FLOAT, j)),
                            java.util.Arrays.toString(c) + " column " + j);
                }
            }
        } finally {
            two.shutdown();
        }
    }
}
