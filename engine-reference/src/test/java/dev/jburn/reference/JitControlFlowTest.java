package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Prim;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.jburn.reference.JitTestSupport.VERIFY;
import static dev.jburn.reference.JitTestSupport.assertSame;
import static dev.jburn.reference.JitTestSupport.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code Jit.cond} and {@code Jit.whileLoop}, eagerly and compiled. */
class JitControlFlowTest {
    /** {@code |x|} summed when the sum is positive, otherwise {@code x} negated: a data-dependent choice. */
    private static Tensor signedPick(Tensor x) {
        return Jit.cond(x.sum().greater(0), () -> x.abs().multiply(2), x::negate);
    }

    @Test
    void eagerCondRunsOnlyTheChosenBranch() {
        AtomicInteger falseRuns = new AtomicInteger();
        Tensor x = Tensor.of(1f, -2f, 3f);
        Tensor y = Jit.cond(x.sum().greater(0), () -> x.multiply(2), () -> {
            falseRuns.incrementAndGet();
            return x;
        });
        assertSame("eager cond", Tensor.of(2f, -4f, 6f), y);
        assertEquals(0, falseRuns.get());
        List<Tensor> both = Jit.condList(Tensor.scalar(false), () -> List.of(x, x), () -> List.of(x.add(1), x.sum()));
        assertSame("false branch", Tensor.of(2f, -1f, 4f), both.get(0));
        assertSame("false branch", Tensor.scalar(2f), both.get(1));
    }

    @Test
    void compiledCondTracesBothBranches() {
        CompiledFunction f = Jit.compile(JitControlFlowTest::signedPick, VERIFY);
        assertSame("true", Tensor.of(2f, 4f, 6f), f.apply(Tensor.of(1f, -2f, 3f)));
        assertSame("false", Tensor.of(1f, 2f, 3f), f.apply(Tensor.of(-1f, -2f, -3f)));
        assertEquals(1, f.traceCount());
        assertEquals(1, count(f.graph(), Prim.Cond.class), f.graph().toString());
        assertTrue(f.graph().toString().contains("true: graph(%0: f32[3])"), f.graph().toString());
    }

    @Test
    void branchesCaptureTracedAndConcreteTensors() {
        Tensor outer = Tensor.of(10f, 20f, 30f);
        CompiledFunction f = Jit.compile((x, y) -> {
            Tensor xy = x.multiply(y);
            return Jit.cond(y.max().less(x.max()), () -> xy.add(outer), () -> xy.subtract(x).add(Tensor.of(1f, 1f, 1f)));
        }, VERIFY);
        Tensor a = Tensor.of(1f, 5f, 2f), b = Tensor.of(2f, 3f, 1f);
        assertSame("true", a.multiply(b).add(outer), f.apply(a, b));
        assertSame("false", b.multiply(a).subtract(b).add(1), f.apply(b, a));
    }

    @Test
    void aConstantPredicateIsDecidedAtTraceTime() {
        CompiledFunction f = Jit.compile(x -> Jit.cond(Tensor.scalar(3).greater(2), x::exp, x::log), VERIFY);
        assertSame("constant pred", Tensor.of(0f, 1f).exp(), f.apply(Tensor.of(0f, 1f)));
        assertEquals(0, count(f.graph(), Prim.Cond.class), f.graph().toString());
    }

    @Test
    void eagerWhileLoop() {
        Tensor n = Jit.whileLoop(Tensor.scalar(1), i -> i.less(100), i -> i.multiply(2));
        assertEquals(128L, n.item());
        List<Tensor> fib = Jit.whileLoop(List.of(Tensor.scalar(0L), Tensor.scalar(1L), Tensor.scalar(0)),
                s -> s.get(2).less(10), s -> List.of(s.get(1), s.get(0).add(s.get(1)), s.get(2).add(1)));
        assertEquals(55L, fib.get(0).item());
        Tensor start = Tensor.scalar(500);
        Tensor same = Jit.whileLoop(start, i -> i.less(100), i -> i.multiply(2));
        assertEquals(500L, same.item());
        assertFalse(same == start, "results are new tensors the caller owns");
    }

