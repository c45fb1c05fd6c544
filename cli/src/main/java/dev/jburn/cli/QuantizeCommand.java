package dev.jburn.cli;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.data.FashionMnist;
import dev.jburn.io.ModelFile;
import dev.jburn.io.Quantization;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jburn quantize --model FILE --to f16|bf16|int8 --out FILE}: a smaller model file (see
 * {@link Quantization}), with the file sizes and the Fashion-MNIST test accuracy before and after.
 */
@Command(name = "quantize", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Quantize a model file: f16 or bf16 (every float parameter stored in 16 bits, computed in f32) or int8 "
                + "(dense and conv kernels as int8, one scale per output channel, dequantized inside the compiled predict).",
                "Prints the file sizes and the test accuracy of both models on Fashion-MNIST (found as jburn train finds it)."})
final class QuantizeCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "The model file to quantize (e.g. jburn-out/mlp.jburn).")
    Path model;

    @Option(names = "--to", required = true, description = "f16, bf16 or int8.")
    String to;

    @Option(names = "--out", required = true, description = "Where the quantized model file goes.")
    Path out;

    @Option(names = "--data", description = "A directory with the Fashion-MNIST IDX files (default: as jburn train finds it).")
    Path data;

    /** The storage type {@code --to} names. */
    static DType target(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "f16", "fp16", "float16" -> DType.F16;
            case "bf16", "bfloat16" -> DType.BF16;
            case "int8", "s8", "i8" -> DType.S8;
            default -> throw new JBurnException("quantize", "unknown --to '" + name + "': use f16, bf16 or int8");
        };
    }

    @Override public Integer call() {
        PrintStream o = Main.out(spec);
        DType t = target(to);
        ModelFile.Loaded f32 = ModelFile.load(model);
        Quantization.Result q = Quantization.quantize(f32.model(), f32.state(), t);
        ModelFile.save(out, q.model(), q.state());
        long before = size(model), after = size(out);
        o.println(String.format(Locale.ROOT, "size: %s %,d bytes -> %s %,d bytes (%.1f%%, %s)", model, before, out, after,
                100.0 * after / before, to.toLowerCase(Locale.ROOT)));
        DataSource src = DataSource.resolve(data, System.getenv("JBURN_DATA"));
        o.println("data: " + src.description());
        FashionMnist fm = src.data().normalized();
        Map<String, Double> a = EvaluateCommand.test(f32, fm), b = EvaluateCommand.test(ModelFile.load(out), fm);
        double accA = a.get("accuracy"), accB = b.get("accuracy");
        o.println(String.format(Locale.ROOT, "test accuracy: %.4f -> %.4f (%+.2f percentage points; loss %.4f -> %.4f; %d images)",
                accA, accB, 100 * (accB - accA), a.get("loss"), b.get("loss"), fm.test().size()));
        return 0;
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            throw new JBurnException("quantize", "cannot read the size of " + f + ": " + e.getMessage(), e);
        }
    }
}
