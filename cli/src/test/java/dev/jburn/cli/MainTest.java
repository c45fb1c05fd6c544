package dev.jburn.cli;

import dev.jburn.examples.Tour;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.*;

/** The command line and the README tour run as written. */
class MainTest {
    static String run(int expectedStatus, String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String s = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(expectedStatus, status, s);
        return s;
    }

    @Test
    void doctorListsEnginesAndComputes() {
        String s = run(0, "doctor");
        assertTrue(s.contains("cpu      available, priority   0:  pure Java"), s);
        assertTrue(s.contains("Default engine: cpu"), s);
        assertTrue(s.contains("  a.dot(a.transpose()) ==> Tensor<f32[2,2] cpu>\n  [[14.0, 32.0],\n   [32.0, 77.0]]"), s);
        assertFalse(s.contains("jshell>"), s);
        assertTrue(s.contains("All good."), s);
    }

    @Test
    void unknownCommandsFailWithUsageAndHelpListsEveryCommand() {
        String s = run(2, "frobnicate");
        assertTrue(s.contains("Unmatched argument") && s.contains("frobnicate"), s);
        s = run(0, "--help");
        for (String c : new String[] {"train", "evaluate", "quantize", "summary", "serve", "example", "doctor", "tour"}) assertTrue(s.contains(c), s);
        s = run(0, "train", "--help");
        for (String o : new String[] {"--model", "--epochs", "--batch-size", "--lr", "--engine", "--data", "--out", "--seed"}) assertTrue(s.contains(o), s);
    }

    @Test
    void examplesAreListedAndRun() {
        String s = run(0, "example", "--list");
        for (String name : new String[] {"tour", "models", "linear-regression", "classifier", "xor", "datasets", "tensors",
                "model-management", "callbacks"}) {
            assertTrue(s.contains("\n  " + name + " "), name + " is listed\n" + s);
        }
        assertEquals(java.util.List.of("tour", "models", "linear-regression", "classifier", "xor", "datasets", "tensors",
                "model-management", "callbacks"), java.util.List.copyOf(dev.jburn.examples.Examples.all().keySet()));
        assertTrue(run(2, "example", "nope").contains("no example named 'nope'"));
        assertTrue(run(0, "example", "models").contains("Total params: 203,530"));
        s = run(0, "example", "--small", "linear-regression");
        assertTrue(s.contains("ok: slope and intercept found within 0.05"), s);
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
        assertTrue(s.contains("u8.add(10) ==> Tensor<u8[2] cpu>\n[4, 5]"), s);
        assertTrue(s.contains("a.sum(-1) ==> Tensor<f32[2] cpu>\n[6.0, 15.0]"), s);
        assertEquals(15, s.lines().filter(l -> l.contains(" ==> ")).count(), s);
        assertTrue(s.contains("[[14.0, 32.0],\n [32.0, 77.0]]"), s);
        assertTrue(s.contains("97.0"), s);
        assertTrue(s.contains("[[2.0, 4.0, 6.0],\n [8.0, 10.0, 12.0]]"), s);
    }
}
