package dev.jburn.conformance;

import dev.jburn.Engine;
import dev.jburn.spi.HostMemory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compiled functions on the cpu engine free what they make: {@link JitMemorySoak} for a few seconds,
 * with the host budget's live bytes back at their start after every round (no collection needed) and
 * never more than a few MiB above it.
 */
class JitMemorySoakTest {
    /** Live host bytes a round may add while its results are alive (measured: about 18 KiB). */
    static final long BOUND = 1L << 20;

    @Test
    void compiledFunctionsAndTheirResultsFreeEverythingTheyMade() {
        Map<String, LongSupplier> counters = Map.of("host bytes", HostMemory::live);
        JitMemorySoak.Report r = JitMemorySoak.run(Engine.select("cpu"), counters, Duration.ofSeconds(3), BOUND, 2_000);
        System.out.println("cpu jit soak: " + r);
        assertTrue(r.compilations() >= (long) r.rounds() * JitMemorySoak.FUNCTIONS_PER_ROUND, r::toString);
    }
}
