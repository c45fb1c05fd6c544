package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.LinAlg;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.jburn.reference.JitTestSupport.VERIFY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a traced function may not do, and the messages that say so. */
class JitErrorsTest {
    private static final String READ = "cannot read the value of a traced tensor";

    @Test
    void readingATracedValueFails() {
        CompiledFunction f = Jit.compile(x -> x.sum().item().doubleValue() > 0 ? x : x.negate(), VERIFY);
        JBurnException e = assertThrows(JBurnException.class, () -> f.apply(Tensor.of(1f, 2f)));
        assertEquals("jit", e.op());
        assertTrue(e.reason().contains(READ) && e.reason().contains("Jit.cond / Jit.whileLoop"), e.reason());
        assertTrue(e.reason().contains("f32[] from sum"), e.reason());
        assertThrows(JBurnException.class, () -> Jit.compile(x -> Tensor.of(x.toFloatArray()), VERIFY).apply(Tensor.of(1f)));
        JBurnException key = assertThrows(JBurnException.class,
                () -> Jit.compile(k -> Prng.normal(k, Shape.of(2), DType.F32, 0, 1).values(), VERIFY).apply(Prng.key(1)));
        assertTrue(key.reason().contains(READ), "a traced key cannot be read: " + key.reason());
    }

    @Test
    void solveInvertAndDeterminantCompileAndSkipTheSingularityCheckThatNeedsData() {
        Tensor a = Tensor.of(new double[][] {{4, 1, 0, 0}, {1, 3, 1, 0}, {0, 1, 2, 1}, {0, 0, 1, 5}});
        Tensor b = Tensor.of(1.0, 2.0, 3.0, 4.0);
        List<Tensor> jit = Jit.compileList(xs -> List.of(LinAlg.solve(xs.get(0), xs.get(1)), LinAlg.invert(xs.get(0)),
                LinAlg.determinant(xs.get(0))), VERIFY).apply(List.of(a, b));
        assertArrayEquals(LinAlg.solve(a, b).toDoubleArray(), jit.get(0).toDoubleArray(), 1e-12);
        assertArrayEquals(LinAlg.invert(a).toDoubleArray(), jit.get(1).toDoubleArray(), 1e-12);
        assertEquals(LinAlg.determinant(a).item().doubleValue(), jit.get(2).item().doubleValue(), 1e-9);
        // eagerly a singular matrix fails before solving; compiled, when the triangular solve meets the zero pivot
        Tensor singular = Tensor.of(new double[][] {{1, 2}, {2, 4}});
        assertThrows(JBurnException.class, () -> LinAlg.solve(singular, Tensor.of(1.0, 1.0)));
        JBurnException e = assertThrows(JBurnException.class,
                () -> Jit.compile((m, v) -> LinAlg.solve(m, v), VERIFY).apply(singular, Tensor.of(1.0, 1.0)));
        assertTrue(e.reason().contains("singular"), e.reason());
    }

    @Test
    void aTracedTensorThatEscapesCannotBeUsedLater() {
        List<Tensor> leak = new ArrayList<>();
        CompiledFunction f = Jit.compile(x -> {
            leak.add(x.exp());
            return x;
        }, VERIFY);
        f.apply(Tensor.of(1f));
        Tensor escaped = leak.getFirst();
        assertTrue(Jit.isTraced(escaped));
        assertEquals("Tensor<f32[1] traced>", escaped.toString());
        JBurnException e = assertThrows(JBurnException.class, () -> escaped.add(1));
        assertTrue(e.reason().contains("after its trace ended"), e.reason());
        assertThrows(JBurnException.class, () -> escaped.add(Tensor.of(1f)));
    }

    @Test
    void concreteEnginesStillMustMatch() {
        Tensor a = Tensor.of(1f), b = Tensor.of(2f).to(ElementwiseTestSupport.ORACLE);
        JBurnException e = assertThrows(JBurnException.class, () -> Jit.compile(x -> a.add(b).add(x), VERIFY).apply(Tensor.of(0f)));
        assertEquals("add", e.op());
        assertTrue(e.reason().contains("different engines"), e.reason());
        JBurnException inputs = assertThrows(JBurnException.class, () -> Jit.compile((x, y) -> x.add(y), VERIFY).apply(a, b));
        assertEquals("jit", inputs.op());
        assertTrue(inputs.reason().contains("inputs live on different engines"), inputs.reason());
    }

    @Test
    void badFunctionsAndCalls() {
        assertEquals("jit", assertThrows(JBurnException.class, () -> Jit.compile(x -> null, VERIFY).apply(Tensor.of(1f))).op());
        CompiledFunction two = Jit.compile((x, y) -> x.add(y), VERIFY);
        JBurnException arity = assertThrows(JBurnException.class, () -> two.apply(Tensor.of(1f)));
        assertTrue(arity.reason().contains("takes 2 inputs, got 1"), arity.reason());
        assertThrows(JBurnException.class, () -> two.apply((Tensor) null, Tensor.of(1f)));
        CompiledFunction multi = Jit.compileList(xs -> List.of(xs.get(0), xs.get(0)), VERIFY);
        assertTrue(assertThrows(JBurnException.class, () -> multi.apply(Tensor.of(1f))).reason().contains("call apply(List)"));
        assertThrows(JBurnException.class, () -> Jit.compile((java.util.function.Function<Tensor, Tensor>) null));
        JBurnException notCalled = assertThrows(JBurnException.class, () -> Jit.compile(x -> x).graph());
        assertTrue(notCalled.reason().contains("not been called"), notCalled.reason());
    }

    @Test
    void frontEndErrorsSurfaceUnchangedWhileTracing() {
        JBurnException e = assertThrows(JBurnException.class, () -> Jit.compile(x -> x.reshape(5), VERIFY).apply(Tensor.of(1f, 2f)));
        assertEquals("reshape", e.op());
        JBurnException dot = assertThrows(JBurnException.class,
                () -> Jit.compile((x, y) -> x.dot(y), VERIFY).apply(Tensor.zeros(Shape.of(2, 3), DType.F32), Tensor.zeros(Shape.of(2, 3), DType.F32)));
        assertEquals("dot", dot.op());
        assertFalse(Jit.isTracing(), "a failed trace leaves no trace open");
        assertEquals("cpu", dev.jburn.Engine.defaultEngine().name());
    }
}
