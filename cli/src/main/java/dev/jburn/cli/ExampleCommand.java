package dev.jburn.cli;

import dev.jburn.examples.ExampleFailure;
import dev.jburn.examples.Examples;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code jburn example NAME}, {@code jburn example --small NAME} and {@code jburn example --list}. */
@Command(name = "example", mixinStandardHelpOptions = true,
        description = {"Run one of the example programs (each tested in CI). Each checks its own outcome and exits with 1 when it is not reached."})
final class ExampleCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = "--list", description = "List the examples.")
    boolean list;

    @CommandLine.Option(names = "--small", description = "The quick settings CI runs (less data, fewer epochs).")
    boolean small;

    @CommandLine.Parameters(arity = "0..1", paramLabel = "NAME", description = "The example to run.")
    String name;

    @Override public Integer call() throws Exception {
        var out = spec.commandLine().getOut();
        if (list || name == null) {
            out.println("examples (run one with: jburn example NAME, or on small settings: jburn example --small NAME):");
            Examples.all().forEach((k, v) -> out.println("  " + k + " ".repeat(Math.max(1, 19 - k.length())) + v.description()));
            return name == null && !list ? 2 : 0;
        }
        Examples.Example e = Examples.all().get(name);
        if (e == null) {
            spec.commandLine().getErr().println("jburn example: no example named '" + name + "'; known: " + Examples.all().keySet());
            return 2;
        }
        try {
            e.body().run(Main.out(spec), small);
        } catch (ExampleFailure f) {
            spec.commandLine().getErr().println("jburn example " + name + " FAILED: " + f.getMessage());
            return 1;
        }
        return 0;
    }
}
