package dev.jburn.examples;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The tensor-operations example: every check passes and the residuals are at rounding level. */
class TensorsExampleTest {
    @Test
    void everyCheckPasses() {
        var o = new ExampleOutput();
        TensorsExample.Result r = TensorsExample.run(o.out, true);
        String s = o.text();
        assertTrue(r.solveResidual() < 1e-12 && r.choleskyResidual() < 1e-12 && r.qrResidual() < 1e-12 && r.svdResidual() < 1e-12, s);
        assertTrue(r.checks() >= 20, s);
        assertTrue(s.contains("the solution is [1, -1, 2]: [1.0, -1.0, 2.0]"), s);
        assertTrue(s.contains("ok: " + r.checks() + " checks passed"), s);
    }

    @Test
    void aFailedCheckThrowsAnExampleFailureNamingTheExample() {
        ExampleFailure.check(true, "tensors", "not thrown");
        ExampleFailure f = assertThrows(ExampleFailure.class, () -> ExampleFailure.check(false, "xor", "accuracy %.2f, expected %d%%", 0.75, 100));
        assertEquals("xor: accuracy 0.75, expected 100%", f.getMessage());
    }
}
