package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Prim;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostMemory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static dev.jburn.reference.JitTestSupport.VERIFY;
import static dev.jburn.reference.JitTestSupport.assertSame;
import static dev.jburn.reference.JitTestSupport.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fusion pass, fused execution on the reference engine, and buffer donation. */
class JitFusionTest {
    private static final Engine PARALLEL = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withParallelThreshold(16));
    private static final Engine ORACLE = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withVectorKernels(false));

    // ---- what fuses, and the report -----------------------------------------------------------

    @Test
    void multiplyAddFusesIntoOneNode() {
        CompiledFunction f = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))), VERIFY);
        Tensor a = Tensor.of(1f, 2f, 3f), b = Tensor.of(4f, 5f, 6f), c = Tensor.of(0.5f, -1f, Float.NaN);
        assertSame("a*b+c", a.multiply(b).add(c), f.apply(List.of(a, b, c)).getFirst());
        assertEquals(1, f.graph().nodes().size(), f.graph().toString());
        assertTrue(f.graph().nodes().getFirst().prim() instanceof Prim.Fused, f.graph().toString());
        List<String> report = f.passReport().changes("fusion");
        assertTrue(report.getFirst().matches("fused 2 nodes into %\\d+: multiply add"), report.toString());
        assertTrue(f.graph().toString().contains("fused(%0, %1, %2)"), f.graph().toString());
        assertTrue(FusedKernels.covers(((Prim.Fused) f.graph().nodes().getFirst().prim()).body()), "runs in one blocked pass");
    }

    @Test
    void theBlockedRunnerCoversScalarsAndDeclinesWhatItCannotRun() {
        CompiledFunction scalars = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(2.0).exp().maximum(xs.get(0))), VERIFY);
        scalars.apply(List.of(Tensor.of(1f, 2f, 3f), Tensor.scalar(2f)));
        assertTrue(FusedKernels.covers(((Prim.Fused) scalars.graph().nodes().getFirst().prim()).body()), scalars.graph().toString());
        CompiledFunction select = Jit.compileList(xs -> List.of(xs.get(0).greater(xs.get(1)).select(xs.get(0), xs.get(1)).add(1.0)), VERIFY);
        assertSame("select chain", Tensor.of(2f, 4f), select.apply(List.of(Tensor.of(1f, 3f), Tensor.of(0f, 0f))).getFirst());
        assertTrue(FusedKernels.covers(((Prim.Fused) select.graph().nodes().getFirst().prim()).body()), "comparison and select run in the blocked pass");
    }

    @Test
    void theReportSaysWhyAChainBroke() {
        // x·y has two full-size inputs: recomputing it in its readers' group would read more than storing it
        CompiledFunction shared = Jit.compileList(xs -> {
            Tensor e = xs.get(0).multiply(xs.get(1));
            return List.of(e.add(1.0).multiply(e));
        }, VERIFY);
        shared.apply(List.of(Tensor.of(1f, 2f), Tensor.of(3f, 4f)));
        String r = String.join("\n", shared.passReport().changes("fusion"));
        assertTrue(r.contains("chain broken at") && r.contains("= multiply: its result has 2 users"), r);
        // exp(x) has one: both readers' group computes it once
        CompiledFunction diamond = Jit.compile(x -> {
            Tensor e = x.exp();
            return e.add(1.0).multiply(e);
        }, VERIFY);
        assertSame("(e^x + 1)·e^x", Tensor.of(1f, 2f).exp().add(1.0).multiply(Tensor.of(1f, 2f).exp()), diamond.apply(Tensor.of(1f, 2f)));
        assertEquals(List.of("fused"), diamond.graph().nodes().stream().map(k -> k.prim().name()).toList(), diamond.graph().toString());
        assertTrue(diamond.passReport().changes("fusion").stream().anyMatch(l -> l.matches("recomputes %\\d+ = exp f32\\[2\\] in 1 group instead of storing it")),
                diamond.passReport().toString());

        CompiledFunction dot = Jit.compileList(xs -> List.of(xs.get(0).dot(xs.get(1)).add(xs.get(2)).maximum(0.0)), VERIFY);
        dot.apply(List.of(Tensor.of(new float[][] {{1, 2}, {3, 4}}), Tensor.of(new float[][] {{1, 0}, {0, 1}}), Tensor.of(-2f, 0.5f)));
        r = String.join("\n", dot.passReport().changes("fusion"));
        assertTrue(r.contains("= dot: dot is not element-wise"), r);
        assertEquals(1, count(dot.graph(), Prim.Dot.class));

        CompiledFunction shape = Jit.compileList(xs -> List.of(xs.get(0).exp().add(xs.get(1)).negate()), VERIFY);
        shape.apply(List.of(Tensor.of(new float[][] {{1}, {2}}), Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}})));
        r = String.join("\n", shape.passReport().changes("fusion"));
        assertTrue(r.contains("= exp: shape change"), r);
    }

    @Test
    void aTrailingSumFusesWithItsChain() {
        CompiledFunction f = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(1.0).sum(new int[] {1})), VERIFY);
        Tensor a = Tensor.iota(Shape.of(4, 5), DType.F32), b = Tensor.iota(Shape.of(4, 5), DType.F32).divide(7);
        assertSame("sum(a*b+1, 1)", a.multiply(b).add(1.0).sum(new int[] {1}), f.apply(List.of(a, b)).getFirst());
        assertEquals(1, f.graph().nodes().size(), f.graph().toString());
        assertTrue(f.passReport().changes("fusion").getFirst().contains("multiply add sum"), f.passReport().toString());
        assertTrue(FusedKernels.covers(((Prim.Fused) f.graph().nodes().getFirst().prim()).body()), "the chain and its sum run in one pass");

        // rows longer than a block: partial results per block, combined (another summation order, so a tolerance)
        Tensor p = Tensor.iota(Shape.of(3, 10_000), DType.F32).divide(10_000.0), y = p.multiply(0.5);
        CompiledFunction sse = Jit.compileList(xs -> List.of(xs.get(0).subtract(xs.get(1)).abs().multiply(3.0).sum(new int[] {1})), VERIFY);
        float[] expected = p.subtract(y).abs().multiply(3.0).sum(new int[] {1}).toFloatArray();
        float[] actual = sse.apply(List.of(p, y)).getFirst().toFloatArray();
        for (int i = 0; i < 3; i++) assertEquals(expected[i], actual[i], 1e-5 * Math.abs(expected[i]), "row " + i);
        assertTrue(FusedKernels.covers(((Prim.Fused) sse.graph().nodes().getFirst().prim()).body()), sse.graph().toString());
        // a max over every axis, NaN included, equals the unfused result bit for bit
        Tensor withNan = Tensor.of(new float[][] {{1, 2}, {Float.NaN, 4}});
        CompiledFunction max = Jit.compileList(xs -> List.of(xs.get(0).exp().negate().max()), VERIFY);
        assertSame("max(-exp(x))", withNan.exp().negate().max(), max.apply(List.of(withNan)).getFirst());

        // a max over leading axes is not a root: it stays outside
        CompiledFunction leadingMax = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(1.0).max(new int[] {0})), VERIFY);
        assertSame("max(a*b+1, 0)", a.multiply(b).add(1.0).max(new int[] {0}), leadingMax.apply(List.of(a, b)).getFirst());
        assertEquals(1, count(leadingMax.graph(), Prim.Reduce.class), leadingMax.graph().toString());
    }

    /** Batch norm's statistics: {@code sum((x - m)·(x - m))} over all but the channels of {@code [N, H, W, C]}. */
    private static Tensor centredSquares(Tensor x, Tensor m) {
        Tensor d = x.subtract(m);
        return d.multiply(d).sum(new int[] {0, 1, 2});
    }

    @Test
    void aLeadingSumFusesWithItsChainWithTheUnfusedBits() {
        Random r = new Random(11);
        for (int n : new int[] {1, 2, 64, 65, 66, 129, 300}) {
            for (int c : new int[] {1, 3, 16, 32, 40}) {
                float[] xs = new float[n * 2 * 3 * c];
                for (int i = 0; i < xs.length; i++) xs[i] = (float) r.nextGaussian() * 3;
                if (c > 2) {
                    for (int i = 0; i < xs.length; i += c) xs[i] = -0.0f; // a column of -0.0: sums to -0.0, not +0.0
                    xs[xs.length - 2] = Float.NaN;
                    xs[1] = Float.POSITIVE_INFINITY;
                }
                Tensor x = Tensor.of(xs).reshape(Shape.of(n, 2, 3, c)), m = Tensor.of(new float[c]).reshape(Shape.of(1, 1, 1, c));
                for (Engine e : List.of(JitTestSupport.CPU, PARALLEL)) {
                    List<Tensor> on = List.of(x.to(e), m.to(e));
                    String what = "n=" + n + " c=" + c + " on " + e.name();
                    CompiledFunction sq = Jit.compileList(xs2 -> List.of(centredSquares(xs2.get(0), xs2.get(1))), VERIFY);
                    assertSame(what, centredSquares(on.get(0), on.get(1)), sq.apply(on).getFirst());
                    assertEquals(List.of("fused"), sq.graph().nodes().stream().map(k -> k.prim().name()).toList(), what + ": " + sq.graph());
                    assertTrue(FusedKernels.covers(((Prim.Fused) sq.graph().nodes().getFirst().prim()).body()), what);
                    // the plain sum of -0.0s (no chain) too
                    CompiledFunction plain = Jit.compileList(xs2 -> List.of(xs2.get(0).negate().sum(new int[] {0, 1})), VERIFY);
                    assertSame(what + " sum(-x)", on.get(0).negate().sum(new int[] {0, 1}), plain.apply(on.subList(0, 1)).getFirst());
                }
            }
        }
        CompiledFunction sq = Jit.compileList(xs2 -> List.of(centredSquares(xs2.get(0), xs2.get(1))), VERIFY);
        sq.apply(List.of(Tensor.zeros(Shape.of(2, 2, 3, 4), DType.F32), Tensor.zeros(Shape.of(1, 1, 1, 4), DType.F32)));
        assertTrue(sq.passReport().changes("fusion").getFirst().contains("subtract multiply sum"), "d·d reads d twice yet d joins the group: "
                + sq.passReport());
    }

    /** Batch norm's statistic and gradient sums: {@code d = x - m} read by {@code sum(d·d)} and {@code sum(g·d)} over {@code N, H, W}. */
    private static List<Tensor> centredSums(List<Tensor> xs) {
        Tensor d = xs.get(0).subtract(xs.get(1));
        int[] nhw = {0, 1, 2};
        return List.of(d.multiply(d).sum(nhw), xs.get(2).multiply(d).sum(nhw));
    }

    @Test
    void aCentreReadByTwoSumsIsRecomputedInBothWithTheUnfusedBits() {
        Random r = new Random(5);
        for (int n : new int[] {1, 3, 65}) {
            for (int c : new int[] {3, 32}) {
                List<Tensor> in = List.of(randomTensor(r, Shape.of(n, 4, 5, c), DType.F32), randomTensor(r, Shape.of(1, 1, 1, c), DType.F32),
                        randomTensor(r, Shape.of(n, 4, 5, c), DType.F32));
                for (Engine e : List.of(JitTestSupport.CPU, PARALLEL, ORACLE)) {
                    List<Tensor> on = in.stream().map(x -> x.to(e)).toList();
                    String what = "n=" + n + " c=" + c + " on " + e.name();
                    CompiledFunction f = Jit.compileList(JitFusionTest::centredSums, VERIFY);
                    List<Tensor> expected = Jit.compileList(JitFusionTest::centredSums, VERIFY.withFusion(false)).apply(on);
                    assertSame(what, expected, f.apply(on));
                    assertSame(what + " eager", centredSums(on), f.apply(on));
                    if (!e.capabilities().fusesLeadingSums()) continue;
                    assertEquals(List.of("fused", "fused"), f.graph().nodes().stream().map(k -> k.prim().name()).toList(), what + ": " + f.graph());
                    for (var k : f.graph().nodes()) {
                        Prim.Fused fused = (Prim.Fused) k.prim();
                        assertEquals(List.of("subtract", "multiply", "sum"), fused.body().nodes().stream().map(b -> b.prim().name()).toList(), what);
                        assertTrue(FusedKernels.covers(fused.body()), what + ": " + fused.body());
                    }
                    assertTrue(f.passReport().changes("fusion").stream().anyMatch(l -> l.contains("= subtract f32[" + n + ",4,5," + c + "] in 2 groups")),
                            f.passReport().toString());
                }
            }
        }
    }

    /** Adam's update shape: {@code c = 1 - β^t} for two βs, read by a multi-block group and a small one; {@code t + 1} is an output. */
    private static List<Tensor> adamLike(List<Tensor> xs) {
        Tensor x = xs.get(0), y = xs.get(1), t = xs.get(2);
        Tensor c1 = t.multiply(0.0).add(0.9).pow(t).negate().add(1.0);
        Tensor c2 = t.multiply(0.0).add(0.999).pow(t).negate().add(1.0);
        return List.of(x.divide(c1).divide(x.abs().divide(c2).sqrt().add(1e-8)), y.multiply(c1).add(y).negate(), t.add(1.0));
    }

    @Test
    void scalarChainsReadBySeveralGroupsRunInsideEachWithTheSameBits() {
        for (DType dt : List.of(DType.F32, DType.F64)) {
            Random r = new Random(7);
            List<Tensor> in = List.of(randomTensor(r, Shape.of(3, 1500), dt), randomTensor(r, Shape.of(7), dt), Tensor.scalar(3.0).asType(dt));
            for (Engine e : List.of(JitTestSupport.CPU, PARALLEL, ORACLE)) {
                List<Tensor> on = in.stream().map(x -> x.to(e)).toList();
                String what = dt + " on " + e.name();
                CompiledFunction copied = Jit.compileList(JitFusionTest::adamLike, VERIFY);
                List<Tensor> expected = adamLike(on);
                assertSame(what, expected, copied.apply(on));
                assertSame(what + " without copies", expected, Jit.compileList(JitFusionTest::adamLike, VERIFY.withRematerializedScalars(false)).apply(on));
                assertSame(what + " unfused", expected, Jit.compileList(JitFusionTest::adamLike, VERIFY.withFusion(false)).apply(on));

                // two groups that each compute c1 (and the first c2) themselves, and t + 1 once, as an output (its 1.0 a node for it)
                assertEquals(List.of("constant", "fused", "fused", "add"), copied.graph().nodes().stream().map(n -> n.prim().name()).toList(),
                        copied.graph().toString());
                for (var n : copied.graph().nodes().subList(1, 3)) {
                    Prim.Fused f = (Prim.Fused) n.prim();
                    assertTrue(f.body().nodes().stream().anyMatch(b -> b.prim().name().equals("pow")), f.body().toString());
                    assertTrue(FusedKernels.covers(f.body()), "the blocked runner takes the scalar part as a prologue: " + f.body());
                }
                assertTrue(copied.passReport().changes("fusion").stream().anyMatch(l -> l.contains("recomputes 9 scalar nodes")), copied.passReport().toString());
            }
        }
    }

    @Test
    void theScalarPrologueComputesTheKernelsBitsOrDeclines() {
        for (DType dt : List.of(DType.F32, DType.F64)) {
            for (double t : new double[] {1, 3, 57, -2.5, 0, Double.NaN}) {
                dev.jburn.graph.Graph g = Jit.trace(xs -> List.of(xs.get(0).multiply(0.0).add(0.9).pow(xs.get(0)).negate().add(1.0)
                        .divide(xs.get(0).abs().sqrt().subtract(0.5))), List.of(new dev.jburn.graph.TensorType(dt, Shape.scalar())), ORACLE);
                Tensor x = Tensor.scalar(t).asType(dt);
                java.lang.foreign.MemorySegment in = java.lang.foreign.MemorySegment.ofArray(x.toDoubleArray());
                if (dt == DType.F32) in = java.lang.foreign.MemorySegment.ofArray(x.toFloatArray());
                java.lang.foreign.MemorySegment[] got = ScalarPrologue.evaluate(g, List.of(in));
                Tensor expected = dev.jburn.graph.Interpreter.run(g, JitTestSupport.CPU, List.of(x)).getFirst();
                double value = dev.jburn.spi.HostElements.getDouble(got[0], dt, 0);
                assertSame(dt + " t=" + t, expected, Tensor.scalar(value).asType(dt));
            }
            dev.jburn.graph.Graph withExp = Jit.trace(xs -> List.of(xs.get(0).exp().add(1.0)), List.of(new dev.jburn.graph.TensorType(dt, Shape.scalar())), ORACLE);
            assertEquals(null, ScalarPrologue.evaluate(withExp, List.of(java.lang.foreign.MemorySegment.ofArray(new double[1]))),
                    "exp has vector and scalar kernels that may round differently: the backend computes it");
        }
    }

    // ---- fused == unfused ---------------------------------------------------------------------

    /** A random element-wise chain over three inputs; the same seed gives the same chain in the trace and eagerly. */
    private static Function<List<Tensor>, List<Tensor>> chain(long seed, boolean transcendental, boolean reduce) {
        return xs -> {
            Random r = new Random(seed);
            Tensor cur = xs.get(0);
            int ops = 2 + r.nextInt(7);
            for (int i = 0; i < ops; i++) {
                Tensor other = xs.get(r.nextInt(xs.size()));
                int pick = r.nextInt(transcendental ? 14 : 11);
                cur = switch (pick) {
                    case 0 -> cur.add(other);
                    case 1 -> cur.subtract(other);
                    case 2 -> other.multiply(cur);
                    case 3 -> cur.divide(other);
                    case 4 -> cur.minimum(other);
                    case 5 -> other.maximum(cur);
                    case 6 -> cur.negate();
                    case 7 -> cur.abs();
                    case 8 -> cur.multiply(2.5);
                    case 9 -> cur.greater(other).select(cur, other);
                    case 10 -> cur.sqrt();
                    case 11 -> cur.exp();
                    case 12 -> cur.tanh();
                    default -> cur.sigmoid();
                };
            }
            if (reduce && cur.shape().rank() > 0) cur = cur.sum(new int[] {cur.shape().rank() - 1});
            return List.of(cur);
        };
    }

    private static Tensor randomTensor(Random r, Shape s, DType t) {
        int n = (int) s.size();
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(40);
            v[i] = switch (k) {
                case 0 -> Double.NaN;
                case 1 -> Double.POSITIVE_INFINITY;
                case 2 -> Double.NEGATIVE_INFINITY;
                case 3 -> -0.0;
                default -> (r.nextDouble() - 0.5) * 8;
            };
        }
        return Tensor.of(v).asType(t).reshape(s);
    }

    @Test
    void randomChainsFusedEqualUnfusedAndEager() {
        Random r = new Random(42);
        Shape[] shapes = {Shape.scalar(), Shape.of(7), Shape.of(3, 5), Shape.of(3, 1500), Shape.of(2, 3, 700), Shape.of(0, 4)};
        for (int trial = 0; trial < 120; trial++) {
            Shape s = shapes[r.nextInt(shapes.length)];
            DType t = r.nextBoolean() ? DType.F32 : DType.F64;
            boolean transcendental = r.nextInt(3) == 0;
            boolean reduce = r.nextInt(4) == 0;
            Shape second = r.nextInt(3) == 0 ? Shape.scalar() : s;
            Shape third = s.rank() > 0 && r.nextBoolean() ? Shape.of(s.dims()[s.rank() - 1]) : s;
            Tensor a = randomTensor(r, s, t), b = randomTensor(r, second, t), c = randomTensor(r, third, t);
            long seed = r.nextLong();
            Function<List<Tensor>, List<Tensor>> fn = chain(seed, transcendental, reduce);
            String what = "trial " + trial + " " + t + s + " seed " + seed;
            for (Engine e : List.of(JitTestSupport.CPU, PARALLEL, ORACLE)) {
                List<Tensor> in = List.of(a.to(e), b.to(e), c.to(e));
                Tensor eager = fn.apply(in).getFirst();
                Tensor fused = Jit.compileList(fn, VERIFY).apply(in).getFirst();
                Tensor unfused = Jit.compileList(fn, VERIFY.withFusion(false)).apply(in).getFirst();
                if (transcendental || reduce) {
                    assertClose(what + " on " + e.name(), unfused, fused);
                    assertClose(what + " eager on " + e.name(), eager, fused);
                } else {
                    assertSame(what + " on " + e.name(), unfused, fused);
                    assertSame(what + " eager on " + e.name(), eager, fused);
                }
            }
        }
    }

    /** Equal dtype and shape; elements within a few ulps (vector and scalar transcendental lanes differ there). */
    private static void assertClose(String what, Tensor expected, Tensor actual) {
        assertEquals(expected.dtype(), actual.dtype(), what);
        assertEquals(expected.shape(), actual.shape(), what);
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        double tol = expected.dtype() == DType.F32 ? 1e-5 : 1e-12;
        for (int i = 0; i < e.length; i++) {
            if (Double.isNaN(e[i]) || Double.isNaN(a[i])) {
                assertTrue(Double.isNaN(e[i]) && Double.isNaN(a[i]), what + " at " + i + ": " + e[i] + " vs " + a[i]);
            } else if (Double.isInfinite(e[i]) || Double.isInfinite(a[i])) {
                assertEquals(e[i], a[i], what + " at " + i);
            } else {
                assertEquals(e[i], a[i], tol * Math.max(1, Math.abs(e[i])), what + " at " + i);
            }
        }
    }

    // ---- donation -----------------------------------------------------------------------------

    @Test
    void aDonatedInputTakesTheOutputAndIsClosed() {
        CompiledFunction step = Jit.compileList(xs -> List.of(xs.get(0).subtract(xs.get(1).multiply(0.1))), VERIFY.withDonation(0));
        Tensor g = Tensor.iota(Shape.of(10_000), DType.F32);
        step.apply(List.of(Tensor.iota(Shape.of(10_000), DType.F32), g)).getFirst().close(); // compile once
        Tensor p = Tensor.iota(Shape.of(10_000), DType.F32).multiply(3);
        Tensor expected = p.subtract(g.multiply(0.1));
        HostMemory.collect(); // earlier tests' forgotten tensors, freed by cleaners, would move the count between the reads
        long before = HostMemory.live();
        Tensor updated = step.apply(List.of(p, g)).getFirst();
        long after = HostMemory.live();
        assertTrue(p.isClosed(), "the donated input is closed");
        assertThrows(JBurnException.class, p::toDoubleArray);
        assertEquals(before, after, "the update wrote into p's memory: no new buffer is live");
        assertSame("p - 0.1*g", expected, updated);
        assertTrue(!g.isClosed(), "an input that is not donated stays open");

        // Without donation the output is a new buffer.
        CompiledFunction plain = Jit.compileList(xs -> List.of(xs.get(0).subtract(xs.get(1).multiply(0.1))), VERIFY);
        Tensor q = Tensor.iota(Shape.of(10_000), DType.F32);
        plain.apply(List.of(q, g)).getFirst().close();
        HostMemory.collect();
        long b2 = HostMemory.live();
        Tensor out = plain.apply(List.of(q, g)).getFirst();
        assertEquals(b2 + 40_000, HostMemory.live(), "a fresh output buffer");
        out.close();
        assertTrue(!q.isClosed());
    }

    @Test
    void aDonatedInputSharedWithAViewIsNotOverwritten() {
        CompiledFunction step = Jit.compileList(xs -> List.of(xs.get(0).add(xs.get(1)).multiply(2.0)), VERIFY.withDonation(0));
        Tensor p = Tensor.of(1f, 2f, 3f, 4f);
        Tensor view = p.reshape(2, 2); // shares p's buffer
        Tensor out = step.apply(List.of(p, Tensor.of(1f, 1f, 1f, 1f))).getFirst();
        assertSame("(p+1)*2", Tensor.of(4f, 6f, 8f, 10f), out);
        assertSame("the view still reads the old values", Tensor.of(new float[][] {{1, 2}, {3, 4}}), view);
    }

    @Test
    void aDonatedInputStillReadLaterOrReturnedIsNotOverwritten() {
        CompiledFunction later = Jit.compileList(xs -> List.of(xs.get(0).multiply(2.0).add(xs.get(1)), xs.get(0).sum()), VERIFY.withDonation(0));
        List<Tensor> out = later.apply(List.of(Tensor.of(1f, 2f, 3f), Tensor.of(1f, 1f, 1f)));
        assertSame("2p+g", Tensor.of(3f, 5f, 7f), out.get(0));
        assertSame("sum(p) reads p after the fused node", Tensor.scalar(6f), out.get(1));

        CompiledFunction returned = Jit.compileList(xs -> List.of(xs.get(0).add(1.0).multiply(2.0), xs.get(0)), VERIFY.withDonation(0));
        Tensor p = Tensor.of(1f, 2f);
        List<Tensor> r = returned.apply(List.of(p));
        assertTrue(p.isClosed());
        assertSame("(p+1)*2", Tensor.of(4f, 6f), r.get(0));
        assertSame("p returned as an output keeps its values", Tensor.of(1f, 2f), r.get(1));
    }

    @Test
    void donatingAMissingInputFails() {
        CompiledFunction f = Jit.compile(x -> x.add(1.0), VERIFY.withDonation(3));
        JBurnException e = assertThrows(JBurnException.class, () -> f.apply(Tensor.of(1f)));
        assertEquals("jit", e.op());
    }

    // ---- memory -------------------------------------------------------------------------------

    @Test
    void fusedCallsLeakNothing() {
        List<Tensor> in = new ArrayList<>();
        Random r = new Random(7);
        for (int i = 0; i < 3; i++) in.add(randomTensor(r, Shape.of(3, 1500), DType.F32));
        CompiledFunction f = Jit.compileList(chain(11, true, false), VERIFY);
        CompiledFunction g = Jit.compileList(chain(12, false, true), VERIFY.withDonation(0));
        f.apply(in).forEach(Tensor::close);
        g.apply(List.of(in.get(0).add(0.0), in.get(1), in.get(2))).forEach(Tensor::close);
        long before = HostMemory.live();
        for (int i = 0; i < 200; i++) {
            f.apply(in).forEach(Tensor::close);
            Tensor donated = in.get(0).add(0.0);
            g.apply(List.of(donated, in.get(1), in.get(2))).forEach(Tensor::close);
        }
        assertTrue(HostMemory.live() - before <= 4096, "live host bytes grew from " + before + " to " + HostMemory.live());
    }
}
