package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.jburn.reference.AutodiffTestSupport.assertClose;
import static dev.jburn.reference.AutodiffTestSupport.assertGradMatchesFiniteDifferences;
import static dev.jburn.reference.AutodiffTestSupport.uniform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Autodiff API: forms, accumulation, jit, gradient control, integer inputs, errors. */
class AutodiffApiTest {

    @Test
    void gradAndValueAndGrad() {
        Tensor x = Tensor.of(1.0, 2.0, -3.0);
        assertClose("d sum(x^2)", Tensor.of(2.0, 4.0, -6.0), Autodiff.grad(t -> t.multiply(t).sum()).apply(x), 0);
        Autodiff.ValueAndGrad vg = Autodiff.valueAndGrad(t -> t.exp().sum()).apply(x);
        assertClose("value", x.exp().sum(), vg.value(), 1e-15);
        assertClose("grad", x.exp(), vg.grad(), 1e-15);
        // the output itself is a function input's value (identity of a scalar)
        assertClose("identity", Tensor.scalar(1.0), Autodiff.grad(t -> t).apply(Tensor.scalar(3.0)), 0);
    }

    @Test
    void multiUseAccumulates() {
        Tensor x = uniform(1, -1, 1, 3);
        // x*x + sin(x) * x + x: x feeds five uses
        assertGradMatchesFiniteDifferences("multi-use", xs -> {
            Tensor t = xs.get(0);
            return t.multiply(t).add(t.sin().multiply(t)).add(t).sum();
        }, x);
        Tensor g = Autodiff.grad(t -> t.multiply(t).add(t).sum()).apply(Tensor.of(1.0, 2.0));
        assertClose("2x + 1", Tensor.of(3.0, 5.0), g, 0);
    }

    @Test
    void jvpIsTheJacobianTimesTheTangentAndMatchesFiniteDifferences() {
        assertClose("d(x^2) along 1", Tensor.scalar(6.0), Autodiff.jvp(t -> t.multiply(t), Tensor.scalar(3.0), Tensor.scalar(1.0)), 0);
        Tensor x = uniform(7, -1, 1, 4);
        Tensor v = uniform(8, -1, 1, 4);
        java.util.function.Function<Tensor, Tensor> f = t -> t.sin().multiply(t.sum()).add(t.exp());
        Tensor jv = Autodiff.jvp(f, x, v);
        double h = 1e-6;
        Tensor fd = f.apply(x.add(v.multiply(h))).subtract(f.apply(x.subtract(v.multiply(h)))).divide(2 * h);
        assertClose("jvp vs central differences", fd, jv, 1e-7);
        // inside Jit, the same numbers
        var jitted = dev.jburn.graph.Jit.compileList(xs -> List.of(Autodiff.jvp(f, xs.get(0), xs.get(1))));
        assertClose("jit jvp", jv, jitted.apply(List.of(x, v)).getFirst(), 1e-12);
        JBurnException e = org.junit.jupiter.api.Assertions.assertThrows(JBurnException.class,
                () -> Autodiff.jvp(f, x, Tensor.of(1.0)));
        org.junit.jupiter.api.Assertions.assertEquals("jvp", e.op());
    }

    @Test
    void singularValuesAndReducedSingularVectorsDifferentiate() {
        Tensor x = uniform(11, -1, 1, 4, 3);
        assertGradMatchesFiniteDifferences("sum of singular values", xs -> dev.jburn.LinAlg.svd(xs.get(0), false).s().sum(), x);
        assertGradMatchesFiniteDifferences("weighted singular values", xs -> dev.jburn.LinAlg.svd(xs.get(0), true).s()
                .multiply(Tensor.of(3.0, 2.0, 1.0)).sum(), x);
        JBurnException e = assertThrows(JBurnException.class,
                () -> Autodiff.grad(t -> dev.jburn.LinAlg.svd(t).u().sum()).apply(x));
        assertEquals("svd", e.op());
        assertTrue(e.reason().contains("full matrices"), e.reason());
        Tensor y = uniform(12, -1, 1, 3, 5);
        assertGradMatchesFiniteDifferences("reduced singular vectors", xs -> {
            var f = dev.jburn.LinAlg.svd(xs.get(0), false);
            return f.u().multiply(f.u()).multiply(Tensor.of(1.0, 2.0, 3.0)).sum().add(f.vt().multiply(f.vt()).sum(new int[] {0}).multiply(
                    Tensor.of(0.5, -1.0, 2.0, 1.5, 0.25)).sum());
        }, y);
    }

