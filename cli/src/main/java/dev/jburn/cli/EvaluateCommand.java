package dev.jburn.cli;

import dev.jburn.data.FashionMnist;
import dev.jburn.data.TensorDataset;
import dev.jburn.io.ModelFile;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Trainer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code jburn evaluate --model FILE}: the test loss and accuracy of a saved Fashion-MNIST model. */
@Command(name = "evaluate", mixinStandardHelpOptions = true,
        description = "Evaluate a model file written by jburn train on the Fashion-MNIST test images.")
final class EvaluateCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "The model file (e.g. jburn-out/mlp.jburn).")
    Path model;

    @Option(names = "--data", description = "A directory with the Fashion-MNIST IDX files (default: as jburn train finds it).")
    Path data;

    @Override public Integer call() {
        PrintStream o = Main.out(spec);
        ModelFile.Loaded loaded = ModelFile.load(model);
        DataSource src = DataSource.resolve(data, System.getenv("JBURN_DATA"));
        o.println("model: " + model + " (" + loaded.model().name() + ", " + String.format(Locale.ROOT, "%,d", loaded.model().parameterCount())
                + " parameters)");
        o.println("data: " + src.description());
        FashionMnist fm = src.data().normalized();
        Map<String, Double> r = test(loaded, fm);
        o.println(String.format(Locale.ROOT, "test: loss %.4f, accuracy %.4f (%d images)", r.get("loss"), r.get("accuracy"), fm.test().size()));
        return 0;
    }

    /** The loss and accuracy of {@code loaded} on the (normalized) test images of {@code fm}. */
    static Map<String, Double> test(ModelFile.Loaded loaded, FashionMnist fm) {
        TensorDataset test = TrainCommand.shape(fm.test(), loaded.model());
        Trainer t = Trainer.of(loaded.model(), Losses.softmaxCrossEntropy(), Optimizers.sgd(0)).metrics(Metrics.accuracy());
        return t.evaluate(loaded.state(), test, 512);
    }
}
