package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The whole conformance kit on the GPU; skipped where the cuda engine is unavailable. */
@Tag("gpu")
class CudaConformanceTest implements ConformanceKit {
    @BeforeAll
    static void needsCuda() {
        Assumptions.assumeTrue(CudaAvailability.get().available(), () -> "cuda unavailable: " + CudaAvailability.get().reason());
    }

    @Override
    public Engine engine() { return Engine.select("cuda"); }
}
