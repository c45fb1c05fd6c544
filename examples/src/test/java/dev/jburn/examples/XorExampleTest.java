package dev.jburn.examples;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** XOR is learned completely, early stopping ends the run well before its 1000 epochs, and the summary is printed. */
class XorExampleTest {
    @Test
    void learnsXorAndStopsEarly() {
        var o = new ExampleOutput();
        XorExample.Result r = XorExample.run(o.out, true);
        String s = o.text();
        assertEquals(1.0, r.accuracy(), s);
        assertArrayEquals(new int[] {0, 1, 1, 0}, r.predicted());
        assertTrue(r.stoppedEpoch() >= 0 && r.stoppedEpoch() < 999, "early stopping stopped the run: " + r.stoppedEpoch());
        assertEquals(r.bestEpoch() + 20, r.stoppedEpoch(), "patience 20");
        assertEquals(r.stoppedEpoch() + 1, r.epochsRun());
        assertTrue(s.contains("Model: xor") && s.contains("Total params: 42"), s);
        assertTrue(s.contains("1 xor 1 = 0") && s.contains("ok: 100% accuracy"), s);
    }
}
