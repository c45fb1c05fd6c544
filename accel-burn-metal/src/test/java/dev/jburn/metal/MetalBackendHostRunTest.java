package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The metal engine end to end on Linux: tensors and Jit functions on a {@link MetalBackend} over
 * {@link FakeObjc}, whose dispatches run the compiled MSL on the CPU ({@link ClangGpu}), against the
 * cpu engine. This checks what the call-sequence tests cannot: that the backend hands the kernels the
 * right buffers, shapes, element counts and grids (flattened operands, expanded broadcasts, strided
 * reductions, fused groups). Apple's compiler, math library and GPU are not in it ({@code MetalOnMacTest}).
 */
class MetalBackendHostRunTest {
    @BeforeAll
    static void needsClang() { Assumptions.assumeTrue(Clang.present(), Clang.missing()); }

    private record Case(String label, Function<List<Tensor>, Tensor> fn, List<Tensor> inputs) {}

    @Test
    void eagerOpsAndJitFunctionsComputeWhatTheCpuEngineComputes() throws Exception {
        FakeObjc fake = new FakeObjc();
        int bad = 0;
        try (ClangGpu gpu = new ClangGpu()) {
            fake.gpu = gpu;
            Engine metal = FakeProvider.engine(fake);
            try (var backend = metal.backend()) {
                Random rnd = new Random(18);
                Tensor a = random(rnd, 3, 4), b = random(rnd, 3, 4), row = random(rnd, 1, 4), col = random(rnd, 3, 1);
                Tensor cube = random(rnd, 2, 3, 4);
                Tensor ia = a.multiply(100.0).asType(DType.S32), ib = b.multiply(10.0).add(20.0).asType(DType.S32);
                Tensor d = Tensor.of(1.5, -2.25, 3.0), one = Tensor.scalar(0.5f);
                CompiledFunction fused = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2)).exp()));
                CompiledFunction fusedSum = Jit.compileList(xs -> List.of(xs.get(0).subtract(xs.get(1)).maximum(0.0).sum(1)));
                List<Case> cases = List.of(
                        new Case("add", xs -> xs.get(0).add(xs.get(1)), List.of(a, b)),
                        new Case("add, a row broadcast", xs -> xs.get(0).add(xs.get(1)), List.of(a, row)),
                        new Case("subtract, a column broadcast", xs -> xs.get(0).subtract(xs.get(1)), List.of(a, col)),
                        new Case("multiply by a rank-0 tensor", xs -> xs.get(0).multiply(xs.get(1)), List.of(a, one)),
                        new Case("exp", xs -> xs.get(0).exp(), List.of(a)),
                        new Case("s32 divide and negate", xs -> xs.get(0).divide(xs.get(1)).negate(), List.of(ia, ib)),
                        new Case("f16 multiply", xs -> xs.get(0).asType(DType.F16).multiply(xs.get(1).asType(DType.F16)), List.of(a, b)),
                        new Case("greater, where", xs -> Tensor.where(xs.get(0).greater(xs.get(1)), xs.get(0), xs.get(1)), List.of(a, b)),
                        new Case("sum over the last axis", xs -> xs.get(0).sum(2), List.of(cube)),
                        new Case("sum over axes 0 and 2 (strided)", xs -> xs.get(0).sum(0, 2), List.of(cube)),
                        new Case("max over everything", xs -> xs.get(0).max(), List.of(cube)),
                        new Case("any of a comparison", xs -> xs.get(0).greater(0.5).any(1).asType(DType.F32), List.of(a)),
                        new Case("transpose [2,0,1]", xs -> xs.get(0).transpose(2, 0, 1), List.of(cube)),
                        new Case("jit exp(a*b+row)", xs -> fused.apply(xs).getFirst(), List.of(a, b, row)),
                        new Case("jit sum(max(a-b, 0), 1)", xs -> fusedSum.apply(xs).getFirst(), List.of(a, b)),
                        new Case("f64 add (the cpu engine's)", xs -> xs.get(0).add(xs.get(0)), List.of(d)));
                for (Case c : cases) {
                    double[] want = c.fn().apply(c.inputs()).toDoubleArray();
                    List<Tensor> onMetal = new ArrayList<>();
                    for (Tensor t : c.inputs()) onMetal.add(t.to(metal));
                    double[] got = c.fn().apply(onMetal).toDoubleArray();
                    String diff = want.length != got.length ? want.length + " elements expected, got " + got.length : null;
                    for (int i = 0; diff == null && i < want.length; i++) {
                        if (!(Math.abs(want[i] - got[i]) <= 1e-6 * Math.max(1, Math.abs(want[i])))) diff = "at " + i + ": cpu " + want[i] + ", metal " + got[i];
                    }
                    if (diff != null) {
                        bad++;
                        System.out.println("MISMATCH " + c.label() + " " + diff);
                    }
                }
                System.out.println("metal on clang: " + cases.size() + " cases, " + gpu.compiled + " kernels compiled, fallbacks " + backend.fallbackCounts());
                assertEquals(Map.of("add:f64", 1L), backend.fallbackCounts(), "only the f64 case runs on the cpu engine");
            }
        }
        assertEquals(0, bad, "mismatches printed above");
        assertEquals(List.of(), fake.leaks());
    }

    private static Tensor random(Random rnd, int... dims) {
        int n = 1;
        for (int d : dims) n *= d;
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = rnd.nextFloat() * 2 - 1;
        return Tensor.of(v).reshape(dims).to(Engine.select("cpu"));
    }
}
