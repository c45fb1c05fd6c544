package dev.jburn.cli;

import dev.jburn.examples.Examples;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code jburn example NAME} and {@code jburn example --list}. */
@Command(name = "example", mixinStandardHelpOptions = true, description = "Run one of the example programs (each tested in CI).")
final class ExampleCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = "--list", description = "List the examples.")
    boolean list;

    @CommandLine.Parameters(arity = "0..1", paramLabel = "NAME", description = "The example to run.")
    String name;

    @Override public Integer call() {
        var out = spec.commandLine().getOut();
        if (list || name == null) {
            out.println("examples (run one with: jburn example NAME):");
            Examples.all().forEach((k, v) -> out.println("  " + k + " ".repeat(Math.max(1, 12 - k.length())) + v.description()));
            return name == null && !list ? 2 : 0;
        }
        Examples.Example e = Examples.all().get(name);
        if (e == null) {
            spec.commandLine().getErr().println("jburn example: no example named '" + name + "'; known: " + Examples.all().keySet());
            return 2;
        }
        e.body().accept(Main.out(spec));
        return 0;
    }
}
