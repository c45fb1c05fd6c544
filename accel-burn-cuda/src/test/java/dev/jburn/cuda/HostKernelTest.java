package dev.jburn.cuda;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every generated eager element-wise kernel and this module's line kernels, compiled by the host
 * C++ compiler and run on the CPU ({@link HostKernelCheck}), agree with the cpu engine. Needs no GPU;
 * skipped where {@code g++} is missing.
 */
class HostKernelTest {
    @Test
    void generatedKernelsComputeWhatTheCpuEngineComputes() throws Exception {
        Assumptions.assumeTrue(HostKernelTestSupport.hasCompiler(), "no g++ on this machine");
        assertEquals(0, HostKernelCheck.run("g++"), "kernels that disagree with the cpu engine are printed above");
    }
}
