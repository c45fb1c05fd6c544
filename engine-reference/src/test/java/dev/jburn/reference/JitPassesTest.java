package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Passes;
import dev.jburn.graph.Prim;
import dev.jburn.graph.TensorType;
import dev.jburn.graph.Value;
import dev.jburn.graph.Verifier;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static dev.jburn.reference.JitTestSupport.CPU;
import static dev.jburn.reference.JitTestSupport.assertJitEqualsEager;
import static dev.jburn.reference.JitTestSupport.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What each pass does to the graph, checked on the graph's structure; the verifier. */
class JitPassesTest {
    private static final TensorType F32_2x3 = new TensorType(DType.F32, Shape.of(2, 3));

    private static Graph trace(Function<List<Tensor>, List<Tensor>> f, TensorType... inputs) {
        return Jit.trace(f, List.of(inputs), CPU);
    }

    private static boolean isUnary(Prim p, UnaryOp op) { return p instanceof Prim.Unary u && u.op() == op; }

    private static boolean isBinary(Prim p, BinaryOp op) { return p instanceof Prim.Binary b && b.op() == op; }

    @Test
    void cseMergesDuplicateSubexpressions() {
        Graph g = trace(xs -> List.of(xs.get(0).exp().add(xs.get(0).exp()).multiply(xs.get(0).exp())), F32_2x3);
        assertEquals(3, count(g, p -> isUnary(p, UnaryOp.EXP)));
        List<String> changes = new ArrayList<>();
        Graph out = Passes.commonSubexpressionElimination().run(g, changes::add);
        Verifier.verify(out);
        assertEquals(1, count(out, p -> isUnary(p, UnaryOp.EXP)), out.toString());
        assertEquals(2, changes.size(), changes.toString());
        assertTrue(changes.getFirst().contains("duplicates"), changes.toString());
        Graph constants = trace(xs -> List.of(xs.get(0).add(Tensor.of(1f, 2f, 3f)).multiply(Tensor.of(1f, 2f, 3f))), F32_2x3);
        assertEquals(1, count(Passes.commonSubexpressionElimination().run(constants, c -> { }), Prim.Constant.class));
    }

    @Test
    void simplificationDropsGradientMarksSoTheMarkedValuesFuse() {
        // stopGradient and customGradient leave marks in a traced graph; a compiled graph is only run, so they go
        Function<List<Tensor>, List<Tensor>> f = xs -> {
            Tensor y = dev.jburn.autodiff.Autodiff.customGradient(t -> t.exp(), (x, out, g) -> g.multiply(out)).apply(xs.get(0));
            return List.of(dev.jburn.autodiff.Autodiff.stopGradient(y.add(1f)).multiply(2f));
        };
        Graph g = trace(f, F32_2x3);
        assertEquals(2, count(g, Prim.GradientMark.class), g.toString());
        List<String> changes = new ArrayList<>();
        Graph out = Passes.algebraicSimplification().run(g, changes::add);
        Verifier.verify(out);
        assertEquals(0, count(out, Prim.GradientMark.class), out.toString());
        assertTrue(changes.stream().anyMatch(c -> c.startsWith("gradient mark")), changes.toString());
        CompiledFunction c = assertJitEqualsEager("marked values", f, Tensor.of(new float[][] {{0, 1, -2}, {3, -0.5f, 9}}));
        assertEquals(0, count(c.graph(), Prim.GradientMark.class), c.graph().toString());
        assertEquals(1, count(c.graph(), Prim.Fused.class), "exp, add and multiply fuse once the marks are gone: " + c.graph());
    }

    @Test
    void dceDropsWhatNoOutputNeeds() {
        Graph g = trace(xs -> {
            Tensor unused = xs.get(0).log().sum();
            return List.of(xs.get(0).negate());
        }, F32_2x3);
        assertEquals(1, count(g, p -> isUnary(p, UnaryOp.LOG)));
        List<String> changes = new ArrayList<>();
        Graph out = Passes.deadCodeElimination().run(g, changes::add);
        Verifier.verify(out);
        assertEquals(0, count(out, p -> isUnary(p, UnaryOp.LOG)));
        assertEquals(1, out.nodes().size(), out.toString());
        assertEquals(List.of("removed %1 = log(%0) : f32[2,3]", "removed %2 = sum(%1) {axes=[0,1]} : f32[]"), changes);
        assertEquals(1, out.inputs().size(), "unused inputs stay: they are the signature");
    }

