package dev.jburn.examples;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** Save/load, f16, freezing, the benchmark and the Python export on the small settings. */
class ModelManagementExampleTest {
    @Test
    void managesTheModel() throws Exception {
        var o = new ExampleOutput();
        ModelManagementExample.Result r = ModelManagementExample.run(o.out, true);
        String s = o.text();
        assertTrue(r.reloadedBitForBit(), s);
        assertTrue(r.f16MaxDiff() > 0 && r.f16MaxDiff() <= ModelManagementExample.F16_TOLERANCE, s);
        assertTrue(r.f16Bytes() < 0.55 * r.f32Bytes(), s);
        assertTrue(r.frozenUnchanged(), s);
        assertEquals(java.util.List.of(1, 32, 256), java.util.List.copyOf(r.medianMillis().keySet()));
        if (Files.isExecutable(Path.of("/usr/bin/python3"))) {
            assertNotNull(r.python(), s);
            assertTrue(r.python().startsWith("F32 [32, 64] "), r.python());
            assertTrue(s.contains("python (struct + json) reads dense_0.kernel of mlp-f16.safetensors: F16 [32, 64]"), s);
        } else {
            assertTrue(s.contains("the check is skipped"), s);
        }
        assertTrue(s.contains("int8: model file") && s.contains("of 256"), s);
        assertTrue(s.contains("predict batch 256: median"), s);
        assertTrue(s.contains("ok: reload bit for bit"), s);
    }
}