    @Test
    void vjp() {
        Tensor x = Tensor.of(1.0, 2.0, 3.0);
        Tensor ct = Tensor.of(1.0, 10.0, 100.0);
        assertClose("vjp of x^2", Tensor.of(2.0, 40.0, 600.0), Autodiff.vjp(t -> t.multiply(t), x, ct), 0);
        List<Tensor> r = Autodiff.vjpList(xs -> List.of(xs.get(0).multiply(xs.get(1)), xs.get(0).sum()),
                List.of(x, Tensor.of(4.0, 5.0, 6.0)), List.of(ct, Tensor.scalar(2.0)));
        assertClose("vjp a", Tensor.of(6.0, 52.0, 602.0), r.get(0), 0);
        assertClose("vjp b", Tensor.of(1.0, 20.0, 300.0), r.get(1), 0);
        assertThrows(JBurnException.class, () -> Autodiff.vjp(t -> t.multiply(t), x, Tensor.of(1.0, 2.0)));
    }

    /** The two-layer MLP loss of training (784-256-10, small batch) w.r.t. a named map of parameters. */
    @Test
    void mlpGradientWithRespectToParameterMap() {
        int batch = 3;
        Tensor input = uniform(10, 0, 1, batch, 784);
        Tensor labels = Tensor.of(new int[] {3, 7, 0});
        Tensor oneHot = labels.newAxis(1).equal(Tensor.iota(Shape.of(1, 10), DType.S32, 1)).asType(DType.F64);
        Function<Map<String, Tensor>, Tensor> loss = p -> {
            Tensor h = input.dot(p.get("w1")).add(p.get("b1")).maximum(0.0);
            Tensor logits = h.dot(p.get("w2")).add(p.get("b2"));
            Tensor nll = logits.logSumExp(new int[] {1}).subtract(logits.multiply(oneHot).sum(new int[] {1}));
            return nll.mean();
        };
        Map<String, Tensor> params = new LinkedHashMap<>();
        params.put("w1", uniform(11, -0.05, 0.05, 784, 256));
        params.put("b1", uniform(12, -0.1, 0.1, 256));
        params.put("w2", uniform(13, -0.1, 0.1, 256, 10));
        params.put("b2", uniform(14, -0.1, 0.1, 10));
        Autodiff.ValueAndGradMap vg = Autodiff.valueAndGradMap(loss).apply(params);
        assertEquals(List.of("w1", "b1", "w2", "b2"), List.copyOf(vg.grads().keySet()));
        assertClose("loss", loss.apply(params), vg.value(), 1e-14);
        List<String> names = List.copyOf(params.keySet());
        Function<List<Tensor>, Tensor> asList = xs -> {
            Map<String, Tensor> m = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) m.put(names.get(i), xs.get(i));
            return loss.apply(m);
        };
        // finite differences on a few coordinates of each parameter
        assertGradMatchesFiniteDifferences("mlp", asList, 4, params.values().toArray(Tensor[]::new));
        for (String n : names) assertEquals(params.get(n).shape(), vg.grads().get(n).shape(), n);
    }

    @Test
    void gradUnderJitEqualsEager() {
        Function<Tensor, Tensor> f = t -> t.multiply(t).sin().add(t.exp().multiply(t)).logSumExp();
        Tensor x = uniform(20, -1, 1, 5);
        Tensor eager = Autodiff.grad(f).apply(x);
        CompiledFunction jitted = Jit.compile(Autodiff.grad(f), JitTestSupport.VERIFY);
        assertClose("jit grad", eager, jitted.apply(x), 1e-14);
        assertClose("jit grad (cached)", eager, jitted.apply(x), 1e-14);
        assertEquals(1, jitted.traceCount());
        // value and grad of several inputs, compiled
        Function<List<Tensor>, Tensor> g2 = xs -> xs.get(0).dot(xs.get(1)).tanh().sum();
        List<Tensor> in = List.of(uniform(21, -1, 1, 2, 3), uniform(22, -1, 1, 3, 4));
        List<Tensor> eagerGrads = Autodiff.gradList(g2).apply(in);
        List<Tensor> jitGrads = Jit.compileList(Autodiff.gradList(g2), JitTestSupport.VERIFY).apply(in);
        for (int i = 0; i < 2; i++) assertClose("jit grad " + i, eagerGrads.get(i), jitGrads.get(i), 1e-14);
    }

    /** A training step: grad w.r.t. parameters inside a compiled function whose data batch is another (traced) input. */
    @Test
    void gradInsideJitMayCaptureTracedTensors() {
        Tensor w = uniform(40, -1, 1, 3, 2);
        Tensor x = uniform(41, -1, 1, 4, 3);
        Function<List<Tensor>, List<Tensor>> step = in -> {
            Tensor data = in.get(1);
            Tensor gw = Autodiff.grad(p -> data.dot(p).tanh().multiply(data.dot(p)).sum()).apply(in.get(0));
            return List.of(in.get(0).subtract(gw.multiply(0.1)));
        };
        Tensor eager = step.apply(List.of(w, x)).getFirst();
        Tensor jitted = Jit.compileList(step, JitTestSupport.VERIFY).apply(List.of(w, x)).getFirst();
        assertClose("sgd step", eager, jitted, 1e-14);
    }

    @Test
    void throughCond() {
        Function<List<Tensor>, Tensor> f = xs -> {
            Tensor x = xs.get(0), y = xs.get(1);
            Tensor picked = Jit.cond(x.sum().greater(0), () -> x.sin().multiply(y), () -> x.exp().add(y.multiply(y)));
            return picked.multiply(x).sum();
        };
        for (double sign : new double[] {1, -1}) {
            Tensor x = uniform(50, 0.2, 1, 3).multiply(sign);
            Tensor y = uniform(51, -1, 1, 3);
            assertGradMatchesFiniteDifferences("cond " + sign, f, x, y);
            List<Tensor> eager = Autodiff.gradList(f).apply(List.of(x, y));
            List<Tensor> jitted = Jit.compileList(Autodiff.gradList(f), JitTestSupport.VERIFY).apply(List.of(x, y));
            for (int i = 0; i < 2; i++) assertClose("cond under jit " + i, eager.get(i), jitted.get(i), 1e-14);
        }
    }

    @Test
    void secondOrder() {
        Tensor x = Tensor.of(1.0, -2.0, 0.5);
        Function<Tensor, Tensor> d2 = Autodiff.grad(t -> Autodiff.grad(u -> u.multiply(u).multiply(u).sum()).apply(t).sum());
        assertClose("d/dx sum(3x^2) = 6x", x.multiply(6.0), d2.apply(x), 1e-14);
        assertClose("under jit", x.multiply(6.0), Jit.compile(d2).apply(x), 1e-14);
        assertGradMatchesFiniteDifferences("grad of grad", xs -> Autodiff.grad(u -> u.sin().multiply(u).sum()).apply(xs.get(0)).exp().sum(), x);
    }

    @Test
    void stopGradientBlocks() {
        Tensor x = Tensor.of(1.0, 2.0, 3.0);
        Tensor g = Autodiff.grad(t -> t.multiply(Autodiff.stopGradient(t)).sum()).apply(x);
        assertClose("x * stop(x)", x, g, 0);
        Tensor z = Autodiff.grad(t -> Autodiff.stopGradient(t.exp()).sum()).apply(x);
        assertClose("all stopped", Tensor.zeros(Shape.of(3), DType.F64), z, 0);
        assertClose("eager identity", x, Autodiff.stopGradient(x), 0);
        CompiledFunction jitted = Jit.compile(Autodiff.grad(t -> t.multiply(Autodiff.stopGradient(t)).sum()), JitTestSupport.VERIFY);
        assertClose("under jit", x, jitted.apply(x), 0);
    }

    @Test
    void customGradientReplacesTheRule() {
        Function<Tensor, Tensor> expWithFakeGrad = Autodiff.customGradient(Tensor::exp, (x, y, g) -> g.multiply(2.0));
        Tensor x = Tensor.of(0.5, 1.0);
        assertClose("forward value", x.exp(), expWithFakeGrad.apply(x), 0);
        assertClose("custom backward", Tensor.of(2.0, 2.0), Autodiff.grad(t -> expWithFakeGrad.apply(t).sum()).apply(x), 0);
        // composed: chain rule through the custom region
        assertClose("chained", Tensor.of(6.0, 6.0),
                Autodiff.grad(t -> expWithFakeGrad.apply(t.multiply(3.0)).sum()).apply(x), 0);
        // stable log-sigmoid style custom rule under jit equals eager
        Function<Tensor, Tensor> softplus = Autodiff.customGradient(t -> t.exp().log1p(), (t, y, g) -> g.multiply(t.sigmoid()));
        Tensor eager = Autodiff.grad(t -> softplus.apply(t).sum()).apply(uniform(30, -2, 2, 4));
        assertClose("custom under jit", eager, Jit.compile(Autodiff.grad(t -> softplus.apply(t).sum())).apply(uniform(30, -2, 2, 4)), 1e-15);
        assertClose("softplus' = sigmoid", uniform(30, -2, 2, 4).sigmoid(), eager, 1e-15);
    }

    @Test
    void integerInputsGetZeroGradients() {
        Tensor x = Tensor.of(1.0, 2.0);
        Tensor n = Tensor.of(3, 4);
        List<Tensor> g = Autodiff.gradList(xs -> xs.get(0).multiply(xs.get(1).asType(DType.F64)).sum()).apply(List.of(x, n));
        assertClose("float input", Tensor.of(3.0, 4.0), g.get(0), 0);
        assertEquals(DType.S32, g.get(1).dtype());
        assertEquals(List.of(0L, 0L), java.util.Arrays.stream(g.get(1).toLongArray()).boxed().toList());
        // comparisons, argmax and iota carry no gradient
        Tensor z = Autodiff.grad(t -> t.greater(0).asType(DType.F64).sum().add(t.argmax().asType(DType.F64))).apply(x);
        assertClose("non-differentiable ops", Tensor.zeros(Shape.of(2), DType.F64), z, 0);
    }

    @Test
    void errors() {
        Tensor x = Tensor.of(1.0, 2.0);
        JBurnException e = assertThrows(JBurnException.class, () -> Autodiff.grad(t -> t.multiply(2.0)).apply(x));
        assertEquals("valueAndGrad", e.op());
        assertTrue(e.getMessage().contains("float scalar"), e.getMessage());
        e = assertThrows(JBurnException.class, () -> Autodiff.grad(t -> t.sum().asType(DType.S32)).apply(x));
        assertTrue(e.getMessage().contains("float scalar"), e.getMessage());
        assertThrows(JBurnException.class, () -> Autodiff.grad(null));
        assertThrows(JBurnException.class, () -> Autodiff.grad(t -> t.sum()).apply(null));
        Tensor m = Tensor.of(new double[][] {{4, 1}, {2, 3}});
        Function<Tensor, Tensor> loop = t -> Jit.whileLoop(t, st -> st.sum().less(100.0), st -> st.multiply(2.0));
        e = assertThrows(JBurnException.class, () -> Autodiff.grad(t -> loop.apply(t).sum()).apply(m));
        assertEquals("grad", e.op());
        assertTrue(e.getMessage().contains("whileLoop' is not differentiable in reverse mode"), e.getMessage());
        // ...but stopped, it is fine
        assertClose("stopped loop", Tensor.zeros(Shape.of(2, 2), DType.F64),
                Autodiff.grad(t -> Autodiff.stopGradient(loop.apply(t)).sum().add(t.sum().multiply(0.0))).apply(m), 0);
    }
}
