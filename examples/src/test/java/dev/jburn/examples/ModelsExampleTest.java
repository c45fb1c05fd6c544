package dev.jburn.examples;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.*;

/** The README's Models section runs as written and prints what it promises. */
class ModelsExampleTest {
    @Test
    void modelsExampleRuns() {
        var buf = new ByteArrayOutputStream();
        Tensor logits = ModelsExample.run(new PrintStream(buf, true, StandardCharsets.UTF_8));
        String s = buf.toString(StandardCharsets.UTF_8);
        assertEquals(Shape.of(32, 10), logits.shape());
        assertTrue(s.contains("Model: mlp") && s.contains("Total params: 203,530"), s);
        assertTrue(s.contains("Model: cnn") && s.contains("Total params: 225,034"), s);
        assertTrue(s.contains("trainable after freezing dense_0: [dense_1.kernel, dense_1.bias]"), s);
        assertTrue(s.contains("two inputs [a, b]"), s);
    }
}