    @Test
    void constantFoldingEvaluatesConstantSubgraphs() {
        CompiledFunction f = assertJitEqualsEager("fold", xs -> List.of(xs.get(0).add(Tensor.of(1f, 2f, 3f).multiply(3).exp())),
                Tensor.zeros(Shape.of(2, 3), DType.F32));
        Graph g = f.graph();
        assertEquals(2, g.nodes().size(), g.toString());   // one constant and the add
        assertEquals(1, count(g, Prim.Constant.class));
        assertEquals(0, count(g, p -> isUnary(p, UnaryOp.EXP)));
        assertTrue(f.passReport().changes("fold").stream().anyMatch(c -> c.contains("exp")), f.passReport().toString());
        Graph limited = Passes.constantFolding(CPU, 4).run(trace(xs -> List.of(xs.get(0).add(Tensor.of(1f, 2f, 3f).exp())), F32_2x3), c -> { });
        assertEquals(1, count(limited, p -> isUnary(p, UnaryOp.EXP)), "12 output bytes exceed a 4-byte limit");
    }

    @Test
    void exactAlgebraicIdentitiesAreRemoved() {
        CompiledFunction f = assertJitEqualsEager("identities", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.multiply(1.0).divide(1).subtract(0.0).exp(), x.transpose().transpose().negate(),
                    x.reshape(3, 2).reshape(6).reshape(2, 3).abs(), x.asType(DType.F32).sqrt());
        }, Tensor.of(new float[][] {{-0f, 1, 2}, {3, 4, 5}}));
        Graph g = f.graph();
        assertEquals(0, count(g, p -> p instanceof Prim.Binary), g.toString());
        assertEquals(0, count(g, Prim.Transpose.class), g.toString());
        assertEquals(0, count(g, Prim.Reshape.class), g.toString());
        List<String> changes = f.passReport().changes("simplify");
        assertTrue(changes.stream().anyMatch(c -> c.startsWith("x*1:")), changes.toString());
        assertTrue(changes.stream().anyMatch(c -> c.startsWith("x/1:")), changes.toString());
        assertTrue(changes.stream().anyMatch(c -> c.startsWith("transpose:")), changes.toString());
    }

    @Test
    void aGradientsSeedOfOnesIsNotMultiplied() {
        // grad(sum(x·g)) traces broadcast(1)·g; a broadcast too large to fold still multiplies by one only
        Tensor gv = Tensor.of(new float[64 * 48]).reshape(64, 48).add(0.5f);
        CompiledFunction f = assertJitEqualsEager("seed of ones", xs -> List.of(dev.jburn.autodiff.Autodiff.grad((Tensor x) -> x.multiply(xs.get(1)).sum()).apply(xs.get(0))),
                Tensor.of(new float[64 * 48]).reshape(64, 48), gv);
        Graph g = f.graph();
        assertEquals(0, count(g, p -> isBinary(p, BinaryOp.MULTIPLY)) + count(g, Prim.Fused.class), g.toString());
        assertTrue(f.passReport().changes("simplify").stream().anyMatch(c -> c.startsWith("x*1:")), f.passReport().toString());
    }

    @Test
    void identitiesThatAreNotExactStay() {
        // -0.0 + 0.0 is +0.0: adding a float +0 is not an identity; broadcasting and promotion are never skipped
        // (f32 x times an f64 one is x cast to f64).
        CompiledFunction f = assertJitEqualsEager("not identities", xs -> {
            Tensor x = xs.get(0);
            return List.of(x.add(0.0), x.multiply(Tensor.ones(Shape.of(2, 2, 3), DType.F32)), x.multiply(Tensor.scalar(1.0)));
        }, Tensor.of(new float[][] {{-0f, 1, 2}, {3, 4, 5}}));
        assertEquals(2, count(f.graph(), p -> p instanceof Prim.Binary), f.graph().toString());
        assertEquals(1, count(f.graph(), Prim.Cast.class), f.graph().toString());
        CompiledFunction ints = assertJitEqualsEager("integer x+0", xs -> List.of(xs.get(0).add(0).multiply(1)), Tensor.of(1, 2));
        assertEquals(0, count(ints.graph(), p -> p instanceof Prim.Binary), ints.graph().toString());
    }

    @Test
    void theGraphPrintsAsSsaText() {
        Graph g = trace(xs -> List.of(xs.get(0).exp().add(xs.get(1)), xs.get(0).sum(new int[] {1})), F32_2x3,
                new TensorType(DType.F32, Shape.of(3)));
        String text = g.toString();
        assertTrue(text.startsWith("graph(%0: f32[2,3], %1: f32[3]) {"), text);
        assertTrue(text.contains("%2 = exp(%0) : f32[2,3]"), text);
        assertTrue(text.contains("%3 = add(%2, %1) : f32[2,3]"), text);
        assertTrue(text.contains("%4 = sum(%0) {axes=[1]} : f32[2]"), text);
        assertTrue(text.contains("return %3, %4"), text);
    }

    @Test
    void theVerifierCatchesBrokenGraphs() {
        Value x = new Value(0, DType.F32, Shape.of(3));
        Value y = new Value(1, DType.F32, Shape.of(3));
        Value z = new Value(2, DType.F32, Shape.of(3));
        Prim exp = new Prim.Unary(UnaryOp.EXP, DType.F32);
        Graph good = Graph.of(List.of(x), List.of(new Node(exp, List.of(x), List.of(y))), List.of(y));
        assertNull(Verifier.firstProblem(good));

        Graph useBeforeDef = Graph.of(List.of(x), List.of(new Node(exp, List.of(z), List.of(y)), new Node(exp, List.of(x), List.of(z))), List.of(y));
        JBurnException e = assertThrows(JBurnException.class, () -> Verifier.verify(useBeforeDef));
        assertEquals("verify", e.op());
        assertTrue(e.reason().contains("uses %2 before it is defined"), e.reason());

        Value wrong = new Value(1, DType.F32, Shape.of(2));
        Graph badType = Graph.of(List.of(x), List.of(new Node(exp, List.of(x), List.of(wrong))), List.of(wrong));
        assertTrue(Verifier.firstProblem(badType).contains("declares [f32[2]] but its inputs give [f32[3]]"), Verifier.firstProblem(badType));

        Graph undefinedOutput = Graph.of(List.of(x), List.of(), List.of(y));
        assertTrue(Verifier.firstProblem(undefinedOutput).contains("graph output %1 is not defined"));

        Graph reusedId = Graph.of(List.of(x), List.of(new Node(exp, List.of(x), List.of(new Value(0, DType.F32, Shape.of(3))))), List.of(x));
        assertTrue(Verifier.firstProblem(reusedId).contains("reuses an id"));

        Value s = new Value(1, DType.F64, Shape.of(3));
        Graph illTyped = Graph.of(List.of(x, s), List.of(new Node(new Prim.Binary(BinaryOp.ADD, Shape.of(3), DType.F32), List.of(x, s),
                List.of(z))), List.of(z));
        assertTrue(Verifier.firstProblem(illTyped).contains("ill-typed"), Verifier.firstProblem(illTyped));

        Value view = new Value(1, DType.F32, Shape.of(3));
        Graph typeMismatchOnUse = Graph.of(List.of(x), List.of(new Node(exp, List.of(new Value(0, DType.F32, Shape.of(1, 3))),
                List.of(view))), List.of(view));
        assertTrue(Verifier.firstProblem(typeMismatchOnUse).contains("but it is f32[3]"), Verifier.firstProblem(typeMismatchOnUse));
    }

    @Test
    void aPassThatBreaksTheGraphIsNamed() {
        dev.jburn.graph.Pass breaker = new dev.jburn.graph.Pass() {
            @Override public String name() { return "breaker"; }
            @Override public Graph run(Graph g, java.util.function.Consumer<String> changes) {
                changes.accept("dropped every node");
                return Graph.of(g.inputs(), List.of(), g.outputs());
            }
        };
        Graph g = trace(xs -> List.of(xs.get(0).exp()), F32_2x3);
        JBurnException e = assertThrows(JBurnException.class, () -> Passes.optimize(g, List.of(breaker), true));
        assertTrue(e.reason().startsWith("after pass breaker: graph output %1 is not defined"), e.reason());
    }
}
