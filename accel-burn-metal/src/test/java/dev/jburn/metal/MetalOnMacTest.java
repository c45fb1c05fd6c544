package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.spi.Backend;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The first real run, on a Mac: every MSL kernel of {@link MslKernels} compiled by Metal
 * ({@code newLibraryWithSource:options:error:}, fast math off) and dispatched on the default GPU
 * through the bridge, its results compared with the cpu engine's as {@link MslHostRunTest} compares
 * the CPU run's; then the engine itself ({@code Engine.select("metal")}, {@link MetalBackend}) on a
 * few eager ops and Jit functions against the cpu engine. Skipped elsewhere; never yet run (no Apple
 * hardware where this was written).
 *
 * <p>On a Mac: {@code ./mvnw -B -pl accel-burn-metal -am verify -Dtest=MetalOnMacTest -Dsurefire.failIfNoSpecifiedTests=false}
 */
class MetalOnMacTest {
    @Test
    void everyMslKernelRunsOnTheGpuAsOnTheCpuEngine() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac"),
                "needs macOS and a Metal GPU: " + MetalAvailability.get().reason());
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(18);
        int mismatches = 0, failed = 0;
        List<MslCase> cases = MslKernels.all(MslKernels.APPLE).cases();
        try (MetalDevice gpu = MetalDevice.open(new Objc(Natives.system())); Arena arena = Arena.ofConfined()) {
            System.out.println("Metal device: " + gpu.name());
            for (MslCase c : cases) {
                try {
                    MslCase.Inputs in = c.inputs(cpu, arena, rnd);
                    MemorySegment out = c.output(arena);
                    List<MetalDevice.SharedBuffer> buffers = new ArrayList<>();
                    for (MemorySegment m : in.segments()) {
                        MetalDevice.SharedBuffer b = gpu.buffer(m.byteSize());
                        b.contents().copyFrom(m);
                        buffers.add(b);
                    }
                    MetalDevice.SharedBuffer o = gpu.buffer(out.byteSize());
                    o.contents().copyFrom(out);
                    buffers.add(o);
                    // Element-wise: one thread per element and one more (its bounds check); reductions: a group per output and one more.
                    long groups = c.grouped() ? c.groups() + 1 : (c.count() + 1 + 255) / 256;
                    gpu.dispatch(c.label(), gpu.pipeline(c.source()), buffers, (int) c.count(), groups, 256);
                    out.copyFrom(o.contents());
                    for (MetalDevice.SharedBuffer b : buffers) gpu.free(b);
                    String bad = c.verify(cpu, in, out, arena);
                    if (bad != null) {
                        mismatches++;
                        System.out.println("MISMATCH " + c.label() + ": " + bad);
                    }
                } catch (RuntimeException e) {
                    failed++;
                    System.out.println("FAILED " + c.label() + ": " + e.getMessage());
                }
            }
        }
        System.out.printf("Metal: %d kernels, %d mismatches, %d failed to compile or run%n", cases.size(), mismatches, failed);
        assertEquals(0, mismatches + failed, "printed above");
    }

    @Test
    void mpsGemmMatchesAPlainProduct() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac"),
                "needs macOS and a Metal GPU: " + MetalAvailability.get().reason());
        int m = 33, n = 17, k = 70;
        Random rnd = new Random(5);
        try (MetalDevice gpu = MetalDevice.open(new Objc(Natives.system()))) {
            var a = gpu.buffer(4L * m * k);
            var b = gpu.buffer(4L * k * n);
            var c = gpu.buffer(4L * m * n);
            for (long i = 0; i < (long) m * k; i++) a.contents().setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, rnd.nextFloat() - 0.5f);
            for (long i = 0; i < (long) k * n; i++) b.contents().setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, rnd.nextFloat() - 0.5f);
            MetalGemm.multiply(gpu, a, b, c, m, n, k, dev.jburn.DType.F32);
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double want = 0;
                    for (int p = 0; p < k; p++) {
                        want += a.contents().getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, (long) i * k + p)
                                * b.contents().getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, (long) p * n + j);
                    }
                    float got = c.contents().getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, (long) i * n + j);
                    assertEquals(want, got, 1e-4 * Math.max(1, Math.abs(want)), "C[" + i + "," + j + "]");
                }
            }
        }
    }

    private record Case(String label, Function<List<Tensor>, Tensor> fn, List<Tensor> inputs) {}

    /** The metal engine against the cpu engine: eager ops (native and fallen back) and Jit functions (fused groups). */
    @Test
    void theEngineMatchesTheCpuEngineOnEagerOpsAndJitFunctions() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac"),
                "needs macOS and a Metal GPU: " + MetalAvailability.get().reason());
        Engine metal = Engine.select("metal"), cpu = Engine.select("cpu");
        System.out.println("metal engine: " + ((MetalBackend) metal.backend()).deviceName());
        Random rnd = new Random(7);
        Tensor a = random(rnd, 4, 5), b = random(rnd, 4, 5), row = random(rnd, 1, 5), m = random(rnd, 5, 3);
        Function<List<Tensor>, Tensor> fused = xs -> xs.get(0).multiply(xs.get(1)).add(xs.get(2)).exp();
        Function<List<Tensor>, Tensor> fusedSum = xs -> xs.get(0).subtract(xs.get(1)).maximum(0.0).sum(1);
        CompiledFunction jit = Jit.compileList(xs -> List.of(fused.apply(xs))), jitSum = Jit.compileList(xs -> List.of(fusedSum.apply(xs)));
        List<Case> cases = List.of(
                new Case("add (row broadcast)", xs -> xs.get(0).add(xs.get(1)), List.of(a, row)),
                new Case("exp", xs -> xs.get(0).exp(), List.of(a)),
                new Case("f16 multiply", xs -> xs.get(0).asType(DType.F16).multiply(xs.get(1).asType(DType.F16)).asType(DType.F32), List.of(a, b)),
                new Case("greater/where", xs -> Tensor.where(xs.get(0).greater(xs.get(1)), xs.get(0), xs.get(1)), List.of(a, b)),
                new Case("sum axis 0", xs -> xs.get(0).sum(0), List.of(a)),
                new Case("transpose", xs -> xs.get(0).transpose(), List.of(a)),
                new Case("cast to s32", xs -> xs.get(0).multiply(10.0).asType(DType.S32).asType(DType.F32), List.of(a)),
                new Case("matmul (MPS)", xs -> xs.get(0).matmul(xs.get(1)), List.of(a, m)),
                new Case("f64 add (cpu fallback)", xs -> xs.get(0).asType(DType.F64).add(xs.get(1).asType(DType.F64)).asType(DType.F32), List.of(a, b)),
                new Case("jit exp(a*b+row)", xs -> jit.apply(xs).getFirst(), List.of(a, b, row)),
                new Case("jit sum(max(a-b, 0), 1)", xs -> jitSum.apply(xs).getFirst(), List.of(a, b)));
        int bad = 0;
        for (Case c : cases) {
            float[] want = c.fn().apply(c.inputs()).toFloatArray();
            float[] got;
            try {
                got = c.fn().apply(c.inputs().stream().map(t -> t.to(metal)).toList()).toFloatArray();
            } catch (RuntimeException e) {
                bad++;
                System.out.println("FAILED " + c.label() + ": " + e.getMessage());
                continue;
            }
            for (int i = 0; i < want.length; i++) {
                if (Math.abs(want[i] - got[i]) > 1e-3 * Math.max(1, Math.abs(want[i]))) {
                    bad++;
                    System.out.println("MISMATCH " + c.label() + " at " + i + ": cpu " + want[i] + ", metal " + got[i]);
                    break;
                }
            }
        }
        System.out.println("metal fallbacks: " + metal.backend().fallbackCounts());
        assertEquals(0, bad, "printed above");
        assertEquals(java.util.Map.of(), metal.backend().fallbackCounts().entrySet().stream()
                .filter(e -> !e.getKey().endsWith(":f64")).collect(java.util.stream.Collectors.toMap(java.util.Map.Entry::getKey, java.util.Map.Entry::getValue)),
                "only the f64 case falls back");
    }

    private static Tensor random(Random rnd, int rows, int cols) {
        float[] v = new float[rows * cols];
        for (int i = 0; i < v.length; i++) v[i] = rnd.nextFloat() * 2 - 1;
        return Tensor.of(v).reshape(rows, cols).to(Engine.select("cpu"));
    }
}
