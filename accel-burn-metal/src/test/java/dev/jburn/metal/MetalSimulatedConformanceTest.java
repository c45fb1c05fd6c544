package dev.jburn.metal;

import dev.jburn.Engine;
import dev.jburn.conformance.BinaryContract;
import dev.jburn.conformance.CastContract;
import dev.jburn.conformance.MovementContract;
import dev.jburn.conformance.ReductionContract;
import dev.jburn.conformance.SelectContract;
import dev.jburn.conformance.UnaryContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The conformance kit's element-wise, cast, select, reduction and movement contracts on the metal
 * engine over {@link FakeObjc} with {@link ClangGpu}: the generated MSL runs on the CPU, so the whole
 * backend meets the kit on Linux. Opt-in ({@code -Djburn.metal.simulate=true}): every new kernel is a
 * clang++ build, minutes in all.
 */
class MetalSimulatedConformanceTest implements UnaryContract, BinaryContract, CastContract, SelectContract, ReductionContract, MovementContract {
    private static FakeObjc fake;
    private static ClangGpu gpu;
    private static Engine metal;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("jburn.metal.simulate"), "opt-in: -Djburn.metal.simulate=true");
        Assumptions.assumeTrue(Clang.present(), Clang.missing());
        fake = new FakeObjc();
        gpu = new ClangGpu();
        fake.gpu = gpu;
        metal = FakeProvider.engine(fake);
    }

    @AfterAll
    static void stop() throws Exception {
        if (metal == null) return;
        System.out.println("simulated metal: " + gpu.compiled + " kernels compiled, fallbacks " + metal.backend().fallbackCounts());
        metal.backend().close();
        gpu.close();
    }

    @Override
    public Engine engine() { return metal; }
}
