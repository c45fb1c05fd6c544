package dev.jburn.metal;

import dev.jburn.kernels.KernelSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every generated MSL kernel, run on the CPU ({@link MslHost}), computes what the cpu engine computes; and the run catches wrong kernels. */
class MslHostRunTest {
    @BeforeAll
    static void needsClang() { Assumptions.assumeTrue(Clang.present(), Clang.missing()); }

    @Test
    void generatedMslComputesWhatTheCpuEngineComputes() throws Exception {
        // Without native bfloat: with it only the BF16 buffers' declared type differs (MslSyntaxTest checks those).
        List<MslCase> cases = MslKernels.all(MslKernels.APPLE).cases();
        assertEquals(0, MslHost.check(cases), "kernels that disagree with the cpu engine are printed above");
    }

    /**
     * Three wrong kernels, each must be reported: an add that subtracts, a reduction without the barrier
     * in its tree (threads read partial sums before they are written), and an element-wise kernel
     * without its bounds check (it writes past the count).
     */
    @Test
    void theRunCatchesWrongKernels() throws Exception {
        List<MslCase> all = MslKernels.all(MslKernels.APPLE).cases();
        MslCase add = find(all, "binary add:f32");
        MslCase sum = find(all, "sum:s32 [300] axes [0]");
        MslCase neg = find(all, "unary negate:s32");
        List<MslCase> broken = List.of(
                edit(add, "(v0 + v1)", "(v0 - v1)"),
                edit(sum, "      threadgroup_barrier(mem_flags::mem_threadgroup);\n    }", "    }"),
                edit(neg, "if (i >= n) return;", ""));
        assertEquals(broken.size(), MslHost.check(broken), "each broken kernel should be one mismatch");
    }

    private static MslCase find(List<MslCase> cases, String label) {
        return cases.stream().filter(c -> c.label().equals(label)).findFirst()
                .orElseThrow(() -> new AssertionError("no kernel labelled " + label));
    }

    private static MslCase edit(MslCase c, String from, String to) {
        String code = c.source().code();
        if (!code.contains(from)) throw new AssertionError(c.label() + " no longer contains " + from + ":\n" + code);
        KernelSource s = new KernelSource(c.source().entry(), code.replace(from, to), c.source().inputTypes(), c.source().outType());
        return new MslCase(c.label() + " (broken)", s, c.inShapes(), c.outCount(), c.count(), c.groups(), c.tied(), c.approx(),
                c.oracle(), c.pinned(), c.pinValue());
    }
}
