package dev.jburn.metal;

import dev.jburn.Engine;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The metal engine end to end on Linux: {@link EngineCases} (tensors and Jit functions) on a
 * {@link MetalBackend} over {@link FakeObjc}, whose dispatches run the compiled MSL on the CPU
 * ({@link ClangGpu}), against the cpu engine. This checks what the call-sequence tests cannot: that the
 * backend hands the kernels the right buffers, shapes, element counts and grids (flattened operands,
 * expanded broadcasts, strided reductions, fused groups). Apple's compiler, math library and GPU are
 * not in it ({@code MetalOnMacTest} runs the same cases there).
 */
class MetalBackendHostRunTest {
    @BeforeAll
    static void needsClang() { Assumptions.assumeTrue(Clang.present(), Clang.missing()); }

    @Test
    void eagerOpsAndJitFunctionsComputeWhatTheCpuEngineComputes() throws Exception {
        FakeObjc fake = new FakeObjc();
        int bad;
        try (ClangGpu gpu = new ClangGpu()) {
            fake.gpu = gpu;
            Engine metal = FakeProvider.engine(fake);
            try (var backend = metal.backend()) {
                List<EngineCases.Case> cases = EngineCases.common(new Random(18));
                // The host libm stands in for Apple's and for the cpu engine's: exp agrees to the last bits here.
                bad = EngineCases.mismatches(metal, cases, 1e-6);
                System.out.println("metal on clang: " + cases.size() + " cases, " + gpu.compiled + " kernels compiled, fallbacks " + backend.fallbackCounts());
                assertEquals(EngineCases.FALLBACKS, backend.fallbackCounts(), "only the f64 case runs on the cpu engine");
            }
        }
        assertEquals(0, bad, "mismatches printed above");
        assertEquals(List.of(), fake.leaks());
    }
}
