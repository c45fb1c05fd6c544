package dev.jburn.cli;

import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.data.FashionMnist;
import dev.jburn.data.TensorDataset;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.Communicators;
import dev.jburn.dist.Launcher;
import dev.jburn.dist.Rendezvous;
import dev.jburn.io.ModelFile;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizer;
import dev.jburn.optim.Optimizers;
import dev.jburn.optim.Schedules;
import dev.jburn.train.DataParallel;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Precision;
import dev.jburn.train.Trainer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code jburn train}: the main job. */
@Command(name = "train", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Train a model on Fashion-MNIST: the MLP 784-256-10 (default) or the small CNN, with Adam.",
                "Data: --data DIR, else $JBURN_DATA, else /usr/share/datasets/fashion-mnist (apt-get install dataset-fashion-mnist),"
                        + " else a 3000-image subset embedded in jburn.",
                "Writes the model file, the history (CSV) and the learning curves (PNG) to --out."})
final class TrainCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", defaultValue = "mlp", description = "mlp (784-256-10, ReLU) or cnn ((conv3x3-batchnorm-relu-maxpool) x 2 with 32 and 64 filters, then 128-10). Default: ${DEFAULT-VALUE}.")
    String model;

    @Option(names = "--epochs", defaultValue = "5", description = "Epochs. Default: ${DEFAULT-VALUE}.")
    int epochs;

    @Option(names = "--batch-size", defaultValue = "128", description = "Examples per step. Default: ${DEFAULT-VALUE}.")
    int batchSize;

    @Option(names = "--lr", defaultValue = "1e-3", description = "Adam's learning rate. Default: ${DEFAULT-VALUE}.")
    double lr;

    @Option(names = "--lr-schedule", defaultValue = "auto", description = "constant, or cosine: the learning rate decays from --lr to 0 "
            + "over all the training steps (Optax cosine_decay_schedule); auto: constant for mlp, cosine for cnn. Default: ${DEFAULT-VALUE}.")
    String lrSchedule;

    @Option(names = "--engine", description = "cpu, cuda or vulkan (default: the best available engine); cuda:1 for a given GPU; "
            + "a comma-separated list (cuda:0,cuda:1) trains one data-parallel replica per engine, as threads of this process.")
    String engine;

    @Option(names = "--data", description = "A directory with the four Fashion-MNIST IDX files (plain or .gz).")
    Path data;

    @Option(names = "--out", defaultValue = "jburn-out", description = "Where the model file, history.csv and history.png go. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--seed", defaultValue = "0", description = "Seed of the parameters, shuffles and dropout. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--limit", defaultValue = "0", description = "Train on the first N training images only (0: all).")
    int limit;

    @Option(names = "--validation-split", defaultValue = "0.0833333", description = "Fraction of the training images held out for validation. Default: 1/12 (5000 of 60000).")
    double validationSplit;

    @Option(names = "--nproc", defaultValue = "1", description = "Data-parallel processes on this host (one per GPU, as torchrun): each trains on 1/N of "
            + "every batch (--batch-size is the global batch) and the gradients are summed (NCCL on cuda). Processes that a scheduler starts with "
            + "RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT join the group without it. Default: ${DEFAULT-VALUE}.")
    int nproc;

    @Option(names = "--precision", defaultValue = "f32", description = "f32, bf16 or f16: the type layers compute in; bf16 and f16 keep f32 parameters "
            + "(mixed precision; f16 with dynamic loss scaling). Default: ${DEFAULT-VALUE}.")
    String precision;

    @Option(names = "--tf32", description = "On --engine cuda: F32 GEMMs and convolutions on TF32 tensor cores (10 mantissa bits in the "
            + "products, about 1e-3 relative error; what PyTorch's cuDNN convolutions do by default). Off: full F32.")
    boolean tf32;

    /**
     * Turns on the cuda engine's TF32 math ({@code jburn.cuda.tf32}, read when the engine is made, which in this
     * process is just after) for {@code --engine} names that are all cuda devices; anything else is refused, since
     * only NVIDIA's tensor cores have TF32 and a silently ignored flag would mislead.
     */
    static void useTf32(String engine) {
        boolean cuda = engine != null && java.util.Arrays.stream(engine.split(",", -1)).map(String::trim)
                .allMatch(n -> n.equalsIgnoreCase("cuda") || n.toLowerCase(Locale.ROOT).startsWith("cuda:"));
        if (!cuda) {
            throw new dev.jburn.JBurnException("train", "--tf32 needs --engine cuda (TF32 is a tensor-core mode of NVIDIA GPUs), got --engine "
                    + (engine == null ? "(default)" : engine));
        }
        System.setProperty("jburn.cuda.tf32", "true");
    }

    /** Adam with the learning-rate schedule {@code --lr-schedule} names, over {@code steps} training steps. */
    static Optimizer optimizer(String schedule, double lr, long steps) {
        return switch (schedule.toLowerCase(Locale.ROOT)) {
            case "constant" -> Optimizers.adam(lr);
            case "cosine" -> Optimizers.adam(Schedules.cosineDecay(lr, steps, 0));
            default -> throw new dev.jburn.JBurnException("train", "unknown --lr-schedule '" + schedule + "': use constant or cosine");
        };
    }

    /** The policy {@code --precision} names. */
    static Precision precision(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "f32", "fp32", "float32" -> Precision.full();
            case "bf16", "bfloat16" -> Precision.mixedBf16();
            case "f16", "fp16", "float16" -> Precision.mixedF16();
            default -> throw new dev.jburn.JBurnException("train", "unknown --precision '" + name + "': use f32, bf16 or f16");
        };
    }

    @Override public Integer call() {
        if (nproc < 1) throw new dev.jburn.JBurnException("train", "--nproc must be >= 1, got " + nproc);
        if (nproc > 1 && engine != null && engine.contains(",")) {
            throw new dev.jburn.JBurnException("train", "--nproc " + nproc + " and several engines (--engine " + engine
                    + ") do not go together: choose processes (--nproc, one GPU each) or replica threads (--engine a,b)");
        }
        boolean member = System.getenv("RANK") != null && System.getenv("WORLD_SIZE") != null;
        if (nproc > 1 && !member) return launch();
        if (!member) return train(null);
        try (Rendezvous r = Rendezvous.fromEnvironment()) {
            return train(r);
        }
    }

    /** Starts {@code --nproc} copies of this command (without {@code --nproc}), each a member of one group. */
    private int launch() {
        List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--nproc")) args.subList(i, Math.min(i + 2, args.size())).clear();
            if (i < args.size() && args.get(i).startsWith("--nproc=")) args.remove(i);
        }
        if (args.isEmpty() || !args.getFirst().equals("train")) args.addFirst("train");
        Main.out(spec).println("jburn train: " + nproc + " data-parallel processes (NCCL_NVLS_ENABLE=0 in each); rank 0 reports");
        return Launcher.nproc(nproc).run(Launcher.java(Main.class.getName(), args.toArray(String[]::new)));
    }

    /** Trains; {@code group} is this process's data-parallel group (null: alone). Only rank 0 reports and writes. */
    private int train(Rendezvous group) {
        Precision policy = precision(precision);
        boolean lead = group == null || group.rank() == 0;
        PrintStream o = lead ? Main.out(spec) : new PrintStream(java.io.OutputStream.nullOutputStream());
        if (tf32) useTf32(engine);
        List<Engine> engines = engine == null ? List.of(Engine.defaultEngine())
                : java.util.Arrays.stream(engine.split(",", -1)).map(String::trim).map(Engine::select).toList();
        Engine e = engines.getFirst();
        Model m = Architectures.of(model);
        String schedule = lrSchedule.equalsIgnoreCase("auto") ? Architectures.defaultSchedule(model) : lrSchedule;
        o.println("jburn train: model " + m.name() + " (" + String.format(Locale.ROOT, "%,d", m.parameterCount()) + " parameters), engine "
                + engines.stream().map(Engine::label).collect(java.util.stream.Collectors.joining(",")) + ", Adam lr " + lr + (schedule.equalsIgnoreCase("constant") ? "" : " (" + schedule + " decay)") + ", batch " + batchSize + ", " + epochs + " epochs, seed " + seed
                + (policy.isFull() ? "" : ", " + policy.describe()) + (tf32 ? ", TF32 GEMMs and convolutions" : ""));
        DataSource src = DataSource.resolve(data, System.getenv("JBURN_DATA"));
        o.println("data: " + src.description());
        FashionMnist fm = src.data().normalized();
        TensorDataset train = shape(fm.train(), m), test = shape(fm.test(), m);
        if (limit > 0 && limit < train.size()) train = train.take(limit);
        train = TensorDataset.of(train.x().to(e), train.y().to(e));
        test = TensorDataset.of(test.x().to(e), test.y().to(e));

        int trainedRows = validationSplit > 0 ? (int) Math.round(train.size() * (1 - validationSplit)) : train.size();
        long steps = (long) epochs * Math.max(1, (trainedRows + batchSize - 1) / batchSize);
        Trainer trainer = Trainer.of(m, Losses.softmaxCrossEntropy(), optimizer(schedule, lr, steps)).metrics(Metrics.accuracy());
        long t0 = System.nanoTime();
        Fit fit = Fit.epochs(epochs).batchSize(batchSize).shuffle(seed).output(o).precision(policy);
        if (validationSplit > 0) fit = fit.validationSplit(validationSplit);
        FitResult r;
        if (group == null && engines.size() > 1) {
            o.println("data-parallel: " + engines.size() + " replica threads, one per engine");
            r = trainer.fit(m.init(Prng.key(seed).to(e)), train, fit.dataParallel(DataParallel.threads(engines)));
        } else if (group == null) {
            r = trainer.fit(m.init(Prng.key(seed).to(e)), train, fit);
        } else {
            try (Communicator c = Communicators.create(e, group)) {
                o.println("data-parallel: " + group.size() + " processes, " + c.describe());
                r = trainer.fit(m.init(Prng.key(seed).to(e)), train, fit.dataParallel(DataParallel.of(c)));
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        if (!lead) return 0;
        Map<String, Double> t = trainer.evaluate(r.state().model(), test, 512, policy);
        o.println(String.format(Locale.ROOT, "test: loss %.4f, accuracy %.4f (%d images)", t.get("loss"), t.get("accuracy"), test.size()));
        o.println(String.format(Locale.ROOT, "time: %.1f s for %d epochs, %.0f training samples/s (validation included in the time)",
                secs, r.history().epochs().size(), trainedRows * (double) r.history().epochs().size() / secs));
        for (Engine used : new java.util.LinkedHashSet<>(engines)) {
            if (!used.fallbackCounts().isEmpty()) {
                o.println("engine " + used.label() + " ran these primitives on the cpu engine (op:dtype=count), which costs speed: " + used.fallbackCounts());
            }
        }
        Path modelFile = out.resolve(m.name() + ".jburn"), csv = out.resolve("history.csv"), png = out.resolve("history.png");
        try {
            java.nio.file.Files.createDirectories(out);
        } catch (java.io.IOException ex) {
            throw new dev.jburn.JBurnException("train", "cannot create the output directory " + out + ": " + ex.getMessage(), ex);
        }
        ModelFile.save(modelFile, m, r.state().model());
        r.history().writeCsv(csv);
        String pngNote = ", " + png;
        try {
            r.history().writePng(png);
        } catch (dev.jburn.JBurnException ex) {
            // A headless machine without fonts cannot draw text; the model and the CSV are written all the same.
            pngNote = " (no PNG: " + ex.getMessage() + ")";
        }
        o.println("wrote " + modelFile + " (jburn evaluate --model " + modelFile + "), " + csv + pngNote);
        return 0;
    }

    /** Flat rows for the MLP, [n, 28, 28, 1] for the CNN. */
    static TensorDataset shape(TensorDataset d, Model m) {
        int n = d.size();
        return m.inputSpecs().getFirst().rank() == 2 ? d.map(x -> x.reshape(n, 784)) : d.map(x -> x.reshape(n, 28, 28, 1));
    }
}
