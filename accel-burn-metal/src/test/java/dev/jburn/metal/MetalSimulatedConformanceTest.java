package dev.jburn.metal;

import dev.jburn.Engine;
import dev.jburn.conformance.BinaryContract;
import dev.jburn.conformance.BitcastContract;
import dev.jburn.conformance.CastContract;
import dev.jburn.conformance.ConvContract;
import dev.jburn.conformance.CreationContract;
import dev.jburn.conformance.DotContract;
import dev.jburn.conformance.ElementwiseLawContract;
import dev.jburn.conformance.ErrorContract;
import dev.jburn.conformance.IeeeContract;
import dev.jburn.conformance.IndexContract;
import dev.jburn.conformance.MovementContract;
import dev.jburn.conformance.PromotionContract;
import dev.jburn.conformance.ReductionContract;
import dev.jburn.conformance.ScanContract;
import dev.jburn.conformance.SelectContract;
import dev.jburn.conformance.ShapeContract;
import dev.jburn.conformance.SliceJoinContract;
import dev.jburn.conformance.SortContract;
import dev.jburn.conformance.TransferContract;
import dev.jburn.conformance.UnaryContract;
import dev.jburn.conformance.WindowContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The conformance kit's contracts for what the metal engine runs itself (element-wise, IEEE cases and
 * laws, promotion, casts, select, reductions, movement, slices and joins, creation, indexing, scans,
 * sorts, windows, convolution, dot, bitcasts, shapes, transfers, errors) on the engine over
 * {@link FakeObjc} with {@link ClangGpu}: the generated and hand-written MSL runs on the CPU (MPS's
 * product as a plain loop), so the whole backend meets the kit on Linux. The contracts of ops that
 * all run on the cpu engine (linear algebra, random) and of layers are left out: they would test the
 * cpu engine through the fallback. Opt-in ({@code -Djburn.metal.simulate=true}): every new kernel is a
 * clang++ build, minutes in all.
 */
class MetalSimulatedConformanceTest implements UnaryContract, BinaryContract, CastContract, SelectContract, ReductionContract, MovementContract,
        DotContract, IeeeContract, ElementwiseLawContract, PromotionContract, TransferContract, ErrorContract, BitcastContract, ShapeContract,
        SliceJoinContract, CreationContract, IndexContract, ScanContract, SortContract, WindowContract, ConvContract {
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
