package dev.jburn.metal;

import dev.jburn.Engine;
import dev.jburn.spi.Backend;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The first real run, on a Mac: every MSL kernel of {@link MslKernels} compiled by Metal
 * ({@code newLibraryWithSource:options:error:}, fast math off) and dispatched on the default GPU
 * through the bridge, its results compared with the cpu engine's as {@link MslHostRunTest} compares
 * the CPU run's; then the engine itself ({@code Engine.select("metal")}, {@link MetalBackend}) on a
 * few eager ops and Jit functions against the cpu engine. Skipped elsewhere; never yet run (no Apple
 * hardware where this was written).
 *
 * <p>On a Mac: {@code ./mvnw -B -pl accel-burn-metal -am verify -Dtest=MetalOnMacTest -Dsurefire.failIfNoSpecifiedTests=false}.
 * The hand-written kernels (movement, indexing, windows, scans, sorts, the simdgroup GEMM) have their
 * own tests, which run on the GPU on a Mac ({@link SpiRun}): {@code -Dtest='MetalOnMacTest,Metal*HostRunTest'}.
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

    /** The metal engine against the cpu engine: {@link EngineCases}, as on Linux. */
    @Test
    void theEngineMatchesTheCpuEngineOnEagerOpsAndJitFunctions() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac"),
                "needs macOS and a Metal GPU: " + MetalAvailability.get().reason());
        Engine metal = Engine.select("metal");
        System.out.println("metal engine: " + ((MetalBackend) metal.backend()).deviceName());
        Map<String, Long> before = metal.backend().fallbackCounts();
        List<EngineCases.Case> cases = EngineCases.common(new Random(7));
        // Apple's exp and f16 rounding, MPS's summation order: close to the cpu engine's, not bit for bit.
        int bad = EngineCases.mismatches(metal, cases, 1e-3);
        System.out.println("metal fallbacks: " + metal.backend().fallbackCounts());
        assertEquals(0, bad, "printed above");
        assertEquals(EngineCases.FALLBACKS, EngineCases.added(before, metal.backend().fallbackCounts()), "only the f64 case falls back");
    }
}