    @Test
    void compiledWhileLoop() {
        CompiledFunction f = Jit.compile((x, limit) -> {
            List<Tensor> out = Jit.whileLoop(List.of(x, Tensor.scalar(0)),
                    s -> s.get(0).sum().less(limit),
                    s -> List.of(s.get(0).multiply(2).add(limit.multiply(0)), s.get(1).add(1)));
            return out.get(0).add(out.get(1));
        }, VERIFY);
        assertSame("loop", Tensor.of(128f + 7, 256f + 7), f.apply(Tensor.of(1f, 2f), Tensor.scalar(300f)));
        assertSame("no iteration", Tensor.of(1f, 2f), f.apply(Tensor.of(1f, 2f), Tensor.scalar(1f)));
        assertEquals(1, f.traceCount());
        assertEquals(1, count(f.graph(), Prim.WhileLoop.class), f.graph().toString());
    }

    @Test
    void condInsideALoopBody() {
        // Collatz steps of 27 (111).
        CompiledFunction f = Jit.compile(start -> Jit.whileLoop(List.of(start, Tensor.scalar(0)), s -> s.get(0).greater(1),
                s -> {
                    Tensor v = s.get(0);
                    Tensor next = Jit.cond(v.remainder(2).equal(0), () -> v.quotient(2), () -> v.multiply(3).add(1));
                    return List.of(next, s.get(1).add(1));
                }).get(1), VERIFY);
        assertEquals(111L, f.apply(Tensor.scalar(27)).item());
        assertEquals(0L, f.apply(Tensor.scalar(1)).item());
        Tensor eager = Jit.whileLoop(List.of(Tensor.scalar(27), Tensor.scalar(0)), s -> s.get(0).greater(1), s -> {
            Tensor v = s.get(0);
            return List.of(Jit.cond(v.remainder(2).equal(0), () -> v.quotient(2), () -> v.multiply(3).add(1)), s.get(1).add(1));
        }).get(1);
        assertEquals(111L, eager.item());
    }

    @Test
    void branchTypesMustMatch() {
        CompiledFunction f = Jit.compile(x -> Jit.cond(x.sum().greater(0), () -> x, () -> x.sum()), VERIFY);
        JBurnException e = assertThrows(JBurnException.class, () -> f.apply(Tensor.of(1f, 2f)));
        assertEquals("cond", e.op());
        assertTrue(e.reason().contains("[f32[2]] from the true branch and [f32[]] from the false branch"), e.reason());
        CompiledFunction g = Jit.compile(x -> Jit.cond(x.sum().greater(0), () -> x, () -> x.asType(DType.F64)), VERIFY);
        assertEquals("cond", assertThrows(JBurnException.class, () -> g.apply(Tensor.of(1f))).op());
    }

    @Test
    void loopBodiesMustKeepTheStateTypes() {
        JBurnException e = assertThrows(JBurnException.class,
                () -> Jit.whileLoop(Tensor.scalar(1), i -> i.less(10), i -> i.multiply(2.5)));
        assertEquals("whileLoop", e.op());
        assertTrue(e.reason().contains("[s32[]]") && e.reason().contains("[f32[]]"), e.reason());
        CompiledFunction f = Jit.compile(x -> Jit.whileLoop(x, i -> i.sum().less(10), i -> Tensor.concatenate(0, i, i)), VERIFY);
        assertEquals("whileLoop", assertThrows(JBurnException.class, () -> f.apply(Tensor.of(1f))).op());
    }

    @Test
    void predicatesArePredScalars() {
        JBurnException e = assertThrows(JBurnException.class, () -> Jit.cond(Tensor.of(true, false), () -> Tensor.scalar(1), () -> Tensor.scalar(2)));
        assertEquals("cond", e.op());
        assertTrue(e.reason().contains("must be a pred scalar, got pred[2]"), e.reason());
        assertEquals("cond", assertThrows(JBurnException.class, () -> Jit.cond(Tensor.scalar(1f), () -> Tensor.scalar(1), () -> Tensor.scalar(2))).op());
        assertEquals("whileLoop", assertThrows(JBurnException.class,
                () -> Jit.whileLoop(Tensor.scalar(1), i -> i, i -> i)).op());
        CompiledFunction f = Jit.compile(x -> Jit.whileLoop(x, i -> i.less(3), i -> i.add(1)), VERIFY);
        assertEquals("whileLoop", assertThrows(JBurnException.class, () -> f.apply(Tensor.zeros(Shape.of(2), DType.S32))).op());
    }
}
