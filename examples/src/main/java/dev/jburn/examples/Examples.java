package dev.jburn.examples;

import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/** The runnable examples ({@code jburn example NAME}), each tested in CI. */
public final class Examples {
    private Examples() {}

    /**
     * One example.
     *
     * @param description what it shows
     * @param body        runs it, printing to the stream
     */
    public record Example(String description, Consumer<PrintStream> body) {}

    private static final Map<String, Example> ALL = new LinkedHashMap<>();

    static {
        ALL.put("tour", new Example("the README's tour of the tensor API", out -> Tour.main(new String[0])));
        ALL.put("models", new Example("the README's Models section: an MLP and a CNN, summaries, inference, branches, freezing",
                ModelsExample::run));
    }

    /** Every example by name, in listing order. */
    public static Map<String, Example> all() { return Collections.unmodifiableMap(ALL); }
}
