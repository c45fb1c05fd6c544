package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.jburn.reference.JitTestSupport.VERIFY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One trace per input signature (engine, dtypes, shapes), and a readable reason for each retrace. */
class JitCacheTest {
    private static Tensor zeros(int... dims) { return Tensor.zeros(Shape.of(dims), DType.F32); }

    @Test
    void theSameSignatureDoesNotRetrace() {
        AtomicInteger traces = new AtomicInteger();
        CompiledFunction f = Jit.compile(x -> {
            traces.incrementAndGet();
            return x.multiply(2).sum();
        }, VERIFY);
        assertEquals("not called yet", f.lastRecompileReason());
        for (int i = 0; i < 5; i++) {
            try (Tensor y = f.apply(Tensor.of(1f, 2f, (float) i))) {
                assertEquals(6.0 + 2 * i, y.item().doubleValue());
            }
        }
        assertEquals(1, traces.get());
        assertEquals(1, f.traceCount());
        assertEquals(1, f.cacheSize());
        assertEquals("first call, for cpu(f32[3])", f.lastRecompileReason());
    }

    @Test
    void aNewShapeRetracesAndSaysWhy() {
        AtomicInteger traces = new AtomicInteger();
        CompiledFunction f = Jit.compile((x, w) -> {
            traces.incrementAndGet();
            return x.dot(w);
        }, VERIFY);
        f.apply(zeros(32, 784), zeros(784, 10));
        f.apply(zeros(17, 784), zeros(784, 10));
        assertEquals("input 0 shape changed from [32, 784] to [17, 784]", f.lastRecompileReason());
        f.apply(zeros(17, 784), zeros(784, 12));
        assertEquals("input 1 shape changed from [784, 10] to [784, 12]", f.lastRecompileReason());
        f.apply(zeros(32, 784), zeros(784, 10));   // cached: no new trace, reason unchanged
        assertEquals(3, traces.get());
        assertEquals(3, f.cacheSize());
        assertEquals("input 1 shape changed from [784, 10] to [784, 12]", f.lastRecompileReason());
        String text = f.explain();
        assertTrue(text.contains("traced 3 times") && text.contains("cpu(f32[32,784], f32[784,10])"), text);
    }

    @Test
    void dtypeAndEngineChangesAreExplained() {
        CompiledFunction f = Jit.compile(x -> x.add(1), VERIFY);
        f.apply(Tensor.of(1f, 2f));
        f.apply(Tensor.of(1.0, 2.0));
        assertEquals("input 0 dtype changed from f32 to f64", f.lastRecompileReason());
        f.apply(Tensor.of(1.0, 2.0).to(ElementwiseTestSupport.ORACLE));
        assertEquals("engine changed from cpu to cpu", f.lastRecompileReason().replaceAll("@\\w+", ""));
        f.apply(Tensor.of(1.0, 2.0, 3.0).reshape(3, 1));
        assertTrue(f.lastRecompileReason().contains("input 0 shape changed from [2] to [3, 1]"), f.lastRecompileReason());
        CompiledFunction g = Jit.compileList(xs -> List.of(xs.getFirst()), VERIFY);
        g.apply(List.of(Tensor.of(1f)));
        g.apply(List.of(Tensor.of(1f), Tensor.of(2f)));
        assertEquals("number of inputs changed from 1 to 2", g.lastRecompileReason());
    }

    @Test
    void theCacheKeepsTheMostRecentSignatures() {
        AtomicInteger traces = new AtomicInteger();
        CompiledFunction f = Jit.compile(x -> {
            traces.incrementAndGet();
            return x.negate();
        }, VERIFY.withCacheLimit(2));
        f.apply(zeros(1));
        f.apply(zeros(2));
        f.apply(zeros(3));   // drops [1]
        assertEquals(2, f.cacheSize());
        f.apply(zeros(3));
        assertEquals(3, traces.get());
        f.apply(zeros(2));
        f.apply(zeros(2));
        assertEquals(3, traces.get());
        f.apply(zeros(1));
        assertEquals(4, traces.get());
        assertTrue(f.lastRecompileReason().contains("shape changed from [2] to [1]"), f.lastRecompileReason());
    }

    @Test
    void aCompiledFunctionCalledInsideAnotherInlines() {
        AtomicInteger inner = new AtomicInteger();
        CompiledFunction g = Jit.compile(x -> {
            inner.incrementAndGet();
            return x.exp();
        }, VERIFY);
        CompiledFunction f = Jit.compile(x -> g.apply(x).add(g.apply(x.negate())), VERIFY);
        JitTestSupport.assertSame("nested", Tensor.of(1f, 2f).exp().add(Tensor.of(-1f, -2f).exp()), f.apply(Tensor.of(1f, 2f)));
        assertEquals(2, inner.get(), "g is traced inline, once per call site");
        assertEquals(0, g.traceCount(), "g itself compiled nothing");
        assertEquals(2, JitTestSupport.count(f.graph(), p -> p instanceof dev.jburn.graph.Prim.Unary u && u.op() == dev.jburn.op.UnaryOp.EXP));

        // Concrete inputs inside a trace inline too, so the inner function may capture the outer trace's tensors.
        CompiledFunction outer = Jit.compile(x -> Jit.compile(y -> y.add(x)).apply(Tensor.of(1f, 1f)), VERIFY);
        JitTestSupport.assertSame("closure over a traced tensor", Tensor.of(3f, 4f), outer.apply(Tensor.of(2f, 3f)));
    }
}
