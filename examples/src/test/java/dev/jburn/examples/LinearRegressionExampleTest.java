package dev.jburn.examples;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The linear-regression example finds y = 3x - 0.5 on its small settings. */
class LinearRegressionExampleTest {
    @Test
    void findsTheSlopeAndIntercept() {
        var o = new ExampleOutput();
        LinearRegressionExample.Result r = LinearRegressionExample.run(o.out, true);
        String s = o.text();
        assertEquals(3.0, r.slope(), 0.05, s);
        assertEquals(-0.5, r.intercept(), 0.05, s);
        assertEquals(r.lstsqSlope(), r.slope(), 0.02, "SGD lands next to the closed-form fit");
        assertEquals(r.lstsqIntercept(), r.intercept(), 0.02);
        assertTrue(r.finalLoss() < 0.02, "about the noise variance 0.01: " + r.finalLoss());
        assertTrue(s.contains("ok: slope and intercept found within 0.05"), s);
    }
}
