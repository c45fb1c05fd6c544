package dev.jburn.examples;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/** {@code jburn example NAME}: the runnable examples, each tested in CI. */
final class Examples {
    private Examples() {}

    private static final Map<String, Example> ALL = new LinkedHashMap<>();

    private record Example(String description, Consumer<PrintStream> body) {}

    static {
        ALL.put("tour", new Example("the README's tour of the tensor API", out -> Tour.main(new String[0])));
        ALL.put("models", new Example("the README's Models section: an MLP and a CNN, summaries, inference, branches, freezing",
                ModelsExample::run));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--list")) {
            (args.length == 0 ? err : out).println("examples (run one with: jburn example NAME):");
            ALL.forEach((k, v) -> (args.length == 0 ? err : out).println("  " + k + " ".repeat(Math.max(1, 10 - k.length())) + v.description()));
            return args.length == 0 ? 2 : 0;
        }
        Example e = ALL.get(args[0]);
        if (e == null) {
            err.println("jburn example: no example named '" + args[0] + "'; known: " + ALL.keySet());
            return 2;
        }
        e.body().accept(out);
        return 0;
    }
}
