package dev.jburn.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A PrintStream for an example and what it printed. */
final class ExampleOutput {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);

    String text() { return buf.toString(StandardCharsets.UTF_8); }
}
