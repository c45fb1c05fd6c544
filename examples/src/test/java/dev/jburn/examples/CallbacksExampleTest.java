package dev.jburn.examples;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The callbacks example: checkpoints kept, learning rates as scheduled, early stopping, plateau and a custom stop. */
class CallbacksExampleTest {
    @Test
    void callbacksDoWhatTheySay() throws Exception {
        var o = new ExampleOutput();
        CallbacksExample.Result r = CallbacksExample.run(o.out, true);
        String s = o.text();
        assertEquals(List.of("epoch-0004.ckpt", "epoch-0005.ckpt"), r.checkpointsLeft());
        assertEquals(List.of(0.01, 0.01, 0.005, 0.005, 0.0025), r.scheduledLrs());
        assertEquals(r.bestEpoch() + 4, r.stoppedEpoch());
        assertEquals(r.stoppedEpoch() + 1, r.plateauLrs().size());
        assertTrue(r.reductions() >= 1, s);
        assertTrue(r.targetEpoch() >= 1, "the target is reached after some training, not at once: " + r.targetEpoch());
        assertTrue(s.contains("epoch 1/5: loss"), "the logging callback prints each epoch\n" + s);
        assertTrue(s.contains("target reached after epoch " + (r.targetEpoch() + 1)), s);
        assertTrue(s.contains("ok: 2 checkpoints kept"), s);
    }
}
