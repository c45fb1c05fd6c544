package dev.jburn.examples;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.*;

/** The command line and the README tour run as written. */
class JburnTest {
    private static String run(int expectedStatus, String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = Jburn.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(expectedStatus, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void doctorListsEnginesAndComputes() {
        String s = run(0, "doctor");
        assertTrue(s.contains("cpu      priority   0  available"), s);
        assertTrue(s.contains("Default engine: cpu"), s);
        assertTrue(s.contains("[[14.0, 32.0],\n     [32.0, 77.0]]"), s);
        assertTrue(s.contains("All good."), s);
    }

    @Test
    void unknownCommandsFailWithUsage() {
        String s = run(2, "frobnicate");
        assertTrue(s.contains("unknown command 'frobnicate'") && s.contains("usage: jburn"), s);
    }

    @Test
    void tourRuns() {
        PrintStream saved = System.out;
        var out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Tour.main(new String[0]);
        } finally {
            System.setOut(saved);
        }
        String s = out.toString(StandardCharsets.UTF_8);
        assertTrue(s.contains("Tensor<u8[2] cpu>\n[4, 5]"), s);
        assertTrue(s.contains("Tensor<f32[2] cpu>\n[6.0, 15.0]"), s);
        assertTrue(s.contains("[[14.0, 32.0],\n [32.0, 77.0]]"), s);
        assertTrue(s.contains("97.0"), s);
        assertTrue(s.contains("[[2.0, 4.0, 6.0],\n [8.0, 10.0, 12.0]]"), s);
    }
}
