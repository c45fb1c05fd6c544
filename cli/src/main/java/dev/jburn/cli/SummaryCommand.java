package dev.jburn.cli;

import dev.jburn.io.ModelFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code jburn summary --model FILE}: the layer table of a saved model. */
@Command(name = "summary", mixinStandardHelpOptions = true, description = "Print the layers and parameter counts of a model file.")
final class SummaryCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "The model file (e.g. jburn-out/mlp.jburn).")
    Path model;

    @Override public Integer call() {
        ModelFile.Loaded loaded = ModelFile.load(model);
        spec.commandLine().getOut().print(loaded.model().summary(loaded.state()));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
