package dev.jburn.optim;

import dev.jburn.JBurnException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Schedules at known steps. */
class SchedulesTest {
    @Test
    void valuesAtKnownSteps() {
        assertEquals(0.1, Schedules.constant(0.1).at(1000));
        Schedule st = Schedules.stepDecay(1.0, 10, 0.5);
        assertEquals(1.0, st.at(9));
        assertEquals(0.5, st.at(10));
        assertEquals(0.25, st.at(25));
        assertEquals(0.5, Schedules.exponentialDecay(1.0, 0.25, 10, false).at(5), 1e-15);
        assertEquals(1.0, Schedules.exponentialDecay(1.0, 0.25, 10, true).at(9));
        assertEquals(0.55, Schedules.polynomial(1.0, 0.1, 100, 1).at(50), 1e-15);
        assertEquals(0.1, Schedules.polynomial(1.0, 0.1, 100, 1).at(500), 1e-15);
        Schedule c = Schedules.cosineDecay(1.0, 100, 0.0);
        assertEquals(1.0, c.at(0), 1e-15);
        assertEquals(0.5, c.at(50), 1e-15);
        assertEquals(0.0, c.at(100), 1e-15);
        Schedule w = Schedules.warmupCosine(1e-3, 500, 10_500, 0);
        assertEquals(5e-4, w.at(250), 1e-15);
        assertEquals(1e-3, w.at(500), 1e-15);
        assertEquals(5e-4, w.at(5500), 1e-15);
        assertEquals(0, w.at(20_000), 1e-15);
        // PyTorch OneCycleLR(max_lr=1, total_steps=100, pct_start=0.3, div_factor=25, final_div_factor=1e4)
        Schedule o = Schedules.oneCycle(1.0, 100, 0.3, 25, 1e4);
        assertEquals(0.04, o.at(0), 1e-12);
        assertEquals(1.0, o.at(29), 1e-12);
        assertEquals(0.04 / 1e4, o.at(99), 1e-12);
        Schedule p = Schedules.piecewiseConstant(new long[] {10, 20}, new double[] {1, 0.1, 0.01});
        assertEquals(1, p.at(9));
        assertEquals(0.1, p.at(10));
        assertEquals(0.01, p.at(20));
        Schedule j = Schedules.join(new Schedule[] {s -> s / 10.0, Schedules.constant(1)}, new long[] {10});
        assertEquals(0.5, j.at(5));
        assertEquals(1, j.at(15));
        assertThrows(JBurnException.class, () -> Schedules.constant(Double.NaN));
        assertThrows(JBurnException.class, () -> Schedules.warmupCosine(1, 10, 5, 0));
    }
}
