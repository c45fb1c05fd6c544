package dev.jburn.cli;

import dev.jburn.DType;
import dev.jburn.io.ModelFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** jburn quantize on a briefly trained MLP: smaller files, the accuracy delta printed and small, clear errors. */
class QuantizeCommandTest {
    @Test
    void int8AndF16ShrinkTheMlpAndKeepItsAccuracy(@TempDir Path out) throws Exception {
        MainTest.run(0, "train", "--limit", "1200", "--epochs", "2", "--batch-size", "64", "--validation-split", "0", "--out", out.toString());
        Path f32 = out.resolve("mlp.jburn");
        for (String to : new String[] {"int8", "f16", "bf16"}) {
            Path q = out.resolve("mlp-" + to + ".jburn");
            String s = MainTest.run(0, "quantize", "--model", f32.toString(), "--to", to, "--out", q.toString());
            assertTrue(s.contains("size: " + f32) && s.contains(q.toString()), s);
            assertTrue(s.contains("test accuracy: "), s);
            double ratio = (double) Files.size(q) / Files.size(f32);
            assertTrue(to.equals("int8") ? ratio < 0.3 : ratio < 0.55, to + ": " + Files.size(q) + " bytes against " + Files.size(f32));
            double delta = Double.parseDouble(s.replaceAll("(?s).*\\(([-+][0-9.]+) percentage points.*", "$1"));
            assertTrue(Math.abs(delta) <= (to.equals("bf16") ? 1.5 : 0.5), to + " moved the accuracy by " + delta + " points:\n" + s);
            ModelFile.Loaded l = ModelFile.load(q);
            assertEquals(to.equals("int8") ? DType.S8 : QuantizeCommand.target(to), l.state().get("dense_0.kernel").dtype());
            if (to.equals("int8")) {
                String e = MainTest.run(0, "evaluate", "--model", q.toString());
                assertTrue(e.contains("test: loss"), e);
            }
        }
        String s = MainTest.run(1, "quantize", "--model", f32.toString(), "--to", "int4", "--out", out.resolve("x.jburn").toString());
        assertTrue(s.contains("unknown --to 'int4': use f16, bf16 or int8"), s);
        s = MainTest.run(1, "quantize", "--model", out.resolve("mlp-int8.jburn").toString(), "--to", "f16", "--out", out.resolve("y.jburn").toString());
        assertTrue(s.contains("quantized already"), s);
        s = MainTest.run(2, "quantize", "--model", f32.toString());
        assertTrue(s.contains("Missing required options"), s);
    }
}
