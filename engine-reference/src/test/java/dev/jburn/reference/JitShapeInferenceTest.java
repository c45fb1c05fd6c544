package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Interpreter;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.ShapeInference;
import dev.jburn.graph.TensorType;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.WindowSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static dev.jburn.reference.JitTestSupport.CPU;
import static dev.jburn.reference.JitTestSupport.VERIFY;
import static dev.jburn.reference.JitTestSupport.assertSame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The types {@link ShapeInference} gives each primitive agree with what the front end makes of
 * its result: tracing one op inserts no reshape or bitcast of a result, and the graph's outputs have the
 * eager results' types.
 */
class JitShapeInferenceTest {
    private static final Tensor M = Tensor.of(new float[][] {{4, 1, 0}, {1, 3, 1}, {0, 1, 2}});
    private static final Tensor R = Tensor.of(new float[][] {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 13}});

    private static void agrees(String what, Function<List<Tensor>, List<Tensor>> f, Tensor... inputs) {
        List<Tensor> eager = f.apply(List.of(inputs));
        Graph g = Jit.trace(f, List.of(inputs).stream().map(t -> new TensorType(t.dtype(), t.shape())).toList(), CPU);
        // A user's reshape of an input or constant is a view node; a view of a primitive's result means the front end
        // wrapped that result with another type than inference gave it.
        java.util.Map<Integer, Node> producers = new java.util.HashMap<>();
        for (Node n : g.nodes()) {
            if (n.prim() instanceof Prim.Reshape || n.prim() instanceof Prim.Bitcast) {
                Node p = producers.get(n.inputs().getFirst().id());
                assertTrue(p == null || p.prim() instanceof Prim.Constant, what + ": a view of a result was needed:\n" + g);
            }
            for (var v : n.outputs()) producers.put(v.id(), n);
        }
        for (int i = 0; i < eager.size(); i++) {
            assertEquals(new TensorType(eager.get(i).dtype(), eager.get(i).shape()), g.outputs().get(i).type(), what + " output " + i + ":\n" + g);
        }
    }

    @Test
    void everyPrimitiveAgreesWithTheFrontEnd() {
        agrees("unary on ints", xs -> List.of(xs.get(0).exp(), xs.get(0).abs()), Tensor.of(1, -2));
        agrees("binary", xs -> List.of(xs.get(0).add(Tensor.of(1f, 2f, 3f)), xs.get(0).less(2)), M);
        agrees("select", xs -> List.of(xs.get(0).greater(1).select(xs.get(0), Tensor.of(0f, 0f, 0f))), M);
        agrees("reduce", xs -> List.of(xs.get(0).sum(new int[] {0}), xs.get(0).max(), xs.get(0).all(new int[] {1})), M);
        agrees("argReduce", xs -> List.of(xs.get(0).argmax(1), xs.get(0).argmin()), R);
        agrees("cumulative", xs -> List.of(xs.get(0).cumulativeProduct(1, true)), R);
        agrees("transpose", xs -> List.of(xs.get(0).transpose(), xs.get(0).reshape(3, 2, 2).transpose(2, 0, 1)), R);
        agrees("broadcast", xs -> List.of(xs.get(0).broadcast(Shape.of(2, 3, 4)), Tensor.of(1f, 2f, 3f).broadcast(Shape.of(3, 4), new int[] {0})), R);
        agrees("slice", xs -> List.of(xs.get(0).slice(new int[] {0, 1}, new int[] {3, 3}, new int[] {2, 2})), R);
        agrees("putSlice", xs -> List.of(xs.get(0).putSlice(new int[] {1, 1}, Tensor.of(new float[][] {{0, 0}}))), R);
        agrees("pad", xs -> List.of(xs.get(0).pad(0.0, new int[][] {{1, -1, 1}, {0, 2, 0}})), R);
        agrees("reverse", xs -> List.of(xs.get(0).reverse(0, 1)), R);
        agrees("concatenate", xs -> List.of(Tensor.concatenate(1, xs.get(0), xs.get(0), xs.get(0))), R);
        agrees("gather", xs -> List.of(xs.get(0).gather(Tensor.of(new int[][] {{0, 1}, {2, 3}}))), R);
        agrees("indexedUpdate", xs -> List.of(xs.get(0).indexedPut(Tensor.of(new int[][] {{0}, {2}}), Tensor.zeros(Shape.of(2, 4), DType.F32))), R);
        agrees("sort", xs -> List.of(xs.get(0).sort(1, true), xs.get(0).argsort(0)), R);
        agrees("dot", xs -> List.of(xs.get(0).dot(xs.get(0).transpose()),
                xs.get(0).reshape(3, 2, 2).dot(new int[] {2}, new int[] {0}, xs.get(0).reshape(3, 2, 2), new int[] {1}, new int[] {0})), R);
        agrees("cholesky and triangularSolve", xs -> List.of(LinAlg.cholesky(xs.get(0)),
                LinAlg.triangularSolve(xs.get(0), Tensor.of(new float[][] {{1, 2}, {3, 4}, {5, 6}}), true, true, true)), M);
        agrees("lu", xs -> { LinAlg.LU lu = LinAlg.lu(xs.get(0)); return List.of(lu.p(), lu.l(), lu.u()); }, M);
        agrees("qr", xs -> {
            LinAlg.QR a = LinAlg.qr(xs.get(0), false), b = LinAlg.qr(xs.get(0), true);
            return List.of(a.q(), a.r(), b.q(), b.r());
        }, R);
        agrees("eigh", xs -> { LinAlg.Eigh e = LinAlg.eigh(xs.get(0)); return List.of(e.eigenvalues(), e.eigenvectors()); }, M);
        agrees("svd", xs -> {
            LinAlg.SVD a = LinAlg.svd(xs.get(0), false), b = LinAlg.svd(xs.get(0), true);
            return List.of(a.u(), a.s(), a.vt(), b.u(), b.vt());
        }, R);
        agrees("iota", xs -> List.of(Tensor.iota(Shape.of(2, 3), DType.S64, 1)));
    }

    @Test
    void convolutionAndWindowShapes() {
        TensorType input = new TensorType(DType.F32, Shape.of(2, 4, 5, 5));
        TensorType kernel = new TensorType(DType.F32, Shape.of(6, 2, 3, 3));
        ConvSpec grouped = new ConvSpec(new int[] {2, 1}, new int[] {1, 0}, new int[] {1, 0}, new int[] {1, 1}, new int[] {1, 2}, 2, 1);
        // height (5 + 2 - 3) / 2 + 1 = 3; width: dilated kernel 5, (5 - 5) / 1 + 1 = 1
        assertEquals(List.of(new TensorType(DType.F32, Shape.of(2, 6, 3, 1))),
                ShapeInference.infer(new Prim.Conv(grouped, DType.F32), List.of(input, kernel)));
        WindowSpec pool = new WindowSpec(new int[] {1, 1, 2, 2}, new int[] {1, 1, 2, 2}, new int[4], new int[] {0, 0, 1, 1}, new int[] {1, 1, 1, 1});
        TensorType pooled = new TensorType(DType.F32, Shape.of(2, 4, 3, 3));
        assertEquals(List.of(pooled), ShapeInference.infer(new Prim.WindowReduce(WindowOp.WINDOW_MAX, pool), List.of(input)));
        TensorType init = new TensorType(DType.F32, Shape.scalar());
        assertEquals(List.of(input), ShapeInference.infer(new Prim.WindowScatter(WindowOp.WINDOW_SCATTER_MAX, pool), List.of(input, pooled, init)));
    }

    @Test
    void aTracedGraphRunsOnAnEngineAndInlinesIntoAnotherTrace() {
        Function<List<Tensor>, List<Tensor>> f = xs -> List.of(xs.get(0).exp().sum(new int[] {1}, true), xs.get(0).transpose());
        Graph g = Jit.trace(f, List.of(new TensorType(DType.F32, Shape.of(3, 4))), CPU);
        List<Tensor> eager = f.apply(List.of(R));
        JitTestSupport.assertSame("interpreted", eager, Interpreter.run(g, CPU, List.of(R)));
        CompiledFunction inlined = Jit.compileList(xs -> Interpreter.run(g, xs.get(0).engine(), xs), VERIFY);
        JitTestSupport.assertSame("replayed into a trace", eager, inlined.apply(List.of(R)));
        assertSame("interpreted twice", eager.get(0), Interpreter.run(g, CPU, List.of(R)).get(0));
    }
}
