package dev.jburn.metal;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Prim;
import dev.jburn.spi.Backend;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Jit-compiled function on a metal engine over {@link FakeObjc}: the fusion pass (asking the
 * engine's capabilities) makes one group of {@code a*b+c}, and the backend runs it as one MSL kernel,
 * compiled once and dispatched once per call, with no fallback. The fake runs no kernel, so the values
 * are not checked here ({@code MetalOnMacTest} compares them with the cpu engine on a Mac).
 */
class MetalJitTest {
    @Test
    void aFusedGroupRunsAsOneMslKernelCompiledOnce() {
        FakeObjc fake = new FakeObjc();
        Engine metal = FakeProvider.engine(fake);
        try (Backend b = metal.backend()) {
            CompiledFunction f = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))));
            List<Tensor> in = List.of(Tensor.of(1f, 2f, 3f, 4f, 5f, 6f).reshape(2, 3).to(metal),
                    Tensor.of(1f, 1f, 1f, 2f, 2f, 2f).reshape(2, 3).to(metal), Tensor.of(0f, 0f, 0f, 1f, 1f, 1f).reshape(2, 3).to(metal));
            int from = fake.calls.size();
            for (int call = 0; call < 2; call++) f.apply(in).forEach(Tensor::close);
            assertEquals(1, f.graph().nodes().size(), "one node");
            assertTrue(f.graph().nodes().getFirst().prim() instanceof Prim.Fused, "a fusion group");
            List<FakeObjc.Call> sent = fake.calls.subList(from, fake.calls.size());
            assertEquals(1, sent.stream().filter(c -> "newLibraryWithSource:options:error:".equals(c.selector())).count(), "compiled once");
            List<FakeObjc.Call> dispatches = sent.stream().filter(c -> "dispatchThreadgroups:threadsPerThreadgroup:".equals(c.selector())).toList();
            assertEquals(2, dispatches.size(), "one kernel per call");
            assertEquals(4L, sent.stream().filter(c -> "setBytes:length:atIndex:".equals(c.selector())).findFirst().orElseThrow().args().get(2),
                    "n at index 4: after three inputs (0-2) and the output (3)");
            String msl = sent.stream().filter(c -> "stringWithUTF8String:".equals(c.selector())).map(c -> (String) c.args().getFirst())
                    .filter(s -> s.contains("kernel void")).findFirst().orElseThrow();
            assertTrue(msl.contains("in2 [[buffer(2)]]"), "three inputs in one kernel:\n" + msl);
            assertEquals(Map.of(), b.fallbackCounts());
            in.forEach(Tensor::close);
        }
        assertEquals(List.of(), fake.leaks());
        assertEquals(0, fake.openPools());
    }
}
